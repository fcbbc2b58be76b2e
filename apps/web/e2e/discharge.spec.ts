import { expect, type Page, test } from '@playwright/test';
import { apiAs, signIn, signOut, urgencesPatient } from './helpers';

/**
 * The stay closed properly (issue 37, decision 0066), end to end. A patient seen in consultation at Urgences gets
 * paracetamol there (dispensed by the pharmacy) and a second medicine still to dispense, then stays: the stay page
 * lists the consultation's orders, the nurse gives a dose on the MAR and writes a handoff, the cashier drafts the
 * visit's invoice. The doctor discharges from the dialog, which starts from the stay's diagnosis (J18.9); the
 * discharge summary's PDF says what was given; then every screen tells the same story: the visit "Sorti(e) le",
 * the record's badge, the pharmacy's "Sorti le", no handoff left to take, and the invoice out of date until it is
 * refreshed with its bed-days and the medicine.
 *
 * With E2E_SHOTS=<dir>, the stay page, the discharge dialog and the out-of-date invoice are photographed there
 * (French, 1280 and 820 px wide).
 */
const shots = process.env.E2E_SHOTS;
const suffix = Math.random().toString(36).slice(2, 8);
const lastName = `Sortie${suffix}`;
const fullName = `Clarisse ${lastName}`;

async function shoot(page: Page, name: string) {
  if (!shots) return;
  for (const width of [1280, 820]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${shots}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

/** The text of every page of a PDF (pdf.js, as the server's tests read it). */
async function pdfText(bytes: Buffer): Promise<string> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: new Uint8Array(bytes), useSystemFonts: false }).promise;
  const pages: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(''));
  }
  return pages.join('\n');
}

