import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { signIn } from './helpers';

/**
 * Inpatient stays (issue 17), two roles at once: the doctor in charge (medecin2@) has the bed board open, the
 * nurse (infirmier@) puts the demo's Odette Kalonji, waiting for a bed in internal medicine, into a free bed
 * with the keyboard path (select, then "Attribuer"). The doctor's board follows without a reload, with the
 * emerald bed-assignment notification; a stay that does not exist leads to the error page of its type.
 */
async function newPage(
  contexts: BrowserContext[],
  browser: import('@playwright/test').Browser,
): Promise<Page> {
  const context = await browser.newContext({ locale: 'fr-FR' });
  contexts.push(context);
  return context.newPage();
}

test('the nurse assigns a bed and the doctor’s board follows, notified', async ({ browser }) => {
  test.setTimeout(120_000);
  const contexts: BrowserContext[] = [];

  const doctor = await newPage(contexts, browser);
  const socket = doctor.waitForEvent('websocket', (ws) => ws.url().includes('/ws/notifications/'));
  await signIn(doctor, 'medecin2@greensen.test');
  await socket;
  await doctor.goto('/hospitalizations');
  await expect(doctor.getByRole('heading', { name: 'Hospitalisations' })).toBeVisible();
  await expect(doctor.getByTestId('pending-count')).toHaveText('2');

  const nurse = await newPage(contexts, browser);
  await signIn(nurse, 'infirmier@greensen.test');
  await nurse.goto('/hospitalizations');
  await nurse.getByLabel('Unité').first().click();
  await nurse.getByRole('option', { name: /Médecine interne A/ }).click();
  await expect(nurse.getByRole('heading', { name: /Médecine interne B/ })).toHaveCount(0);
  const waiting = nurse
    .locator('div')
    .filter({ hasText: 'Odette Kalonji' })
    .filter({ has: nurse.getByRole('button', { name: 'Sélectionner' }) })
    .last();
  await waiting.getByRole('button', { name: 'Sélectionner' }).click();
  await expect(nurse.getByText(/Odette Kalonji : choisissez un lit libre/)).toBeVisible();
  await nurse
    .getByRole('button', { name: /^Attribuer la chambre MED102, lit MED102-1 à Odette Kalonji/ })
    .click();
  // Every placement asks first, with the server's answer on the ward's rules (issue 37).
  const confirm = nurse.getByTestId('placement-confirm');
  await expect(confirm.getByTestId('placement-fine')).toBeVisible();
  await confirm.getByRole('button', { name: 'Confirmer' }).click();
  await expect(nurse.getByText('Lit attribué').first()).toBeVisible();
  await expect(nurse.getByTestId('pending-count')).toHaveText('1');

  // The doctor is told (bed_assignment), and the open board refreshes through its refresh flag.
  await expect(doctor.getByText(/Odette Kalonji : lit MED102-1/)).toBeVisible();
  await expect(doctor.getByTestId('pending-count')).toHaveText('1');
  await expect(doctor.getByRole('link', { name: 'Odette Kalonji' })).toBeVisible();

  // A stay that does not exist: the error page of the type `hospitalization`.
  await doctor.goto('/hospitalizations/01900000-0000-7000-8000-000000000000');
  await expect(doctor).toHaveURL(/\/error-404\?.*type=hospitalization/);

  for (const c of contexts) await c.close();
});
