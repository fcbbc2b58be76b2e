/**
 * Accessibility (issue 25): axe finds no serious or critical violation of WCAG 2.1 A/AA on the main signed-in
 * pages, in the light and the dark colour schemes. axe-core is injected into the page (the test context lifts
 * the app's Content-Security-Policy for that script only; the app itself runs unchanged).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, type Page, test } from '@playwright/test';
import { apiAs, signIn, signOut, urgencesPatient } from './helpers';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

test.use({ bypassCSP: true });

interface Finding {
  rule: string;
  impact: string;
  targets: string[];
}

/** The serious and critical violations on the page as it is now. */
async function seriousViolations(page: Page): Promise<Finding[]> {
  await page.addScriptTag({ content: AXE_SOURCE });
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (...args: unknown[]) => Promise<unknown> } }).axe;
    const result = (await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    })) as {
      violations: { id: string; impact: string | null; nodes: { target: string[] }[] }[];
    };
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({
        rule: v.id,
        impact: v.impact ?? '',
        targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
      }));
  });
}

/** A page given by its path, or the first record of a list page (a detail page of the demo). */
type Target = string | { list: string; detail: string; tab?: string };

async function open(page: Page, target: Target) {
  if (typeof target === 'string') {
    await page.goto(target);
  } else {
    await page.goto(target.list);
    // A tab of the list that does not depend on the time of day ("today" is empty just after midnight).
    if (target.tab) await page.getByRole('tab', { name: target.tab }).click();
    // A link to a record, or else the first row of the list (rows open their record).
    const link = page.locator(`a[href^="${target.detail}"]:not([href$="/create"])`);
    const row = page.locator('tbody tr');
    await expect(link.or(row).first()).toBeVisible();
    await ((await link.count()) > 0 ? link : row).first().click();
    await expect(page).toHaveURL(new RegExp(`${target.detail}[0-9a-f-]{8,}`));
  }
  // The page's data has arrived (the socket does not count).
  await page.waitForLoadState('networkidle');
}

/**
 * The pages of each role, all scanned in the light scheme. The dark scheme's colours come from the same computed
 * variables (lib/theme.ts, checked by its unit test), so it is scanned on a page of each kind: a dashboard, a
 * list with chips, a record, the care round.
 */
const ROLES: { email: string; light: Target[]; dark: Target[] }[] = [
  {
    email: 'admin@greensen.test',
    light: ['/', '/patients', '/admissions', '/triage', '/hospitalizations', '/admin'],
    dark: ['/', '/triage', '/hospitalizations'],
  },
  {
    email: 'medecin@greensen.test',
    light: [
      '/',
      { list: '/consultations', detail: '/consultations/', tab: 'Mon service' },
      { list: '/pharmacy', detail: '/pharmacy/prescriptions/' },
    ],
    dark: [{ list: '/consultations', detail: '/consultations/', tab: 'Mon service' }],
  },
  { email: 'infirmier@greensen.test', light: ['/', '/care'], dark: ['/care'] },
];

for (const scheme of ['light', 'dark'] as const) {
  for (const role of ROLES) {
    test(`axe: no serious or critical violation for ${role.email} in ${scheme} mode`, async ({ page }) => {
      const pages = role[scheme];
      // The first test of the suite meets a cold server (every page's first SQL and chunk): a budget for a loaded
      // CI machine, not a speed check (the bench measures speed).
      test.setTimeout(60_000 + pages.length * 10_000);
      await page.emulateMedia({ colorScheme: scheme });
      await signIn(page, role.email);
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
      const found: Record<string, Finding[]> = {};
      for (const target of pages) {
        await open(page, target);
        const violations = await seriousViolations(page);
        if (violations.length > 0) found[page.url()] = violations;
      }
      expect(found).toEqual({});
    });
  }
}

/**
 * The states of issue 37's axe findings, each opened as its user sees it: an open notification (its close button),
 * the dispense modal (its close button), the appointments list with a filled field that has a clear button, the
 * public verification page (its status heading, both schemes) and the analytics page (its scrollable region).
 */
