import { DEFAULT_HOSPITAL_SETTINGS } from '@greensen/shared/contracts/hospital-settings';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { usePreferencesStore } from '../../../stores/preferences';
import { makeUser, renderApp } from '../../../test/render';

afterEach(() => {
  vi.unstubAllGlobals();
});

const admin = makeUser({ active_roles: [{ role_code: 'ADMIN', hospital: 'h1', department: null }] });
const defaults = { ...DEFAULT_HOSPITAL_SETTINGS, updated_at: null, updated_by: null };

function renderSettings(settings: object = defaults) {
  const patches: unknown[] = [];
  const view = renderApp('/admin', {
    user: admin,
    routes: {
      '/api/hospital/settings/': () => Response.json(settings),
      '/api/admin/maintenance/': () => Response.json({ enabled: false, forced_by_environment: false }),
    },
  });
  const fallback = view.fetchMock.getMockImplementation()!;
  view.fetchMock.mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
    if (init?.method === 'PATCH') {
      const change = JSON.parse(String(init.body));
      patches.push(change);
      return Response.json({
        ...settings,
        ...change,
        updated_at: '2026-11-26T09:00:00Z',
        updated_by: { id: 'u1', full_name: 'Awa Diop' },
      });
    }
    return fallback(input);
  });
  return { patches, view };
}

describe("the hospital's settings on /admin → Réglages", () => {
  it('saves the duration, the opening hours, the sound default, the expiry window and the reminders time', async () => {
    const { patches } = renderSettings();
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('tab', { name: 'Réglages' }));
    const panel = await screen.findByTestId('hospital-settings-panel');
    expect(panel).toHaveTextContent('Réglages par défaut : jamais modifiés.');
    const duration = within(panel).getByLabelText(/Durée par défaut/);
    await user.clear(duration);
    await user.type(duration, '30');
    await user.click(within(panel).getByLabelText('Samedi'));
    await user.click(within(panel).getByRole('switch', { name: /Son des notifications par défaut/ }));
    await user.click(within(panel).getByRole('switch', { name: /Dictée par le navigateur/ }));
    const expiring = within(panel).getByLabelText(/Alerte de péremption/);
    await user.clear(expiring);
    await user.type(expiring, '60');
    const reminders = within(panel).getByLabelText(/Heure des rappels de rendez-vous/);
    await user.clear(reminders);
    await user.type(reminders, '17:30');
    await user.click(within(panel).getByRole('button', { name: 'Enregistrer' }));
    await vi.waitFor(
      () =>
        expect(patches).toEqual([
          {
            consultation_minutes: 30,
            notification_sound: false,
            dictation_browser_enabled: false,
            upload_max_mb: 10,
            pharmacy_expiring_days: 60,
            appointment_reminder_time: '17:30',
            working_hours: { ...DEFAULT_HOSPITAL_SETTINGS.working_hours, sat: null },
            shift_times: ['07:00', '19:00'],
          },
        ]),
      { timeout: 10_000 },
    );
    expect(await within(panel).findByText(/par Awa Diop/)).toBeInTheDocument();
  }, 40_000);

  it('refuses closing hours before opening hours with the field message, sending nothing', async () => {
    const { patches } = renderSettings();
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('tab', { name: 'Réglages' }));
    const panel = await screen.findByTestId('hospital-settings-panel');
    const closes = within(panel).getByLabelText('Fermeture le Lundi');
    await user.clear(closes);
    await user.type(closes, '07:00');
    await user.click(within(panel).getByRole('button', { name: 'Enregistrer' }));
    expect(
      await within(panel).findByText("L'heure de fermeture doit être après l'heure d'ouverture."),
    ).toBeInTheDocument();
    expect(patches).toEqual([]);
  }, 40_000);

  it('sets the nursing shift changes (2 to 4, in the order of the day)', async () => {
    const { patches } = renderSettings();
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('tab', { name: 'Réglages' }));
    const panel = await screen.findByTestId('hospital-settings-panel');
    await user.click(within(panel).getByRole('button', { name: 'Ajouter une relève' }));
    const third = within(panel).getByLabelText('Relève 3');
    await user.type(third, '06:00');
    await user.click(within(panel).getByRole('button', { name: 'Enregistrer' }));
    expect(
      await within(panel).findByText('Les relèves vont dans l’ordre de la journée, sans doublon.'),
    ).toBeInTheDocument();
    expect(patches).toEqual([]);
    await user.clear(third);
    await user.type(third, '23:00');
    await user.click(within(panel).getByRole('button', { name: 'Enregistrer' }));
    await vi.waitFor(
      () => expect(patches).toEqual([expect.objectContaining({ shift_times: ['07:00', '19:00', '23:00'] })]),
      { timeout: 10_000 },
    );
  }, 40_000);

  it("gives the signed-in app the hospital's sound default", async () => {
    usePreferencesStore.setState({ notificationSound: null, hospitalNotificationSound: true });
    renderSettings({ ...defaults, notification_sound: false });
    await vi.waitFor(() => expect(usePreferencesStore.getState().hospitalNotificationSound).toBe(false), {
      timeout: 10_000,
    });
  });
});
