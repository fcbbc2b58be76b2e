import { expect, test } from '@playwright/test';
import { signIn, signOut } from './helpers';

test('an administrator signs in in French, stays signed in after a reload, and signs out', async ({
  page,
}) => {
  // What the browser's console shows an operator from the sign-in to the signed-in reload: no warning, no error.
  const console: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'warning' || message.type() === 'error') console.push(message.text());
  });
  await signIn(page, 'admin@greensen.test');
  await expect(page.getByRole('heading', { name: "Vue d'ensemble de l'hôpital" })).toBeVisible();
  await expect(page.getByRole('navigation').getByText('Administration')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: "Vue d'ensemble de l'hôpital" })).toBeVisible();
  expect(console).toEqual([]);
  await signOut(page);
  await page.goto('/patients');
  await expect(page).toHaveURL(/\/login$/);
});

test('a doctor signs in in English and sees the doctor dashboard', async ({ page }) => {
  await signIn(page, 'medecin@greensen.test', 'en');
  await expect(page.getByRole('heading', { name: 'My Patients Today' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Start Next Consultation' })).toBeVisible();
});

test('a head doctor has both the doctor and the administrator dashboards, and starts on the overview', async ({
  page,
}) => {
  await signIn(page, 'chef@greensen.test');
  // Issue 37 (decision 0071): the hospital overview first, the doctor's dashboard one click away.
  await expect(page.getByRole('heading', { name: "Vue d'ensemble de l'hôpital" })).toBeVisible();
  await page.getByText('Mes patients du jour', { exact: true }).first().click();
  await expect(page.getByRole('heading', { name: 'Mes patients du jour' })).toBeVisible();
});

test('a secretary sent to consultations is refused with the exact message on the dashboard', async ({
  page,
}) => {
  await signIn(page, 'secretaire@greensen.test');
  await expect(page.getByRole('navigation').getByText('Consultations')).toHaveCount(0);
  // Nothing to do in hospitals or administration: not in her navigation (issue 25). Billing is hers when she
  // works at the cash desk (decision 0027), so it is listed.
  await expect(page.getByRole('navigation').getByText('Patients')).toBeVisible();
  for (const name of ['Hôpitaux', 'Administration'])
    await expect(page.getByRole('navigation').getByText(name, { exact: true })).toHaveCount(0);
  await page.goto('/consultations');
  await expect(page).toHaveURL(/access_denied=true/);
  await expect(
    page.getByText('L\'accès au module "Consultations" n\'est pas autorisé pour votre rôle'),
  ).toBeVisible();
});

test('an expired access token is refreshed without interrupting the user', async ({ page }) => {
  await signIn(page, 'infirmier@greensen.test');
  await page.evaluate(() => {
    const raw = localStorage.getItem('greensen-auth');
    if (!raw) throw new Error('no auth state');
    const state = JSON.parse(raw);
    state.state.access = 'expired.or.invalid';
    localStorage.setItem('greensen-auth', JSON.stringify(state));
  });
  await page.goto('/profile');
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByLabel('Adresse e-mail')).toHaveValue('infirmier@greensen.test');
  const access = await page.evaluate(
    () => JSON.parse(localStorage.getItem('greensen-auth') ?? '{}').state.access,
  );
  expect(access).not.toBe('expired.or.invalid');
});

test('the error page shows the resource type, its id, and goes back to the list', async ({ page }) => {
  await signIn(page, 'admin@greensen.test');
  await page.goto('/error-404?type=exam&id=EX-42');
  await expect(page.getByRole('heading', { name: 'Examen introuvable' })).toBeVisible();
  await expect(page.getByText('EX-42')).toBeVisible();
  await page.getByRole('button', { name: 'Retour à la liste' }).click();
  await expect(page).toHaveURL(/\/exams$/);
});

test('an unknown path shows the page-not-found error, in English under /en', async ({ page }) => {
  await signIn(page, 'admin@greensen.test', 'en');
  await page.goto('/en/no-such-page');
  await expect(page.getByText(/Page Not Found/).first()).toBeVisible();
});

test('the shell works at tablet width with the navigation behind the burger', async ({ page }) => {
  await page.setViewportSize({ width: 768, height: 1024 });
  await signIn(page, 'file@greensen.test');
  await expect(page.getByRole('heading', { name: 'Affectation des patients' })).toBeVisible();
  await page.getByRole('button', { name: 'Ouvrir la navigation' }).click();
  await expect(page.getByRole('navigation').getByText('Patients')).toBeVisible();
});