test('axe: no serious or critical violation on the open states of issue 37', async ({ page, request }) => {
  test.setTimeout(300_000);
  const found: Record<string, Finding[]> = {};
  const scan = async (name: string) => {
    const violations = await seriousViolations(page);
    if (violations.length > 0) found[name] = violations;
  };

  // A doctor sees a patient assigned to her as a toast (kept open by the pointer): its close button.
  const socket = page.waitForEvent('websocket', (ws) => ws.url().includes('/ws/notifications/'));
  await signIn(page, 'medecin2@greensen.test');
  await socket;
  const suffix = Math.random().toString(36).slice(2, 7);
  const walk = await urgencesPatient(
    request,
    { first_name: 'Axe', last_name: `Patient${suffix}`, sex: 'F', birth_date: '1988-03-14' },
    'Fièvre',
  );
  const secretary = await apiAs(request, 'secretaire@greensen.test');
  const other = await secretary.post('patients/', {
    first_name: 'Axe',
    last_name: `Toast${suffix}`,
    sex: 'M',
    birth_date: '1979-06-01',
    confirm_duplicate: true,
  });
  const admission = await secretary.post('admissions/', {
    patient: other.id,
    department: walk.urgences,
    admission_type: 'emergency',
    reason: 'Fièvre',
  });
  const queue = await apiAs(request, 'file@greensen.test');
  const doctor2 = await apiAs(request, 'medecin2@greensen.test');
  await queue.post('assign-patient/', { admission: admission.id, doctor: doctor2.user.id });
  const toast = page.locator('.mantine-Notification-root').filter({ hasText: `Toast${suffix}` });
  await expect(toast.first()).toBeVisible({ timeout: 5000 });
  await toast.first().hover();
  await scan('notification');
  // The toasts stack just below the header, where its dropdowns open: the user menu opens above them, so that a
  // click on its items reaches them and not the toast (opened from the keyboard: the pointer keeps the toast open).
  await page.getByRole('button', { name: 'Menu utilisateur' }).focus();
  await page.keyboard.press('Enter');
  const items = page.getByRole('menuitem');
  await expect(items.first()).toBeVisible();
  const reached = await items.evaluateAll((elements) =>
    elements.map((element) => {
      const box = element.getBoundingClientRect();
      return element.contains(document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2));
    }),
  );
  await expect(toast.first()).toBeVisible();
  expect(reached).toEqual([true, true, true]);
  await page.keyboard.press('Escape');
  // The prescription to dispense, and its printed copy for the public verification page.
  const rx = await walk.prescribe([
    { atc: 'N02BE01', strength: '500 mg', dose: 1, frequency: { kind: 'times_per_day', times: 3 } },
  ]);
  const document = await walk.doctor.post('documents/', {
    kind: 'prescription',
    source: { type: 'prescription', id: rx.id },
  });

  // The head doctor's analytics (its tables scroll).
  await signOut(page);
  await signIn(page, 'chef@greensen.test');
  await page.goto('/analytics');
  await page.waitForLoadState('networkidle');
  await scan('analytics');

  // The appointments list filtered by a department: a filled field with its clear button.
  await signOut(page);
  await signIn(page, 'secretaire@greensen.test');
  await page.goto('/appointments');
  const department = page.getByTestId('appointments-page').getByRole('combobox', { name: 'Service' });
  await department.click();
  await page.getByRole('option', { name: 'Urgences' }).first().click();
  await page.waitForLoadState('networkidle');
  await scan('appointments');

  // The pharmacist's dispense modal.
  await signOut(page);
  await signIn(page, 'pharmacie@greensen.test');
  await page.goto(`/pharmacy/prescriptions/${rx.id}?dispense=1`);
  await expect(page.getByTestId('dispense-form')).toBeVisible();
  await page.waitForLoadState('networkidle');
  await scan('dispense');

  // The public verification page, in both schemes.
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto(document.verification_path);
    await expect(page.getByTestId('verify-result')).toBeVisible();
    await scan(`verification (${scheme})`);
  }
  expect(found).toEqual({});
});
