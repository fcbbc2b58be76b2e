import type { TConsultationDetail } from '@greensen/shared/contracts/consultations';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeUser, renderApp } from '../../../test/render';
import { CONSULTATION_ID as ID, consultationRecord as record } from './consultation.fixture';

afterEach(() => {
  vi.unstubAllGlobals();
});

const doctor = makeUser({ active_roles: [{ role_code: 'DOCTOR', hospital: 'h1', department: 'd1' }] });
const emptyPage = () => Response.json({ count: 0, next: null, previous: null, results: [] });

/**
 * The consultation page against a small fake server: the record is at `server.version`; a draft save based
 * on another version is a 409 stale_version, as the API answers.
 */
function openEditor(extra: Partial<TConsultationDetail> = {}) {
  const server = { version: 3, history: 'Fièvre depuis 3 jours', saves: [] as Record<string, unknown>[] };
  const current = () =>
    record({ access: 'edit', version: server.version, history: server.history, ...extra });
  const view = renderApp(`/consultations/${ID}`, {
    user: doctor,
    routes: {
      [`/api/consultations/${ID}/`]: () => Response.json(current()),
      [`/api/patients/${record().patient.id}/diagnoses/`]: emptyPage,
    },
  });
  const fallback = view.fetchMock.getMockImplementation()!;
  view.fetchMock.mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    if (init?.method === 'PATCH' && url.pathname === `/api/consultations/${ID}/`) {
      const body = JSON.parse(String(init.body)) as { version: number; history?: string; vitals?: unknown };
      server.saves.push(body);
      if (body.version !== server.version)
        return Response.json(
          { detail: 'Modifiée entre-temps', code: 'stale_version', version: server.version },
          { status: 409 },
        );
      server.version += 1;
      if (body.history !== undefined) server.history = body.history;
      return Response.json(current());
    }
    return fallback(input);
  });
  return { ...view, server };
}

describe('the consultation form', () => {
  it('saves the draft by itself and says when', async () => {
    const { server } = openEditor();
    const history = await screen.findByRole('textbox', { name: 'Histoire de la maladie' });
    const user = userEvent.setup();
    await user.clear(history);
    await user.type(history, 'Toux');
    await waitFor(() =>
      expect(screen.getByTestId('autosave-status')).toHaveTextContent('Brouillon enregistré à'),
    );
    expect(server.saves).toEqual([{ version: 3, history: 'Toux' }]);
    expect(server.version).toBe(4);
  });

  // Issue 37: the empty allergy field's placeholder "Aucune allergie connue" read as an answer.
  it('leaves an empty allergy field neutral: its placeholder is no answer', async () => {
    openEditor({ allergies: [], patient: { ...record().patient, allergies: [] } });
    expect(await screen.findByPlaceholderText('Saisissez une allergie puis Entrée')).toBeInTheDocument();
    expect(screen.queryByPlaceholderText('Aucune allergie connue')).toBeNull();
  });

  it('on a stale version: reloads the saved record, tells the user, and re-applies their changes on request', async () => {
    const { server } = openEditor();
    const history = await screen.findByRole('textbox', { name: 'Histoire de la maladie' });
    // Another tab saves in between.
    server.version = 5;
    server.history = "Version de l'autre onglet";
    const user = userEvent.setup();
    await user.type(history, ', frissons');
    const alert = await screen.findByTestId('draft-conflict');
    expect(alert).toHaveTextContent('Consultation modifiée ailleurs');
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: 'Histoire de la maladie' })).toHaveValue(
        "Version de l'autre onglet",
      ),
    );
    await user.click(screen.getByRole('button', { name: 'Réappliquer mes modifications' }));
    expect(screen.getByRole('textbox', { name: 'Histoire de la maladie' })).toHaveValue(
      'Fièvre depuis 3 jours, frissons',
    );
    await waitFor(() => expect(server.version).toBe(6));
    expect(server.saves.at(-1)).toEqual({ version: 5, history: 'Fièvre depuis 3 jours, frissons' });
    expect(screen.queryByTestId('draft-conflict')).toBeNull();
  });

  it("shows the nurse's triage vitals and takes them over on request", async () => {
    const { server } = openEditor({
      triage: {
        id: '0190f0f0-bbbb-7222-8333-444455556666',
        scale: 'FRENCH',
        level: '2',
        vitals: { temperature: 39.4, heart_rate: 135, spo2: null },
        recorded_by: { id: '0190f0f0-cccc-7222-8333-444455556666', full_name: 'Grâce Mutombo' },
        recorded_at: '2026-11-25T09:12:00.000Z',
      },
    });
    const card = await screen.findByTestId('triage-vitals');
    expect(card).toHaveTextContent('Constantes du tri');
    expect(card).toHaveTextContent('Grâce Mutombo');
    expect(card).toHaveTextContent('Température : 39,4 °C');
    expect(card).toHaveTextContent('Fréquence cardiaque : 135');
    expect(screen.getByRole('textbox', { name: /Fréquence cardiaque/ })).toHaveValue('');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Reprendre ces constantes' }));
    expect(screen.getByRole('textbox', { name: /Fréquence cardiaque/ })).toHaveValue('135');
    expect(screen.getByRole('textbox', { name: /Température/ })).toHaveValue('39,4');
    await waitFor(() => expect(server.saves.some((save) => save.vitals !== undefined)).toBe(true));
    expect(server.saves.find((save) => save.vitals)?.vitals).toMatchObject({
      temperature: 39.4,
      heart_rate: 135,
    });
  });

  it('lists what is missing before completing', async () => {
    openEditor();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Terminer la consultation' }));
    const missing = await screen.findByTestId('completion-missing');
    expect(missing).toHaveTextContent('Indiquez un diagnostic principal.');
    expect(missing).toHaveTextContent("Choisissez l'issue de la consultation.");
    expect(screen.getByRole('button', { name: 'Terminer et verrouiller' })).toBeDisabled();
  });
});
