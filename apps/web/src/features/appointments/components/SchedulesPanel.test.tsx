import type { TSchedule } from '@greensen/shared/contracts/appointments';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  DEPARTMENT,
  DOCTOR,
  PATIENT,
  page,
  SCHEDULE_ID,
  todayAt,
} from '../../../lib/clinical/components/appointments.fixture';
import { stubDesktopWidth } from '../../../test/media-query';
import { type MockRequest, makeUser, renderApp } from '../../../test/render';

const SCHEDULE: TSchedule = {
  id: SCHEDULE_ID,
  provider: DOCTOR,
  department: DEPARTMENT,
  sessions: [
    { weekday: 'tue', start: '08:00', end: '12:00' },
    { weekday: 'thu', start: '14:00', end: '17:00' },
  ],
  slot_minutes: 20,
  capacity: 2,
  types: ['new', 'follow_up'],
  valid_from: '2026-01-05',
  valid_until: null,
  note: null,
  active: true,
  created_at: '2026-01-01T08:00:00Z',
  updated_at: '2026-01-01T08:00:00Z',
};

const as = (role: string, id = 'u1') =>
  makeUser({ id, active_roles: [{ role_code: role, hospital: 'h1', department: null }] });

function routes(extra: Record<string, (r: MockRequest) => Response> = {}) {
  return {
    '/api/departments/': () => page([{ ...DEPARTMENT, is_active: true }]),
    '/api/appointments/providers/': () =>
      Response.json({ results: [{ ...DOCTOR, departments: [DEPARTMENT] }] }),
    '/api/appointments/schedules/': () => page([SCHEDULE]),
    '/api/appointments/exceptions/': () => page([]),
    '/api/appointments/holidays/': () => page([]),
    ...extra,
  };
}

async function openSchedules(
  role: string,
  extra: Record<string, (r: MockRequest) => Response> = {},
  id?: string,
) {
  const view = renderApp('/calendar?tab=schedules', { user: as(role, id), routes: routes(extra) });
  await screen.findByTestId('schedules-panel', {}, { timeout: 15_000 });
  await screen.findByText('Mar 08:00–12:00, Jeu 14:00–17:00');
  return view;
}

