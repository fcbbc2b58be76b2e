import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { PASSWORD, signIn } from './helpers';

/**
 * Two browsers, two accounts (decision 0042): a message, the unread count in the navigation and the read receipt
 * cross in real time over the notification socket. The e2e server is one instance on an embedded database; the
 * path through a second instance and Redis is proven by apps/server/src/modules/chat/chat.multi-instance.test.ts.
 */
async function session(request: APIRequestContext, email: string) {
  const login = await request.post('/api/login/', { data: { email, password: PASSWORD } });
  expect(login.ok()).toBeTruthy();
  const body = await login.json();
  const hgg = body.user.hospitals.find((h: { code: string }) => h.code === 'HGG');
  return {
    id: body.user.id as string,
    name: body.user.full_name as string,
    headers: { authorization: `Bearer ${body.access}`, 'hospital-id': hgg.id as string },
  };
}

/** The navigation's unread count (no badge: none). */
async function unread(page: Page) {
  const badge = page.getByTestId('chat-unread-badge');
  return (await badge.count()) === 0 ? 0 : Number(await badge.textContent());
}

async function openWithSocket(page: Page, email: string) {
  const socket = page.waitForEvent('websocket', (ws) => ws.url().includes('/ws/notifications/'));
  await signIn(page, email);
  await socket;
}

test('two staff members exchange messages; unread count and read receipt cross in real time', async ({
  browser,
  request,
}) => {
  test.setTimeout(90_000);
  const doctor = await session(request, 'medecin@greensen.test');
  const nurse = await session(request, 'infirmier@greensen.test');
  // Their direct conversation (the existing one if an earlier run made it).
  const res = await request.post('/api/chat/conversations/', {
    headers: doctor.headers,
    data: { kind: 'direct', user: nurse.id },
  });
  expect([200, 201]).toContain(res.status());

  const a = await (await browser.newContext({ locale: 'fr-FR' })).newPage();
  const b = await (await browser.newContext({ locale: 'fr-FR' })).newPage();
  await openWithSocket(a, 'medecin@greensen.test');
  await openWithSocket(b, 'infirmier@greensen.test');

  // Whatever the nurse had unread before (the demo's channels).
  await b.waitForTimeout(1500);
  const before = await unread(b);

  // The doctor writes from the messaging page.
  await a.goto('/chat');
  await a.getByTestId('chat-conversations').getByText(nurse.name, { exact: true }).click();
  const viewA = a.getByTestId('chat-conversation');
  const text = `Le patient du box 3 est prêt (${Math.random().toString(36).slice(2, 8)})`;
  await viewA.getByLabel('Écrire un message').fill(text);
  await viewA.getByLabel('Écrire un message').press('Enter');
  await expect(viewA.getByTestId('chat-message').filter({ hasText: text })).toBeVisible();

  // The nurse, elsewhere in the app, sees the unread count in the navigation at once.
  await expect.poll(() => unread(b)).toBe(before + 1);

  // She opens the conversation: the message is there, and the doctor sees it read without reloading.
  await b.goto('/chat');
  await b.getByTestId('chat-conversations').getByText(doctor.name, { exact: true }).click();
  const viewB = b.getByTestId('chat-conversation');
  await expect(viewB.getByTestId('chat-message').filter({ hasText: text })).toBeVisible();
  await expect(viewA.getByTestId('chat-receipts')).toContainText(`Lu par ${nurse.name}`);
  await expect.poll(() => unread(b)).toBe(before);

  // Her answer reaches the doctor's open conversation.
  const answer = `Je m’en occupe (${Math.random().toString(36).slice(2, 8)})`;
  await viewB.getByLabel('Écrire un message').fill(answer);
  await viewB.getByLabel('Écrire un message').press('Enter');
  await expect(viewA.getByTestId('chat-message').filter({ hasText: answer })).toBeVisible();
});
