import { expect, type Locator, type Page, test } from '@playwright/test';
import { signIn, signOut } from './helpers';

/**
 * Appointments (issue 22) with the demo: the secretary (secretaire@) books a follow-up for a patient with the demo
 * doctor (medecin@, Marie Lukusa) in her first free slot, and checks in the doctor's patients of today at the desk
 * (a visit opens, or the refusal is said); the doctor sees today's appointments with their check-in state in the
 * schedule tab of My Patients Today (the patient checked in, arrived) and the follow-up in her calendar. The demo
 * books today's patients of medecin@ around the hour it is made (seed): late in the evening none is left to come.
 */
const DOCTOR = 'Marie Lukusa';

async function choose(page: Page, scope: Locator, label: RegExp, option: string | RegExp) {
  const input = scope.getByRole('combobox', { name: label });
  await input.click();
  const listbox = page.locator(`#${await input.getAttribute('aria-controls')}`);
  await listbox.getByRole('option', { name: option }).first().click();
}

test('the secretary books a follow-up and checks a patient in; the doctor sees them', async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, 'secretaire@greensen.test');

  // Book a follow-up with the demo doctor in her first free slot.
  await page.goto('/appointments');
  await expect(page.getByRole('heading', { name: 'Rendez-vous', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Nouveau rendez-vous' }).click();
  const form = page.getByTestId('booking-form');
  await form.getByRole('combobox', { name: /^Patient/ }).fill('Ngalula');
  await page.getByRole('option', { name: /Esther Ngalula/ }).click();
  await choose(page, form, /^Prestataire/, DOCTOR);
  await choose(page, form, /^Type de rendez-vous/, 'Suivi');
  const slot = form.getByTestId('slot').first();
  await expect(slot).toBeVisible();
  const start = (await slot.getAttribute('data-start')) ?? '';
  await slot.click();
  await expect(form.getByTestId('chosen-slot')).toContainText(DOCTOR);
  await form.getByRole('textbox', { name: /^Motif/ }).fill('Contrôle après traitement');
  await form.getByRole('button', { name: 'Réserver' }).click();
  await expect(page.getByRole('heading', { name: "Rendez-vous d'Esther Ngalula" })).toBeVisible();
  await expect(page.getByTestId('appointment-status')).toHaveText('Réservé');
  const bookedUrl = page.url();

  // At the desk: today's appointments of the doctor are offered to check in; a check-in opens the visit (linked
  // from the appointment) or is refused plainly (the demo's patients of the day may already be in a visit).
  const open = page
    .locator('tbody tr')
    .filter({ has: page.locator('[data-status="booked"], [data-status="confirmed"]') });
  async function todayList() {
    await page.goto('/appointments');
    const filters = page.getByTestId('appointments-page');
    await choose(page, filters, /^Prestataire/, DOCTOR);
    const today = await filters.getByRole('textbox', { name: 'Du' }).inputValue();
    await filters.getByRole('textbox', { name: 'Au' }).fill(today);
    await filters.getByRole('textbox', { name: 'Au' }).press('Enter');
    await expect(page.getByText(/sur \d+|Aucun rendez-vous/).first()).toBeVisible();
    return open.count();
  }
  let patient = '';
  const rows = await todayList();
  for (let i = 0; i < rows && !patient; i++) {
    if (i > 0) await todayList();
    await open.nth(i).click();
    const heading = page.getByRole('heading', { name: /^Rendez-vous (de |d')/ });
    await expect(heading).toBeVisible();
    await page.getByRole('button', { name: "Enregistrer l'arrivée" }).click();
    const visit = page.getByTestId('appointment-admission');
    await expect(visit.or(page.getByText("L'action a échoué")).first()).toBeVisible();
    if (await visit.isVisible()) {
      patient = ((await heading.textContent()) ?? '').replace(/^Rendez-vous (de |d')/, '');
      await expect(visit.getByRole('link', { name: /Ouvrir la visite/ })).toHaveAttribute(
        'href',
        /\/admissions\//,
      );
      await expect(page.getByTestId('appointment-status')).toHaveText('Arrivé');
    }
  }
  await page.goto('/');
  await signOut(page);

  // The doctor: today's appointments with their check-in state in the schedule tab (the patient checked in
  // above, arrived); the follow-up in her calendar.
  await signIn(page, 'medecin@greensen.test');
  await page.getByRole('tab', { name: 'Planning' }).click();
  await expect(page.getByTestId('schedule-tab').or(page.getByTestId('schedule-empty'))).toBeVisible();
  if (patient) {
    const arrived = page.getByTestId('schedule-row').filter({ hasText: patient });
    await expect(arrived.first()).toHaveAttribute('data-state', 'arrived');
    await expect(arrived.first().getByRole('link', { name: /Visite n°/ })).toBeVisible();
  }

  await page.goto(bookedUrl);
  await expect(page.getByRole('heading', { name: "Rendez-vous d'Esther Ngalula" })).toBeVisible();
  await expect(page.getByTestId('appointment-when')).toContainText(DOCTOR);
  // The day of the follow-up in her calendar (the browser's calendar date of the slot's start).
  const day = await page.evaluate((iso) => {
    const d = new Date(iso);
    return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  }, start);
  await page.goto(`/calendar?view=timeGridDay&date=${day}`);
  await expect(
    page.locator('.ec-event.gs-appointment', { hasText: 'Esther Ngalula · Suivi' }).first(),
  ).toBeVisible();
});

test('the secretary registers a patient on the spot from the booking form and books for them', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signIn(page, 'secretaire@greensen.test');
  await page.goto('/appointments');
  await page.getByRole('button', { name: 'Nouveau rendez-vous' }).click();
  const form = page.getByTestId('booking-form');
  await form.getByTestId('register-patient').click();

  // The patients' registration dialog, over the booking form: a patient nobody registered yet.
  const register = page.getByRole('dialog', { name: 'Nouveau patient' });
  const last = `Mwamba${Date.now().toString(36)}`;
  await register.getByRole('textbox', { name: /^Nom/ }).fill(last);
  await register.getByRole('textbox', { name: /^Prénom/ }).fill('Odile');
  await register.getByRole('radio', { name: 'Femme' }).check();
  await register.getByText('Âge estimé', { exact: true }).click();
  await register.getByRole('textbox', { name: /^Âge estimé \(années\)/ }).fill('41');
  await register.getByRole('button', { name: 'Enregistrer le patient' }).click();
  await expect(register).toBeHidden();

  // She is the booking's patient; book her a follow-up with the demo doctor.
  await expect(form.getByRole('combobox', { name: /^Patient/ })).toHaveValue(new RegExp(`^Odile ${last} · `));
  await choose(page, form, /^Prestataire/, DOCTOR);
  await choose(page, form, /^Type de rendez-vous/, 'Suivi');
  await form.getByTestId('slot').first().click();
  await form.getByRole('textbox', { name: /^Motif/ }).fill('Premier rendez-vous');
  await form.getByRole('button', { name: 'Réserver' }).click();
  await expect(page.getByRole('heading', { name: `Rendez-vous d'Odile ${last}` })).toBeVisible();
});