beforeEach(() => stubDesktopWidth());
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the schedules tab of the calendar', { timeout: 120_000 }, () => {
  it('shows the schedules, absences and holidays to a secretary, without the managers’ actions', async () => {
    await openSchedules('SECRETARY');
    expect(screen.getByText('20 min · 2 places')).toBeInTheDocument();
    expect(await screen.findByText('Aucune absence à venir.')).toBeInTheDocument();
    expect(await screen.findByText('Aucun jour férié à venir.')).toBeInTheDocument();
    for (const name of ['Nouveau planning', 'Plage supplémentaire', 'Nouvelle absence', 'Nouveau jour férié'])
      expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Modifier le planning/ })).not.toBeInTheDocument();
  });

  it('asks a head doctor what to do with the bookings a change leaves out, then sends the choice', async () => {
    const bodies: unknown[] = [];
    await openSchedules('HEAD_DOCTOR', {
      [`/api/appointments/schedules/${SCHEDULE_ID}/`]: (r) => {
        bodies.push(r.body);
        const body = r.body as { on_bookings?: string };
        if (!body.on_bookings)
          return Response.json(
            {
              detail: '1 rendez-vous à venir sont concernés.',
              code: 'bookings_affected',
              affected: [
                {
                  id: '0190f0f0-aaaa-7222-8333-444455550009',
                  start: todayAt(15, 0, 2),
                  record_number: PATIENT.record_number,
                  patient_name: PATIENT.full_name,
                  provider: DOCTOR,
                  status: 'booked',
                },
              ],
            },
            { status: 409 },
          );
        return Response.json({ ...SCHEDULE, sessions: [SCHEDULE.sessions[0]] });
      },
    });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Modifier le planning de Dr Awa Diop' }));
    const dialog = await screen.findByTestId('schedule-form');
    // Remove the Thursday session.
    await user.click(
      within(dialog).getAllByRole('button', { name: 'Retirer cette plage' })[1] as HTMLElement,
    );
    await user.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    const question = await within(dialog).findByTestId('bookings-affected');
    expect(question).toHaveTextContent(PATIENT.record_number);
    expect(bodies[0]).toMatchObject({ sessions: [{ weekday: 'tue', start: '08:00', end: '12:00' }] });
    expect(bodies[0]).not.toHaveProperty('on_bookings');
    // Cancelling needs a reason (checked before any call).
    await user.click(within(question).getByRole('radio', { name: 'Les annuler' }));
    await user.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    expect(await within(dialog).findByText("Indiquez le motif de l'annulation.")).toBeInTheDocument();
    expect(bodies).toHaveLength(1);
    await user.type(
      within(question).getByRole('textbox', { name: /Motif de l’annulation/ }),
      'Congé du médecin',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(bodies).toHaveLength(2));
    expect(bodies[1]).toMatchObject({ on_bookings: 'cancel', cancel_reason: 'Congé du médecin' });
    await waitFor(() => expect(screen.queryByTestId('schedule-form')).not.toBeInTheDocument());
  });

  it('refuses a session that ends before it starts, in words, without calling the server', async () => {
    const posted = vi.fn(() => Response.json(SCHEDULE, { status: 201 }));
    await openSchedules('ADMIN', {
      '/api/appointments/schedules/': (r) => (r.method === 'POST' ? posted() : page([SCHEDULE])),
    });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Nouveau planning' }));
    const dialog = await screen.findByTestId('schedule-form');
    const end = within(dialog).getByLabelText('Fin');
    await user.clear(end);
    await user.type(end, '07:00');
    await user.click(within(dialog).getByRole('button', { name: 'Créer le planning' }));
    expect(
      await within(dialog).findByText('La fin de la plage doit être après son début.'),
    ).toBeInTheDocument();
    expect(posted).not.toHaveBeenCalled();
  });

  it('offers a midwife without a schedule in the new schedule, and creates hers', async () => {
    const MIDWIFE = { id: '0190f0f0-aaaa-7222-8333-444455550011', full_name: 'Fatou Sarr' };
    const posted: unknown[] = [];
    await openSchedules('ADMIN', {
      '/api/appointments/providers/': (r) =>
        Response.json({
          results: [
            { ...DOCTOR, departments: [DEPARTMENT] },
            // Listed only when every member who may hold a schedule is asked for.
            ...(r.url.searchParams.get('unscheduled') === 'true' ? [{ ...MIDWIFE, departments: [] }] : []),
          ],
        }),
      '/api/appointments/schedules/': (r) => {
        if (r.method !== 'POST') return page([SCHEDULE]);
        posted.push(r.body);
        return Response.json({ ...SCHEDULE, provider: MIDWIFE }, { status: 201 });
      },
    });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Nouveau planning' }));
    const dialog = await screen.findByTestId('schedule-form');
    async function pick(label: RegExp, option: string) {
      const input = within(dialog).getByRole('combobox', { name: label });
      await user.click(input);
      await waitFor(() => expect(input.getAttribute('aria-controls')).toBeTruthy());
      const listbox = document.getElementById(input.getAttribute('aria-controls') ?? '') as HTMLElement;
      await user.click(
        await within(listbox).findByRole('option', { name: option, hidden: true }, { timeout: 10_000 }),
      );
    }
    await pick(/Soignant/, MIDWIFE.full_name);
    await pick(/Service/, DEPARTMENT.name);
    await user.click(within(dialog).getByRole('button', { name: 'Créer le planning' }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toMatchObject({ provider: MIDWIFE.id, department: DEPARTMENT.id });
  });

  it('lets a doctor record their own absence only', async () => {
    const posted: unknown[] = [];
    await openSchedules(
      'DOCTOR',
      {
        '/api/appointments/exceptions/': (r) => {
          if (r.method !== 'POST') return page([]);
          posted.push(r.body);
          return Response.json({}, { status: 201 });
        },
      },
      DOCTOR.id,
    );
    expect(screen.queryByRole('button', { name: 'Nouveau planning' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Nouveau jour férié' })).not.toBeInTheDocument();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Nouvelle absence' }));
    const dialog = await screen.findByTestId('absence-form');
    await user.click(within(dialog).getByRole('button', { name: 'Enregistrer l’absence' }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toMatchObject({ provider: DOCTOR.id, kind: 'leave' });
  });

  it('lets an administrator add a public holiday, the name required', async () => {
    const posted: unknown[] = [];
    await openSchedules('ADMIN', {
      '/api/appointments/holidays/': (r) => {
        if (r.method !== 'POST') return page([]);
        posted.push(r.body);
        return Response.json(
          {
            id: '0190f0f0-aaaa-7222-8333-444455550010',
            date: '2026-06-30',
            name: 'Indépendance',
            created_at: '',
          },
          { status: 201 },
        );
      },
    });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Nouveau jour férié' }));
    const dialog = await screen.findByTestId('holiday-form');
    await user.type(within(dialog).getByRole('textbox', { name: /Date/ }), '30/06/2026');
    await user.click(within(dialog).getByRole('button', { name: 'Ajouter le jour férié' }));
    expect(await within(dialog).findAllByText('Ce champ est obligatoire.')).not.toHaveLength(0);
    expect(posted).toHaveLength(0);
    await user.type(within(dialog).getByRole('textbox', { name: /Nom/ }), 'Indépendance');
    await user.click(within(dialog).getByRole('button', { name: 'Ajouter le jour férié' }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toMatchObject({ date: '2026-06-30', name: 'Indépendance' });
  });
});
