import { expect, type Page, test } from '@playwright/test';
import { signIn, signOut } from './helpers';

/**
 * The patient journey of issue 6, across four roles: the secretary registers a patient (and is warned of a
 * duplicate the second time), admits them to Urgences; the nurse triages; the queue manager assigns them
 * to medecin@; the doctor sees them in My Patients Today and starts the consultation from the dashboard.
 */
const suffix = Math.random().toString(36).slice(2, 8);
const lastName = `Journey${suffix}`;
const firstName = 'Amani';
const fullName = `${firstName} ${lastName}`;

async function choose(
  page: Page,
  scope: ReturnType<Page['getByRole']>,
  label: RegExp,
  option: string | RegExp,
) {
  await scope.getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option }).first().click();
}

/** Signs out from the dashboard, so that the next sign-in lands on the dashboard too. */
async function leave(page: Page) {
  await page.goto('/');
  await signOut(page);
}

async function fillRegistration(page: Page) {
  const dialog = page.getByRole('dialog', { name: 'Nouveau patient' });
  await dialog.getByRole('textbox', { name: /^Nom/ }).fill(lastName);
  await dialog.getByRole('textbox', { name: /^Prénom/ }).fill(firstName);
  await dialog.getByRole('radio', { name: 'Femme' }).check();
  await dialog.getByLabel(/Date de naissance/).fill('1985-03-14');
  await dialog.getByRole('textbox', { name: /^Téléphone$/ }).fill('+243 81 555 01 23');
  await dialog.getByRole('button', { name: 'Enregistrer le patient' }).click();
}

test('register, admit, triage, assign and start the consultation from the dashboard', async ({ page }) => {
  test.setTimeout(120_000);

  // Secretary: registration, then the same patient again → duplicate warning → open the existing record.
  await signIn(page, 'secretaire@greensen.test');
  await page.goto('/patients');
  await page.getByRole('button', { name: 'Nouveau patient' }).click();
  await fillRegistration(page);
  await expect(page.getByRole('heading', { name: fullName })).toBeVisible();
  await expect(page).toHaveURL(/\/patients\/[0-9a-f-]{36}$/);
  const patientUrl = page.url();
  const recordNumber = (await page.getByTestId('record-number').textContent())?.trim();
  expect(recordNumber).toMatch(/^HGG-\d+$/);

  await page.goto('/patients');
  await page.getByRole('button', { name: 'Nouveau patient' }).click();
  await fillRegistration(page);
  const warning = page.getByTestId('duplicate-warning');
  await expect(warning).toBeVisible();
  await expect(warning.getByText(recordNumber ?? '', { exact: false })).toBeVisible();
  await warning.getByRole('button', { name: 'Ouvrir ce dossier' }).click();
  await expect(page).toHaveURL(patientUrl);

  // Admission to Urgences.
  await page.getByRole('button', { name: 'Admettre' }).click();
  const admit = page.getByRole('dialog', { name: 'Nouvelle admission' });
  await choose(page, admit, /^Service/, 'Urgences');
  await expect(admit.getByRole('combobox', { name: /^Type d'admission/ })).toHaveValue('Urgence');
  await admit.getByRole('textbox', { name: /^Motif/ }).fill('Douleur thoracique depuis une heure');
  await admit.getByRole('button', { name: 'Admettre' }).click();
  await expect(page).toHaveURL(/\/admissions\/[0-9a-f-]{36}$/);
  await expect(page.getByText('En attente').first()).toBeVisible();
  const admissionPath = new URL(page.url()).pathname;
  await leave(page);

  // Nurse: triage with vitals; the suggested level follows the vitals.
  await signIn(page, 'infirmier@greensen.test');
  await page.goto(admissionPath);
  await page.getByRole('button', { name: 'Trier' }).click();
  const triage = page.getByRole('dialog', { name: 'Tri du patient' });
  await triage.getByRole('textbox', { name: 'Fréquence cardiaque' }).fill('135');
  await expect(triage.getByTestId('triage-suggestion').getByTestId('triage-level')).toHaveText('2');
  await triage.getByRole('textbox', { name: 'SpO₂' }).fill('84');
  await expect(triage.getByTestId('triage-suggestion').getByTestId('triage-level')).toHaveText('1');
  await triage.getByRole('textbox', { name: /Motif de recours/ }).fill('Douleur thoracique, sueurs');
  await triage.getByRole('button', { name: 'Enregistrer le tri' }).click();
  await expect(triage).toBeHidden();
  await expect(page.getByRole('link', { name: 'Voir la fiche de tri' })).toBeVisible();
  await leave(page);

  // Queue manager: assigns the patient to Dr. Marie Lukusa (medecin@) from the Patient Assignment dashboard.
  await signIn(page, 'file@greensen.test');
  await expect(page.getByRole('heading', { name: 'Affectation des patients' })).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: fullName });
  await row.getByRole('button', { name: 'Affecter' }).click();
  const assign = page.getByRole('dialog', { name: 'Affecter un patient' });
  await choose(page, assign, /^Médecin/, /Marie Lukusa/);
  await assign.getByRole('button', { name: 'Affecter' }).click();
  await expect(assign).toBeHidden();
  await expect(page.getByText('Patient affecté')).toBeVisible();
  await leave(page);

  // Doctor: in the Greensen hospital, the patient is in My Patients Today; Start Next Consultation.
  await signIn(page, 'medecin@greensen.test');
  await choose(page, page.getByRole('banner'), /^Hôpital/, /HGG/);
  await expect(page.getByRole('heading', { name: 'Mes patients du jour' })).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: fullName })).toBeVisible();
  const start = page.getByTestId('start-next-consultation');
  await expect(start).toBeEnabled();
  await start.click();
  await expect(page).toHaveURL(/\/consultations\/[0-9a-f-]{36}$/);
  await expect(page.getByText('Consultation démarrée')).toBeVisible();
});
