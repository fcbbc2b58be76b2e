import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ADMISSION_ID,
  APPOINTMENT_ID,
  appointment,
  appointmentDetail,
  DEPARTMENT,
  DOCTOR,
  todayAt,
} from '../../../lib/clinical/components/appointments.fixture';
import { locationOf, type MockRequest, makeUser, renderApp } from '../../../test/render';

afterEach(() => vi.unstubAllGlobals());

const secretary = makeUser({
  id: 'u-sec',
  active_roles: [{ role_code: 'SECRETARY', hospital: 'h1', department: null }],
  roles: [{ code: 'SECRETARY', name: 'Secrétaire' }],
});
const doctor = makeUser();

const PATH = `/api/appointments/${APPOINTMENT_ID}/`;

describe('the appointment page', { timeout: 60_000 }, () => {
  it('checks the patient in at the desk and links to the visit it opened', async () => {
    let checkedIn = false;
    const user = userEvent.setup();
    const posts: string[] = [];
    renderApp(`/appointments/${APPOINTMENT_ID}`, {
      user: secretary,
      routes: {
        [PATH]: () =>
          Response.json(
            checkedIn
              ? appointmentDetail({
                  status: 'checked_in',
                  checked_in_at: todayAt(8, 55),
                  admission: { id: ADMISSION_ID, status: 'waiting', queue_number: 7 },
                })
              : appointmentDetail({ start: todayAt(9, 0) }),
          ),
        [`${PATH}check-in/`]: (r: MockRequest) => {
          posts.push(r.url.pathname);
          checkedIn = true;
          return Response.json({
            appointment: appointment({ status: 'checked_in' }),
            admission: {
              id: ADMISSION_ID,
              status: 'waiting',
              queue_number: 7,
              queue_date: '2026-11-25',
              department: DEPARTMENT,
            },
          });
        },
      },
    });
    const actions = await screen.findByTestId('appointment-actions', {}, { timeout: 15_000 });
    await user.click(within(actions).getByRole('button', { name: "Enregistrer l'arrivée" }));
    const visit = await screen.findByTestId('appointment-admission');
    expect(visit).toHaveTextContent('visite n° 7');
    expect(within(visit).getByRole('link', { name: /Ouvrir la visite/ })).toHaveAttribute(
      'href',
      `/admissions/${ADMISSION_ID}`,
    );
    expect(posts).toEqual([`${PATH}check-in/`]);
    expect(await screen.findByText('Visite ouverte en Consultations, n° 7 de la file.')).toBeInTheDocument();
  });

  it('hides the desk-only check-in from a doctor, who may still confirm, reschedule and cancel', async () => {
    renderApp(`/appointments/${APPOINTMENT_ID}`, {
      user: doctor,
      routes: { [PATH]: () => Response.json(appointmentDetail()) },
    });
    const actions = await screen.findByTestId('appointment-actions', {}, { timeout: 15_000 });
    expect(within(actions).queryByRole('button', { name: "Enregistrer l'arrivée" })).not.toBeInTheDocument();
    expect(within(actions).getByRole('button', { name: 'Confirmer' })).toBeInTheDocument();
    expect(within(actions).getByRole('button', { name: 'Reprogrammer' })).toBeInTheDocument();
    expect(within(actions).getByRole('button', { name: 'Annuler' })).toBeInTheDocument();
    // Not started yet: no "no-show".
    expect(within(actions).queryByRole('button', { name: 'Absent' })).not.toBeInTheDocument();
  });

  it('offers the check-in on the day of the appointment only', async () => {
    renderApp(`/appointments/${APPOINTMENT_ID}`, {
      user: secretary,
      routes: { [PATH]: () => Response.json(appointmentDetail({ start: todayAt(10, 0, 1) })) },
    });
    const actions = await screen.findByTestId('appointment-actions', {}, { timeout: 15_000 });
    expect(within(actions).getByRole('button', { name: 'Confirmer' })).toBeInTheDocument();
    expect(within(actions).queryByRole('button', { name: "Enregistrer l'arrivée" })).not.toBeInTheDocument();
  });

  it('cancels with a mandatory reason', async () => {
    const user = userEvent.setup();
    const bodies: unknown[] = [];
    renderApp(`/appointments/${APPOINTMENT_ID}`, {
      user: secretary,
      routes: {
        [PATH]: () => Response.json(appointmentDetail()),
        [`${PATH}cancel/`]: (r: MockRequest) => {
          bodies.push(r.body);
          return Response.json(appointment({ status: 'cancelled', cancel_reason: 'Patiente hospitalisée' }));
        },
      },
    });
    const actions = await screen.findByTestId('appointment-actions', {}, { timeout: 15_000 });
    await user.click(within(actions).getByRole('button', { name: 'Annuler' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Annuler le rendez-vous' }));
    expect(bodies).toEqual([]);
    await user.type(within(dialog).getByLabelText(/Motif de l'annulation/), 'Patiente hospitalisée');
    await user.click(within(dialog).getByRole('button', { name: 'Annuler le rendez-vous' }));
    await waitFor(() => expect(bodies).toEqual([{ reason: 'Patiente hospitalisée' }]));
  });

  it('shows the history of its moves', async () => {
    renderApp(`/appointments/${APPOINTMENT_ID}`, {
      user: doctor,
      routes: {
        [PATH]: () =>
          Response.json(
            appointmentDetail({
              reschedule_count: 1,
              history: [
                {
                  id: '0190f0f0-9999-7222-8333-444455550001',
                  from_start: '2026-11-20T08:00:00Z',
                  from_end: '2026-11-20T08:20:00Z',
                  from_provider: DOCTOR,
                  to_start: '2026-11-27T08:00:00Z',
                  to_end: '2026-11-27T08:20:00Z',
                  to_provider: DOCTOR,
                  reason: 'Médecin en formation',
                  moved_by: { id: 'u-sec', full_name: 'Grâce Mbuyi' },
                  moved_at: '2026-11-19T10:00:00Z',
                },
              ],
            }),
          ),
      },
    });
    const move = await screen.findByTestId('history-move', {}, { timeout: 15_000 });
    expect(move).toHaveTextContent('Médecin en formation');
    expect(move).toHaveTextContent('Grâce Mbuyi');
  });

  it('sends an unknown appointment to the error page', async () => {
    const { router } = renderApp(`/appointments/${APPOINTMENT_ID}`, {
      user: doctor,
      routes: { [PATH]: () => Response.json({ detail: 'Introuvable' }, { status: 404 }) },
    });
    await waitFor(() => expect(locationOf(router)).toBe(`/error-404?type=appointment&id=${APPOINTMENT_ID}`), {
      timeout: 15_000,
    });
    expect(await screen.findByText('Page introuvable')).toBeInTheDocument();
  });
});
