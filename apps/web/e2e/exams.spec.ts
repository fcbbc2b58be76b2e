import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { signIn } from './helpers';

/**
 * Exams (issue 7), across three roles at once: the laboratory technician (labo@) enters the result of the
 * seeded urgent malaria test of Gloire Kalala — positive, so abnormal — the biologist (biologiste@) validates
 * it, and the requesting doctor (medecin@), signed in meanwhile on the dashboard, is notified at once, sees the
 * urgent abnormal result in the dashboard card and the abnormal flag on the exam, and marks it as seen.
 */
const EXAM = 'Test de diagnostic rapide du paludisme (TDR)';

async function newPage(
  contexts: BrowserContext[],
  browser: import('@playwright/test').Browser,
): Promise<Page> {
  const context = await browser.newContext({ locale: 'fr-FR' });
  contexts.push(context);
  return context.newPage();
}

function worklistRow(page: Page) {
  return page.getByRole('row').filter({ hasText: 'Kalala' }).filter({ hasText: EXAM });
}

test('the lab enters an abnormal result, the biologist validates, the doctor is notified', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const contexts: BrowserContext[] = [];

  // The requesting doctor is on the dashboard, notification socket open.
  const doctor = await newPage(contexts, browser);
  const socket = doctor.waitForEvent('websocket', (ws) => ws.url().includes('/ws/notifications/'));
  await signIn(doctor, 'medecin@greensen.test');
  await socket;
  // medecin@ works at CDF and HGG: the orders are at HGG.
  await doctor
    .getByRole('banner')
    .getByRole('combobox', { name: /^Hôpital/ })
    .click();
  await doctor.getByRole('option', { name: /HGG/ }).first().click();
  const card = doctor.getByTestId('exam-alerts-card');
  await expect(card).toBeVisible();
  await expect(card.getByTestId('exam-alert').first()).toBeVisible();
  await expect(card.getByText('Gloire Kalala')).toHaveCount(0);

  // The technician finds the urgent order in the worklist (urgent first) and enters the result.
  const lab = await newPage(contexts, browser);
  await signIn(lab, 'labo@greensen.test');
  await lab.goto('/exams');
  await expect(lab.getByRole('heading', { name: 'Examens' })).toBeVisible();
  const row = worklistRow(lab);
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('exam-urgency-urgent')).toBeVisible();
  await row.getByRole('link', { name: 'Saisir' }).click();
  await expect(lab).toHaveURL(/\/exams\/[0-9a-f-]{36}$/);
  const examPath = new URL(lab.url()).pathname;
  await expect(lab.getByTestId('patient-banner')).toContainText('Gloire Kalala');
  const form = lab.getByTestId('exam-result-form');
  await form.getByRole('combobox', { name: /^Résultat/ }).click();
  await lab.getByRole('option', { name: 'Positif P. falciparum' }).click();
  // The flag is previewed before saving.
  await expect(form.getByTestId('flag-abnormal')).toBeVisible();
  await lab.getByRole('button', { name: 'Enregistrer les résultats' }).click();
  await expect(lab.getByTestId('exam-status').first()).toHaveText('Résultats saisis');
  // A technician (nurse) does not validate.
  await expect(lab.getByRole('button', { name: 'Valider les résultats' })).toHaveCount(0);

  // The biologist validates it from the "to validate" tab.
  const bio = await newPage(contexts, browser);
  await signIn(bio, 'biologiste@greensen.test');
  await bio.goto('/exams');
  await bio.getByTestId('worklist-tabs').getByText('À valider').click();
  await worklistRow(bio).getByRole('link', { name: 'Valider' }).click();
  await expect(bio).toHaveURL(new RegExp(`${examPath}$`));
  await expect(bio.getByTestId('exam-results')).toContainText('Positif P. falciparum');
  await bio.getByRole('button', { name: 'Valider les résultats' }).click();
  await expect(bio.getByTestId('exam-status').first()).toHaveText('Validé');

  // The doctor is notified at once, and the dashboard card lists the urgent abnormal result.
  await expect(doctor.getByText(`Résultat urgent anormal : ${EXAM}`).first()).toBeVisible({ timeout: 5000 });
  const alert = card.getByTestId('exam-alert').filter({ hasText: 'Gloire Kalala' });
  await expect(alert).toBeVisible();
  await expect(alert.getByTestId('flag-abnormal')).toBeVisible();

  // On the exam: the abnormal flag, who validated; "seen" takes it off the dashboard.
  await alert.getByRole('link', { name: 'Gloire Kalala' }).click();
  await expect(doctor).toHaveURL(new RegExp(`${examPath}$`));
  await expect(doctor.getByTestId('exam-abnormal').first()).toBeVisible();
  await expect(doctor.getByTestId('result-row-result').getByTestId('flag-abnormal')).toBeVisible();
  await expect(doctor.getByTestId('exam-steps')).toContainText('Nadine Mulumba');
  await doctor.getByRole('button', { name: 'Marquer comme vu' }).click();
  await expect(doctor.getByTestId('exam-steps')).toContainText('Vu par le prescripteur');
  await doctor.goto('/');
  await expect(doctor.getByTestId('exam-alerts-card')).toBeVisible();
  await expect(doctor.getByTestId('exam-alerts-card').getByText('Gloire Kalala')).toHaveCount(0);

  for (const context of contexts) await context.close();
});

test('a midwife has no exams: the module is refused and the record hides nothing else', async ({ page }) => {
  await signIn(page, 'sagefemme@greensen.test');
  await page.goto('/exams');
  await expect(page).toHaveURL(/access_denied=true/);
  await expect(page.getByTestId('access-denied')).toBeVisible();
});