test('a stay from admission to discharge: orders, a dose, the summary, every status and the invoice', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const nurse2 = await apiAs(request, 'infirmier2@greensen.test');
  const pharmacist = await apiAs(request, 'pharmacie@greensen.test');
  const cashier = await apiAs(request, 'caisse@greensen.test');

  // Admission at Urgences, assigned to medecin@, consultation started.
  const visit = await urgencesPatient(
    request,
    {
      first_name: 'Clarisse',
      last_name: lastName,
      sex: 'F',
      birth_date: '1972-05-09',
      allergies: ['Pénicilline'],
    },
    'Fièvre et toux depuis trois jours',
  );
  const { patient, admission, doctor } = visit;

  // Orders written in the consultation: paracetamol (to be dispensed), a second medicine left to dispense.
  const paracetamol = {
    atc: 'N02BE01',
    strength: '500 mg',
    dose: 1,
    frequency: { kind: 'times_per_day', times: 3 },
    duration_days: 3,
  };
  const rx = await visit.prescribe([paracetamol]);
  const rxLeft = await visit.prescribe([paracetamol]);

  // The stay, from the visit, with its provisional diagnosis, in a bed of a new unit; the nurse's care plan.
  const { stay, plan, nurse } = await visit.hospitalize('Pneumopathie', 'J18.9');

  // The pharmacy dispenses the first prescription; the cashier drafts the visit's invoice.
  const pharmacy = (await pharmacist.get('pharmacy/pharmacies/')).results.find(
    (p: { member: boolean }) => p.member,
  ).id as string;
  await pharmacist.post(`prescriptions/${rx.id}/dispense/`, {
    pharmacy,
    lines: [{ line: rx.lines[0].id, quantity: 9 }],
  });
  const draft = await cashier.post('invoices/assemble/', { admission: admission.id });

  // A dose given on the MAR, and a handoff for the next nurse.
  const from = new Date(Date.now() - 2 * 3_600_000).toISOString();
  const to = new Date(Date.now() + 24 * 3_600_000).toISOString();
  const mar = await nurse.get(
    `care/plans/${plan.id}/mar/?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
  );
  const marLine = mar.lines.find((l: { prescription: string }) => l.prescription === rx.id);
  expect(marLine.doses.length).toBeGreaterThan(0);
  await nurse.post('care/mar/administrations/', {
    outcome: 'given',
    prescription_line: marLine.id,
    scheduled_at: marLine.doses[0].scheduled_at,
    idempotency_key: crypto.randomUUID(),
    dose: 1,
    dose_unit: 'comprimé',
    route: 'oral',
  });
  const handoff = await nurse.post('care/handoffs/', {
    plan: plan.id,
    situation: 'Patiente stable, apyrétique.',
  });
  const toTake = async () =>
    (await nurse2.get('care/handoffs/?box=to_acknowledge&page_size=100')).results.map(
      (r: { handoff: { id: string } }) => r.handoff.id,
    );
  expect(await toTake()).toContain(handoff.id);

  // The doctor's stay page: the consultation's orders are the stay's.
  await signIn(page, 'medecin@greensen.test');
  await page.goto(`/hospitalizations/${stay.id}`);
  const orders = page.getByTestId('stay-orders');
  await expect(orders.getByRole('heading', { name: 'Prescriptions du séjour' })).toBeVisible();
  await expect(orders.getByTestId('stay-order').filter({ hasText: /paracétamol/i })).toHaveCount(2);
  await expect(orders.getByText('Aucune prescription active pour ce séjour.')).toHaveCount(0);
  await shoot(page, 'stay-orders');

  // The discharge dialog starts from the stay's diagnosis.
  await page.getByRole('button', { name: 'Sortie', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: /^Sortie/ });
  await expect(dialog.getByTestId('icd-choices').getByText(/J18\.9/)).toBeVisible();
  await dialog
    .getByRole('textbox', { name: /Résumé du séjour/ })
    .fill('Évolution favorable sous traitement.');
  await dialog
    .getByRole('textbox', { name: /Traitement de sortie/ })
    .fill('Paracétamol 1 g trois fois par jour, 3 jours');
  await shoot(page, 'discharge-dialog');
  await dialog.getByRole('button', { name: 'Enregistrer la sortie' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Sortie enregistrée : le lit passe en nettoyage').first()).toBeVisible();
  await expect(page.getByTestId('stay-closed')).toBeVisible();

  // The discharge summary's PDF, read back.
  const document = await doctor.post('documents/', {
    kind: 'discharge_summary',
    source: { type: 'hospitalization', id: stay.id },
  });
  const text = await pdfText(await doctor.bytes(`documents/${document.id}/pdf/`));
  expect(text).toContain('Diagnostics de sortie');
  expect(text).toContain('(J18.9)');
  expect(text).toContain('Allergies : Pénicilline');
  expect(text).toContain('Traitement reçu pendant le séjour');
  expect(text).toMatch(/paracétamol 500 mg : 1 dose\(s\)/i);
  expect(text).toContain('Traitement à poursuivre à domicile');
  expect(text).toContain('Paracétamol 1 g trois fois par jour, 3 jours');

  // The visit and the record: "Sorti(e) le …", no longer hospitalized.
  await page.goto(`/admissions/${admission.id}`);
  await expect(page.getByText(/^Sorti\(e\) le \d{2}\/\d{2}\/\d{4}/).first()).toBeVisible();
  await expect(page.getByText('Hospitalisé', { exact: true })).toHaveCount(0);
  await page.goto(`/patients/${patient.id}`);
  await expect(page.getByRole('heading', { name: fullName })).toBeVisible();
  await expect(page.getByText(/^Sorti\(e\) le \d{2}\/\d{2}\/\d{4}/).first()).toBeVisible();
  await signOut(page);

  // The pharmacy's worklist: the medicine left to dispense says when the patient left.
  const worklist = await pharmacist.get('prescriptions/?status=to_dispense&page_size=100');
  const left = worklist.results.find((r: { id: string }) => r.id === rxLeft.id);
  expect(left).toMatchObject({ patient_left: true });
  expect(left.patient_left_at).not.toBeNull();

  // The next nurse has nothing to take over for a patient who left.
  expect(await toTake()).not.toContain(handoff.id);

  // The cashier's draft is out of date; refreshed, it bills the bed-days and the dispensed medicine.
  await signIn(page, 'caisse@greensen.test');
  await page.goto(`/billing/invoices/${draft.id}`);
  await expect(page.getByTestId('invoice-out-of-date')).toBeVisible();
  await shoot(page, 'invoice-out-of-date');
  await page.getByTestId('invoice-out-of-date').getByRole('button', { name: 'Actualiser' }).click();
  await expect(page.getByTestId('invoice-out-of-date')).toHaveCount(0);
  await expect(page.getByText('LIT-JOUR').first()).toBeVisible();
  const invoice = await cashier.get(`invoices/${draft.id}/`);
  const codes = invoice.lines
    .filter((l: { is_removed: boolean }) => !l.is_removed)
    .map((l: { act: { code: string } }) => l.act.code);
  expect(codes).toContain('LIT-JOUR');
  const medicine = invoice.lines.find(
    (l: { act: { category?: string; code: string } }) =>
      l.act.category === 'medication' || l.act.code.startsWith('MED-'),
  );
  expect(medicine, JSON.stringify(codes)).toBeTruthy();
  expect(medicine.quantity).toBe(9);
  await expect(page.getByText(medicine.act.code).first()).toBeVisible();
  await shoot(page, 'invoice-refreshed');
});
