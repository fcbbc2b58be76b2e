import { expect, type Page } from '@playwright/test';

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
