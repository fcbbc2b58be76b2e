import { expect, type Page, test } from '@playwright/test';
import { signIn, signOut } from './helpers';

/**
 * Medication safety at every step (issue 34), one penicillin-allergic patient of the demo — Bernadette Ilunga,
 * in bed URG101-1 — from the prescriber's desk to the pharmacy counter to the bedside:
 * - the Urgences doctor (medecin@) prescribes amoxicilline from her stay: the server's live check shows the
 *   penicillin allergy as a blocking alert, signing waits for a written reason, then signs;
 * - the pharmacist (pharmacie@) sees the same alert with the doctor's reason; the line is not pre-ticked, and is
 *   dispensed only with the pharmacist's own reason;
 * - the Urgences nurse (infirmier@) sees the alert on the MAR, the five rights in the dose dialog with the
 *   prescriber's reason, and gives the first dose now (stat) with her own reason.
 * French screenshots of the three screens are saved in the test's output folder.
 */
const PATIENT = 'Bernadette Ilunga';
const DOCTOR_REASON = 'Éruption cutanée ancienne et bénigne, pas d’alternative disponible';
const PHARMACIST_REASON = 'Vérifié avec le prescripteur par téléphone';
const NURSE_REASON = 'Prescripteur joint, surveillance rapprochée 1 h';
const ALLERGY_ALERT = '[data-testid="safety-alert"][data-code^="allergy"]';

async function leave(page: Page) {
  await page.goto('/');
  await signOut(page);
}

test('one penicillin-allergic patient: the alert at prescribing, dispensing and administration', async ({
  page,
}, testInfo) => {
  test.setTimeout(240_000);
  const shot = (name: string) => testInfo.outputPath(name);

  // The doctor prescribes amoxicilline from the stay.
  await signIn(page, 'medecin@greensen.test');
  await page
    .getByRole('banner')
    .getByRole('combobox', { name: /^Hôpital/ })
    .click();
  await page.getByRole('option', { name: /HGG/ }).first().click();
  await page.goto('/hospitalizations');
  await page.getByRole('link', { name: PATIENT }).first().click();
  await expect(page).toHaveURL(/\/hospitalizations\/[0-9a-f-]{36}$/);
  await page.getByRole('button', { name: 'Prescrire' }).click();
  const form = page.getByTestId('prescription-form');
  await form.getByTestId('medication-search').fill('amoxicilline');
  await page
    .getByRole('option', { name: /^amoxicilline\b(?!.*clavulan)/i })
    .first()
    .click();
  // The capsules the pharmacy holds (500 mg).
  await form.getByRole('combobox', { name: /Présentation/ }).click();
  await page.getByRole('option', { name: 'Gélule 500 mg' }).click();
  await form.getByRole('textbox', { name: /Durée/ }).fill('7');

  // The server's live check: the penicillin allergy, blocking; signing waits for a reason.
  const prescribing = form.locator(ALLERGY_ALERT).first();
  await expect(prescribing).toBeVisible();
  await expect(prescribing).toHaveAttribute('data-severity', 'blocking');
  const sign = form.getByRole('button', { name: 'Signer l’ordonnance' });
  await expect(sign).toBeDisabled();
  await prescribing.getByTestId('safety-reason').fill(DOCTOR_REASON);
  await expect(sign).toBeEnabled();
  await page.screenshot({ path: shot('1-prescription.png') });
  await sign.click();
  await expect(form).toBeHidden();
  await expect(page.getByText('Ordonnance signée').first()).toBeVisible();
  await leave(page);

  // The pharmacist: the same alert with the doctor's reason; not pre-ticked; dispensed with her own reason.
  await signIn(page, 'pharmacie@greensen.test');
  await page.goto('/pharmacy');
  await page.getByRole('tab', { name: /À délivrer/ }).click();
  const row = page
    .getByTestId('to-dispense-row')
    .filter({ hasText: PATIENT })
    .filter({ hasText: 'amoxicilline' });
  // The worklist is oldest first: the prescription just signed is the last of this patient's.
  await row.last().getByRole('link', { name: 'Délivrer' }).click();
  const dialog = page.getByTestId('dispense-form');
  await expect(dialog).toBeVisible();
  const line = dialog.getByTestId('dispense-line').filter({ hasText: 'amoxicilline' });
  const counter = line.locator(ALLERGY_ALERT).first();
  await expect(counter).toHaveAttribute('data-severity', 'blocking');
  await expect(counter.getByTestId('safety-override')).toContainText('Marie Lukusa');
  await expect(counter).toContainText(DOCTOR_REASON);
  await expect(line.getByRole('checkbox')).not.toBeChecked();
  await expect(line.getByTestId('line-refused')).toBeVisible();
  await page.screenshot({ path: shot('2-dispense.png') });
  await line.getByRole('checkbox').check();
  await line.getByTestId('safety-reason').fill(PHARMACIST_REASON);
  await dialog.getByRole('button', { name: 'Enregistrer la délivrance' }).click();
  await expect(page.getByText('Délivrance enregistrée').first()).toBeVisible();
  await expect(dialog).toBeHidden();
  await leave(page);

  // The nurse: the alert on the MAR, the five rights, the first dose now with her own reason.
  await signIn(page, 'infirmier@greensen.test');
  await page.goto('/care');
  await page.getByRole('tab', { name: 'Patients' }).click();
  await page.getByRole('row', { name: new RegExp(PATIENT) }).click();
  await expect(page.getByRole('heading', { name: `Dossier de soins de ${PATIENT}` })).toBeVisible();
  await page.getByRole('tab', { name: 'Médicaments' }).click();
  // The newest amoxicillin line is this walk's (the demo patient may have an older one, signed at seeding).
  const mar = page.getByTestId('mar-line').filter({ hasText: 'amoxicilline' }).last();
  await expect(mar.locator('[data-testid="mar-line-alert"][data-code^="allergy"]').first()).toBeVisible();
  await mar.getByTestId('mar-stat').click();
  const dose = page.getByTestId('dose-form');
  const rights = dose.getByTestId('five-rights');
  await expect(rights).toContainText(PATIENT);
  await expect(rights).toContainText(/HGG-\d+/);
  await expect(rights.getByTestId('right-medicine')).toContainText('amoxicilline');
  await expect(rights.getByTestId('right-time')).toContainText('Maintenant');
  const bedside = dose.locator(ALLERGY_ALERT).first();
  await expect(bedside).toHaveAttribute('data-severity', 'blocking');
  await expect(bedside).toContainText(DOCTOR_REASON);
  await bedside.getByTestId('safety-reason').fill(NURSE_REASON);
  await page.screenshot({ path: shot('3-administration.png') });
  await dose.getByTestId('dose-submit').click();
  await expect(dose).toBeHidden();
  await expect(mar.getByTestId('mar-stat-given')).toBeVisible();
  await page.screenshot({ path: shot('4-mar-after-stat.png'), fullPage: true });
});
