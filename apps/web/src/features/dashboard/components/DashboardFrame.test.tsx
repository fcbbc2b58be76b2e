import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeUser, renderApp } from '../../../test/render';

afterEach(() => {
  vi.unstubAllGlobals();
});

const DEP = '0190f0f0-2222-7222-8333-444455556666';
const overview = {
  generated_at: '2026-03-04T08:00:00Z',
  today: {
    admissions: 12,
    by_type: { outpatient: 7, emergency: 4, maternity: 1, inpatient: 0 },
    waiting: 5,
    in_consultation: 2,
    consultations_completed: 5,
    hospitalized: 9,
    discharged: 3,
    deaths: 0,
  },
  alerts: [{ kind: 'wait_over_target', count: 2 }],
  waiting: [
    { level: '2', target_minutes: 20, count: 2, longest_minutes: 45, average_minutes: 35, over_target: 2 },
    { level: null, target_minutes: null, count: 3, longest_minutes: 12, average_minutes: 8, over_target: 0 },
  ],
  outpatient: [
    {
      department: { id: DEP, name: 'Urgences' },
      admissions: 12,
      waiting: 5,
      in_consultation: 2,
      completed: 5,
    },
  ],
  inpatient: {
    beds: 20,
    occupied: 9,
    pending_bed: 0,
    by_department: [
      { department: { id: DEP, name: 'Urgences' }, census: 9, pending_bed: 0, admitted_today: 1 },
    ],
  },
  discharged: [{ mode: 'home', count: 3 }],
};

describe("the administrator's Hospital Overview", () => {
  it("shows today's figures and alerts, then the waiting room by level, from /api/dashboard/overview/", async () => {
    const admin = makeUser({ active_roles: [{ role_code: 'ADMIN', hospital: 'h1', department: null }] });
    renderApp('/', {
      user: admin,
      routes: { '/api/dashboard/overview/': () => Response.json(overview) },
    });
    expect(await screen.findByText('Visites du jour', {}, { timeout: 15_000 })).toBeInTheDocument();
    expect(screen.getByText('7 externes · 4 urgences · 1 maternité')).toBeInTheDocument();
    expect(screen.getByTestId('overview-alert-wait_over_target')).toHaveTextContent(
      'Patients en attente au-delà du délai de leur niveau de tri : 2',
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: 'En attente' }));
    const table = await screen.findByTestId('overview-waiting');
    expect(within(table).getByText('Non trié')).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Hospitalisés' }));
    expect(await screen.findByText('9 lits occupés sur 20 (45 %)')).toBeInTheDocument();
  });
});
