import { expect, type Page, test } from '@playwright/test';
import { signIn, signOut } from './helpers';

/**
 * Consultations (issue 7): medecin@ starts the next consultation from the dashboard, writes the sections
 * (saved automatically as drafts), adds a coded primary diagnosis from the ICD-10 search, completes it, finds
 * it locked and adds an addendum; another department's doctor and the secretary are refused.
 * The ICD-10 catalogue is loaded by the server at start (ensureIcd10Catalogue), so B50.9 is searchable.
 */

async function authToken(page: Page): Promise<{ access: string; hospital: string }> {
  return page.evaluate(() => {
    const raw = localStorage.getItem('greensen-auth');
    const state = raw
      ? (JSON.parse(raw) as { state: { access: string; currentHospitalId: string } }).state
      : null;
    return { access: state?.access ?? '', hospital: state?.currentHospitalId ?? '' };
  });
}

test('a doctor writes, codes, completes a consultation and adds an addendum; others are refused', async ({
  page,
}) => {
  test.setTimeout(150_000);

  // medecin@ (Urgences of HGG, and CDF): in HGG, Start Next Consultation lands on the new consultation page.
  await signIn(page, 'medecin@greensen.test');
  await page
    .getByRole('banner')
    .getByRole('combobox', { name: /^Hôpital/ })
    .click();
  await page.getByRole('option', { name: /HGG/ }).first().click();
  // The HGG queue (seeded patients assigned to medecin@ in Urgences) before starting the next one.
  await expect(page.getByRole('row', { name: /Héritier Kasongo/ })).toBeVisible();
  const start = page.getByTestId('start-next-consultation');
  await expect(start).toBeEnabled();
  await start.click();
  await expect(page).toHaveURL(/\/consultations\/[0-9a-f-]{36}$/);
  const consultationPath = new URL(page.url()).pathname;
  const heading = page.getByRole('heading', { level: 2, name: /^Consultation (de |d')/ });
  await expect(heading).toBeVisible();
  const patientName = ((await heading.textContent()) ?? '').replace(/^Consultation (de |d')/, '').trim();
  await expect(page.getByTestId('patient-banner').filter({ visible: true })).toContainText(patientName);

  // The sections, saved as drafts without any button.
  await page
    .getByRole('textbox', { name: 'Histoire de la maladie' })
    .fill('Fièvre à 39 °C depuis 3 jours, frissons, céphalées.');
  await page
    .getByRole('textbox', { name: 'Examen physique' })
    .fill('Conjonctives pâles, splénomégalie discrète.');
  await page.getByRole('textbox', { name: 'Température' }).fill('39.2');
  await page
    .getByRole('textbox', { name: 'Conclusion', exact: true })
    .fill('Accès palustre simple probable.');
  await page
    .getByRole('textbox', { name: 'Conduite à tenir' })
    .fill('TDR paludisme, artéméther-luméfantrine.');
  await page.getByRole('combobox', { name: 'Issue de la consultation' }).click();
  await page.getByRole('option', { name: 'Retour à domicile' }).click();
  await expect(page.getByTestId('autosave-status')).toContainText('Brouillon enregistré à', {
    timeout: 10_000,
  });

  // Completing without a primary diagnosis: the dialog says what is missing.
  await page.getByRole('button', { name: 'Terminer la consultation' }).click();
  const dialog = page.getByRole('dialog', { name: 'Terminer la consultation' });
  await expect(dialog.getByTestId('completion-missing')).toContainText('Indiquez un diagnostic principal.');
  await expect(dialog.getByRole('button', { name: 'Terminer et verrouiller' })).toBeDisabled();
  await dialog.getByRole('link', { name: 'Ajouter un diagnostic' }).click();

  // The diagnoses page: ICD-10 search in French, the code picked as primary.
  await expect(page).toHaveURL(/\/consultations\/diagnosis\/[0-9a-f-]{36}$/);
  await page.getByTestId('icd10-search').fill('paludisme falciparum');
  await page.getByRole('option', { name: /B50\.9/ }).click();
  await expect(page.getByTestId('diagnosis-choice')).toContainText('B50.9');
  await page.getByRole('button', { name: 'Ajouter le diagnostic' }).click();
  const row = page.getByTestId('diagnosis-row').first();
  await expect(row).toContainText('B50.9');
  await expect(row).toContainText('Principal');

  // Back to the consultation: the drafts are there; completion now goes through.
  await page.getByRole('link', { name: 'Retour à la consultation' }).click();
  await expect(page.getByRole('textbox', { name: 'Histoire de la maladie' })).toHaveValue(
    'Fièvre à 39 °C depuis 3 jours, frissons, céphalées.',
  );
  await expect(page.getByTestId('diagnoses-summary')).toContainText('B50.9');
  await page.getByRole('button', { name: 'Terminer la consultation' }).click();
  await expect(dialog).toContainText("L'admission passera au statut « Terminé »");
  await dialog.getByRole('button', { name: 'Terminer et verrouiller' }).click();
  await expect(page.getByTestId('consultation-locked')).toBeVisible();
  await expect(page.getByTestId('consultation-record')).toContainText('Accès palustre simple probable.');
  await expect(page.getByRole('textbox', { name: 'Histoire de la maladie' })).toHaveCount(0);

  // Edits are refused by the server too (409), whatever the screen shows.
  const { access, hospital } = await authToken(page);
  const id = consultationPath.split('/').pop() ?? '';
  const refused = await page.request.patch(`/api/consultations/${id}/`, {
    headers: { Authorization: `Bearer ${access}`, 'Hospital-ID': hospital },
    data: { version: 99, plan: 'Modification après coup' },
  });
  expect(refused.status()).toBe(409);

  // An addendum instead, dated and signed.
  await page.getByRole('textbox', { name: 'Nouvel addendum' }).fill('TDR positif à P. falciparum.');
  await page.getByRole('button', { name: "Ajouter l'addendum" }).click();
  await expect(page.getByTestId('addendum-text')).toHaveText('TDR positif à P. falciparum.');

  // The consultation appears in "my consultations today" with its coded diagnosis.
  await page.goto('/consultations');
  await expect(page.getByRole('row', { name: new RegExp(patientName) }).first()).toContainText('B50.9');
  await page.goto('/');
  await signOut(page);

  // A doctor of another department (medecin2@, Médecine interne) may not open it: refusal then /.
  await signIn(page, 'medecin2@greensen.test');
  await page.goto(consultationPath);
  await expect(page.getByText("Vous n'avez pas accès à cette fonctionnalité")).toBeVisible();
  await expect(page).toHaveURL(/:\d+\/$/);
  await signOut(page);

  // The secretary: the module itself is refused.
  await signIn(page, 'secretaire@greensen.test');
  await expect(page.getByRole('link', { name: 'Consultations' })).toHaveCount(0);
  await page.goto(consultationPath);
  await expect(page).toHaveURL(/access_denied=true/);
  await expect(
    page.getByText(`L'accès au module "Consultations" n'est pas autorisé pour votre rôle`),
  ).toBeVisible();
});
