import { type APIRequestContext, expect, type Page } from '@playwright/test';

export const PASSWORD = 'Demo-Greensen-2026';

/** Signs in through the login page (French or English) and waits for the dashboard. */
export async function signIn(page: Page, email: string, lang: 'fr' | 'en' = 'fr') {
  await page.goto(lang === 'en' ? '/en/login' : '/login');
  await page.getByLabel(lang === 'en' ? 'Email address' : 'Adresse e-mail').fill(email);
  await page.locator('input[type="password"]').fill(PASSWORD);
  await page.getByRole('button', { name: lang === 'en' ? 'Sign in' : 'Se connecter' }).click();
  await expect(page).toHaveURL(lang === 'en' ? /\/en\/?$/ : /:\d+\/$/);
}

export async function signOut(page: Page, lang: 'fr' | 'en' = 'fr') {
  await page.getByRole('button', { name: lang === 'en' ? 'User menu' : 'Menu utilisateur' }).click();
  await page.getByRole('menuitem', { name: lang === 'en' ? 'Sign out' : 'Se déconnecter' }).click();
  await expect(page).toHaveURL(lang === 'en' ? /\/en\/login$/ : /\/login$/);
}

/** Calls the API as a demo user in HGG (the hospital every demo account used here belongs to). */
export async function apiAs(request: APIRequestContext, email: string) {
  const login = await request.post('/api/login/', { data: { email, password: PASSWORD } });
  expect(login.ok()).toBeTruthy();
  const body = await login.json();
  const hgg = body.user.hospitals.find((h: { code: string }) => h.code === 'HGG');
  const headers = { authorization: `Bearer ${body.access}`, 'hospital-id': hgg.id };
  const ok = async (path: string, res: Awaited<ReturnType<APIRequestContext['get']>>) => {
    expect(res.ok(), `${path}: ${res.status()} ${await res.text()}`).toBeTruthy();
    return res;
  };
  return {
    user: body.user as { id: string },
    get: async (path: string) => (await ok(path, await request.get(`/api/${path}`, { headers }))).json(),
    bytes: async (path: string) => (await ok(path, await request.get(`/api/${path}`, { headers }))).body(),
    post: async (path: string, data: object = {}) =>
      (await ok(path, await request.post(`/api/${path}`, { headers, data }))).json(),
  };
}
