import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ADMISSION_ID, appointment, todayAt } from '../../../lib/clinical/components/appointments.fixture';
import { makeUser, renderApp } from '../../../test/render';
import { checkInState } from './DoctorSchedulePanel';

afterEach(() => vi.unstubAllGlobals());

const ARRIVED = appointment({
  id: '0190f0f0-aaaa-7222-8333-444455550002',
  start: todayAt(0, 5),
  status: 'checked_in',
  admission: { id: ADMISSION_ID, status: 'waiting', queue_number: 4 },
});
const LATER = appointment({
  id: '0190f0f0-aaaa-7222-8333-444455550003',
  // Later (tomorrow's date keeps it ahead of the clock whatever the hour the test runs).
  start: todayAt(10, 0, 1),
  patient: {
    ...appointment().patient,
    id: '0190f0f0-bbbb-7222-8333-444455550009',
    full_name: 'Jean Kasongo',
  },
});

describe('the schedule tab of My Patients Today', { timeout: 60_000 }, () => {
  it("lists today's appointments with their check-in state and a link to the visit", async () => {
    const user = userEvent.setup();
    renderApp('/', {
      user: makeUser(),
      routes: {
        '/api/appointments/today/': () =>
          Response.json({ date: '2026-11-25', time_zone: 'Africa/Kinshasa', results: [ARRIVED, LATER] }),
      },
    });
    await user.click(await screen.findByRole('tab', { name: 'Planning' }, { timeout: 15_000 }));
    const rows = await screen.findAllByTestId('schedule-row', {}, { timeout: 15_000 });
    expect(rows.map((r) => r.getAttribute('data-state'))).toEqual(['arrived', 'expected']);
    expect(within(rows[0] as HTMLElement).getByRole('link', { name: 'Visite n° 4' })).toHaveAttribute(
      'href',
      `/admissions/${ADMISSION_ID}`,
    );
    expect(within(rows[1] as HTMLElement).getByTestId('check-in-state')).toHaveTextContent('Attendu');
    expect(screen.getByText("2 rendez-vous aujourd'hui, 1 arrivé(s)")).toBeInTheDocument();
  });

  it('says when there is no appointment today', async () => {
    const user = userEvent.setup();
    renderApp('/', {
      user: makeUser(),
      routes: {
        '/api/appointments/today/': () =>
          Response.json({ date: '2026-11-25', time_zone: 'Africa/Kinshasa', results: [] }),
      },
    });
    await user.click(await screen.findByRole('tab', { name: 'Planning' }, { timeout: 15_000 }));
    expect(await screen.findByTestId('schedule-empty', {}, { timeout: 15_000 })).toHaveTextContent(
      "Aucun rendez-vous aujourd'hui.",
    );
  });

  it('reads a booked appointment whose time has passed as "not arrived yet"', () => {
    const now = new Date('2026-11-25T10:00:00Z').getTime();
    expect(checkInState({ status: 'confirmed', start: '2026-11-25T09:30:00Z' }, now)).toBe('late');
    expect(checkInState({ status: 'booked', start: '2026-11-25T10:30:00Z' }, now)).toBe('expected');
    expect(checkInState({ status: 'no_show', start: '2026-11-25T09:30:00Z' }, now)).toBe('absent');
  });
});
