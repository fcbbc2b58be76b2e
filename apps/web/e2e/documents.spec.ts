import { readFile } from 'node:fs/promises';
import { type Browser, type BrowserContext, expect, type Page, test } from '@playwright/test';
import { signIn } from './helpers';

/**
 * Documents (issue 19): the administrator adapts Greensen's French medical certificate and activates the copy;
 * a doctor issues a certificate from a consultation (the adapted text is there, the PDF opens, number and
 * verification code shown); the public verification page (no sign-in, phone width) confirms it; after the doctor
 * cancels it from /documents, the same page shows it cancelled.
 */
const MARK = 'Certificat établi à la demande du patient pour servir et valoir ce que de droit.';

async function newPage(contexts: BrowserContext[], browser: Browser, phone = false): Promise<Page> {
  const context = await browser.newContext({
    locale: 'fr-FR',
    ...(phone ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } : {}),
  });
  contexts.push(context);
  return context.newPage();
}

async function chooseHospital(page: Page, code: string) {
  await page
    .getByRole('banner')
    .getByRole('combobox', { name: /^Hôpital/ })
    .click();
  await page
    .getByRole('option', { name: new RegExp(code) })
    .first()
    .click();
}

test('an adapted certificate is issued, verified by its QR page, then shown cancelled', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const contexts: BrowserContext[] = [];

  // The administrator copies Greensen's French medical certificate, adds a sentence and activates the copy.
  const admin = await newPage(contexts, browser);
  await signIn(admin, 'admin@greensen.test');
  await chooseHospital(admin, 'HGG');
  await admin.goto('/admin/templates');
  await admin.getByRole('combobox', { name: 'Type' }).click();
  await admin.getByRole('option', { name: 'Certificat médical' }).click();
  await admin.getByRole('combobox', { name: 'Langue' }).click();
  await admin.getByRole('option', { name: 'Français' }).click();
  const list = admin.getByTestId('admin-template-list');
  await list.locator('a, button').filter({ hasText: 'Greensen' }).first().click();
  const selected = admin.getByTestId('admin-template');
  await expect(selected.getByText(/lecture seule/)).toBeVisible();
  await selected.getByRole('button', { name: 'Copier et adapter' }).click();
  const editor = admin.getByTestId('template-editor');
  await expect(editor).toBeVisible();
  const body = await editor.inputValue();
  await editor.fill(`${body.trimEnd()}\n\n${MARK}\n`);
  await admin.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(admin.getByText('Modèle enregistré.')).toBeVisible();
  await admin.getByTestId('admin-template').getByRole('button', { name: 'Activer' }).click();
  await expect(admin.getByTestId('admin-template').getByTestId('template-active')).toBeVisible();

  // A template that reaches outside its variables is refused with its line.
  await editor.fill(`{{ patient.full_name }}\n{% include 'secret' %}`);
  await admin.getByRole('button', { name: 'Enregistrer' }).click();
  await expect(admin.getByTestId('template-problem')).toContainText('ligne 2');

  // The doctor opens a consultation of theirs at HGG and issues a medical certificate.
  const doctor = await newPage(contexts, browser);
  await signIn(doctor, 'medecin@greensen.test');
  await chooseHospital(doctor, 'HGG');
  await doctor.goto('/consultations');
  await doctor
    .getByRole('row')
    .filter({ hasText: /Terminée|En cours/ })
    .first()
    .click();
  await expect(doctor).toHaveURL(/\/consultations\/[0-9a-f-]{36}$/);
  await doctor.getByTestId('issue-document-button').click();
  const dialog = doctor.getByTestId('issue-document');
  await dialog.getByRole('combobox', { name: 'Type de document' }).click();
  await doctor.getByRole('option', { name: 'Certificat médical' }).click();
  const text = dialog.getByTestId('draft-text');
  await expect(text).toHaveValue(new RegExp(MARK.slice(0, 30)));
  await dialog.getByRole('button', { name: 'Émettre le PDF' }).click();
  const issued = doctor.getByTestId('issued-document');
  await expect(issued).toBeVisible();
  const number = (await issued.getByTestId('issued-number').innerText()).replace(/^N°\s*/, '').trim();
  const code = (await issued.getByTestId('issued-code').innerText()).trim();
  // The PDF opens in the viewer (framed, or offered in a tab where the page policy refuses frames); its download
  // is the stored PDF.
  await expect(doctor.getByTestId('pdf-viewer').or(doctor.getByTestId('pdf-blocked'))).toBeVisible();
  const [download] = await Promise.all([
    doctor.waitForEvent('download'),
    doctor.getByRole('button', { name: 'Télécharger' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`${number}.pdf`);
  const bytes = await readFile((await download.path()) ?? '');
  expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  await doctor.keyboard.press('Escape');
  const verifyPath = await issued.getByRole('link', { name: /\/verify\// }).getAttribute('href');
  expect(verifyPath).toMatch(/^\/verify\/[A-Za-z0-9_-]{22,64}$/);

  // Anyone with the QR code, not signed in, on a phone: valid, with only what proves it.
  const pharmacist = await newPage(contexts, browser, true);
  await pharmacist.goto(verifyPath ?? '/');
  const result = pharmacist.getByTestId('verify-result');
  await expect(result).toHaveAttribute('data-status', 'valid');
  await expect(pharmacist.getByTestId('verify-number')).toHaveText(number);
  await expect(pharmacist.getByTestId('verify-code')).toHaveText(code);
  await expect(pharmacist.getByTestId('verify-kind')).toHaveText('Certificat médical');
  await expect(pharmacist.getByTestId('verify-doctor')).toContainText('Lukusa');
  await expect(result).not.toContainText(MARK.slice(0, 30));

  // The doctor cancels it from /documents with a reason.
  await doctor.keyboard.press('Escape');
  await doctor.goto('/documents');
  const row = doctor.getByRole('row').filter({ hasText: number });
  await expect(row).toBeVisible();
  await row.getByRole('button', { name: 'Annuler le document' }).click();
  const cancel = doctor.getByRole('dialog');
  await cancel.getByRole('textbox', { name: /Motif/ }).fill('Émis par erreur');
  await cancel.getByRole('button', { name: 'Annuler le document' }).click();
  await expect(doctor.getByText('Document annulé.')).toBeVisible();

  await pharmacist.reload();
  await expect(pharmacist.getByTestId('verify-result')).toHaveAttribute('data-status', 'cancelled');
  await expect(pharmacist.getByTestId('verify-status')).toHaveText('Document annulé');

  for (const context of contexts) await context.close();
});
