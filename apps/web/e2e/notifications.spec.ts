import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { apiAs, signIn } from './helpers';

/** Records every attempt to play a sound, so the test can check the sound rule without speakers. */
async function recordSounds(context: BrowserContext) {
  await context.addInitScript(() => {
    const w = window as unknown as { __plays: { src: string; volume: number }[] };
    w.__plays = [];
    HTMLMediaElement.prototype.play = function play() {
      w.__plays.push({ src: this.currentSrc || this.src, volume: this.volume });
      return Promise.resolve();
    };
  });
}

const plays = (page: Page) =>
  page.evaluate(() => (window as unknown as { __plays: { src: string; volume: number }[] }).__plays);

test('an assignment reaches the doctor at once on every device, with the sound, and read marks follow', async ({
  browser,
  request,
}) => {
  // Two devices of the same doctor.
  const ctxA = await browser.newContext({ locale: 'fr-FR' });
  const ctxB = await browser.newContext({ locale: 'fr-FR' });
  await recordSounds(ctxA);
  const a = await ctxA.newPage();
  const b = await ctxB.newPage();
  // Each device opens its notification socket after signing in; wait for both before anything happens.
  const socketA = a.waitForEvent('websocket', (ws) => ws.url().includes('/ws/notifications/'));
  const socketB = b.waitForEvent('websocket', (ws) => ws.url().includes('/ws/notifications/'));
  await signIn(a, 'medecin2@greensen.test');
  await signIn(b, 'medecin2@greensen.test');
  await Promise.all([socketA, socketB]);
  const badgeA = a.getByRole('button', { name: /^Notifications/ });
  await expect(badgeA).toBeVisible();

  // The front desk registers and admits a patient; the queue manager assigns it to the doctor.
  const secretary = await apiAs(request, 'secretaire@greensen.test');
  const suffix = Math.random().toString(36).slice(2, 8);
  const patient = await secretary.post('patients/', {
    first_name: 'Notif',
    last_name: `Patient${suffix}`,
    sex: 'M',
    birth_date: '1979-06-01',
    confirm_duplicate: true,
  });
  const departments = await secretary.get('departments/?page_size=100');
  const urgences = departments.results.find((d: { name: string }) => d.name === 'Urgences');
  const admission = await secretary.post('admissions/', {
    patient: patient.id,
    department: urgences.id,
    admission_type: 'emergency',
    reason: 'Fièvre',
  });
  const queue = await apiAs(request, 'file@greensen.test');
  const doctor = await apiAs(request, 'medecin2@greensen.test');
  await queue.post('assign-patient/', { admission: admission.id, doctor: doctor.user.id });

  // Both devices see it without reloading: a toast on each (toasts last 5 s, so both are awaited at
  // once), the unread badge, and one chime.
  const toast = `Nouveau patient : Notif Patient${suffix}`;
  await Promise.all([
    expect(a.getByText(toast).first()).toBeVisible({ timeout: 5000 }),
    expect(b.getByText(toast).first()).toBeVisible({ timeout: 5000 }),
  ]);
  await expect(badgeA).toHaveAccessibleName(/non lues/);
  await expect.poll(async () => (await plays(a)).length).toBeGreaterThan(0);
  const played = await plays(a);
  expect(played[0]?.src).toMatch(/\/notification\.mp3$/);
  expect(played[0]?.volume).toBeCloseTo(0.4);

  // Marking everything read on one device clears the badge on the other.
  const badgeB = b.getByRole('button', { name: /^Notifications/ });
  await expect(badgeB).toHaveAccessibleName(/non lues/);
  await badgeA.click();
  await a.getByRole('button', { name: 'Tout marquer comme lu' }).click();
  await expect(badgeA).toHaveAccessibleName('Notifications');
  await expect(badgeB).toHaveAccessibleName('Notifications', { timeout: 5000 });

  await ctxA.close();
  await ctxB.close();
});
