import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { locationOf, makeUser, renderApp } from '../../../test/render';

const execution = (id: string, admission: string, name: string, status: string, level: string) => ({
  id,
  kind: 'consultation',
  admission_id: admission,
  admission_status: status === 'in_progress' ? 'in_consultation' : 'assigned',
  patient: {
    id: `p-${id}`,
    record_number: `HGG-${id}`,
    full_name: name,
    sex: 'F',
    age: 40,
    allergies: ['Aspirine'],
  },
  department: { id: 'd1', code: 'URG', name: 'Urgences', kind: 'emergency' },
  doctor: { id: 'u1', full_name: 'Awa Diop' },
  status,
  priority: 1,
  triage_level: level,
  target_minutes: 20,
  queue_number: 3,
  admitted_at: '2026-01-01T08:00:00Z',
  scheduled_at: null,
  started_at: null,
  completed_at: null,
  waited_minutes: 35,
  target_exceeded: true,
});

describe('doctor dashboard', () => {
  it('Start Next Consultation starts the first waiting patient of the queue and opens the consultation', async () => {
    const user = userEvent.setup();
    const { fetchMock, router } = renderApp('/', {
      user: makeUser(),
      routes: {
        '/api/doctors/u1/execution-queue/': () =>
          Response.json({
            count: 2,
            next: null,
            previous: null,
            results: [
              execution('e1', 'a-in-progress', 'Déjà en consultation', 'in_progress', '1'),
              execution('e2', 'a-next', 'Bénédicte Ngalula', 'assigned', '2'),
            ],
          }),
        '/api/doctors/u1/workload/': () =>
          Response.json({
            doctor: { id: 'u1', full_name: 'Awa Diop' },
            waiting: 1,
            in_progress: 1,
            completed_today: 0,
            average_consultation_minutes: null,
          }),
        '/api/admissions/a-next/start-consultation/': () =>
          Response.json(
            {
              id: 'c-42',
              admission: 'a-next',
              patient: 'p-e2',
              doctor: { id: 'u1', full_name: 'Awa Diop' },
              status: 'in_progress',
              started_at: '2026-01-01T09:00:00Z',
              completed_at: null,
            },
            { status: 201 },
          ),
      },
    });
    // The first render compiles the lazy dashboard chunk; the button is enabled once the queue arrived.
    const button = await screen.findByTestId('start-next-consultation', {}, { timeout: 15_000 });
    await waitFor(() => expect(button).toBeEnabled());
    await user.click(button);
    await waitFor(() => expect(locationOf(router)).toBe('/consultations/c-42'));
    const calls = fetchMock.mock.calls as unknown as [RequestInfo | URL, RequestInit | undefined][];
    const posts = calls
      .filter(([, init]) => init?.method === 'POST')
      .map(([input]) => new URL(String(input), 'http://localhost').pathname)
      .filter((path) => !path.startsWith('/api/notifications/'));
    expect(posts).toEqual(['/api/admissions/a-next/start-consultation/']);
  });

  it('disables Start Next Consultation when the queue is empty', async () => {
    renderApp('/', {
      user: makeUser(),
      routes: {
        '/api/doctors/u1/execution-queue/': () =>
          Response.json({ count: 0, next: null, previous: null, results: [] }),
        '/api/doctors/u1/workload/': () =>
          Response.json({
            waiting: 0,
            in_progress: 0,
            completed_today: 0,
            average_consultation_minutes: null,
          }),
      },
    });
    expect(await screen.findByText('Aucun patient en attente dans votre file.')).toBeInTheDocument();
    expect(screen.getByTestId('start-next-consultation')).toBeDisabled();
  });
});
