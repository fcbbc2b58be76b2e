import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../../lib/query-client';
import { useAuthStore } from '../../../stores/auth';
import { TestProviders } from '../../../test/render';
import { PatientVisits, VISITS_PAGE_SIZE } from './PatientVisits';

const PATIENT = '01a20084-3eb7-766e-8fa6-08ca377955bf';
const department = { id: '01a20084-0000-7000-8000-0000000000d1', name: 'Médecine interne' };
const visit = (n: number) => ({
  id: `01a20084-0000-7000-8000-${String(n).padStart(12, '0')}`,
  status: 'completed',
  admission_type: 'outpatient',
  reason: `Visite ${n}`,
  admitted_at: new Date(Date.UTC(2026, 10, 30 - n, 9)).toISOString(),
  closed_at: null,
  discharged_at: null,
  queue_number: n,
  department,
  triage_level: null,
});
/** The same visit as `GET /api/admissions/` lists it. */
const listed = (n: number) => {
  const { triage_level: _, ...v } = visit(n);
  return {
    ...v,
    patient: { id: PATIENT, record_number: 'HGG-000013', full_name: 'Grâce Mbuyi' },
    queue_date: v.admitted_at.slice(0, 10),
    triage: null,
    doctor: null,
    cancel_reason: null,
    cancelled_at: null,
    waited_minutes: 30,
  };
};

function mockServer(total: number) {
  const requests: URL[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL) => {
      const url = new URL(String(input), 'http://localhost');
      requests.push(url);
      if (url.pathname === '/api/admissions/') {
        const page = Number(url.searchParams.get('page'));
        const size = Number(url.searchParams.get('page_size'));
        const numbers = Array.from({ length: total }, (_, i) => i + 1).slice((page - 1) * size, page * size);
        return Response.json({ count: total, next: null, previous: null, results: numbers.map(listed) });
      }
      return Response.json({ detail: 'Not found' }, { status: 404 });
    }),
  );
  return requests;
}

function renderVisits(shown: number, count: number) {
  render(
    <TestProviders>
      <MemoryRouter>
        <PatientVisits
          patient={{
            id: PATIENT,
            admissions: Array.from({ length: shown }, (_, i) => visit(i + 1)),
            admissions_count: count,
          }}
        />
      </MemoryRouter>
    </TestProviders>,
  );
}

describe('the visits of a record', () => {
  beforeEach(() => {
    queryClient.clear();
    useAuthStore.setState({ access: 'a', refresh: 'r', isAuthenticated: true, currentHospitalId: 'h1' });
  });

  it('shows the visits the record carries and fetches nothing when they are all there', () => {
    const requests = mockServer(3);
    renderVisits(3, 3);
    expect(screen.getByText(/Visite 3/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Voir toutes les visites/ })).not.toBeInTheDocument();
    expect(requests).toEqual([]);
  });

  it('pages through a long history, one bounded page per request', async () => {
    const requests = mockServer(45);
    renderVisits(5, 45);
    expect(requests).toEqual([]);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Voir toutes les visites (45)' }));
    expect(await screen.findByText(/Visite 20\b/)).toBeInTheDocument();
    expect(screen.queryByText(/Visite 21\b/)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: '3' }));
    expect(await screen.findByText(/Visite 45/)).toBeInTheDocument();
    expect(requests.map((u) => [u.searchParams.get('patient'), u.searchParams.get('page')])).toEqual([
      [PATIENT, '1'],
      [PATIENT, '3'],
    ]);
    for (const u of requests) {
      expect(u.searchParams.get('page_size')).toBe(String(VISITS_PAGE_SIZE));
      expect(u.searchParams.get('ordering')).toBe('-admitted_at');
    }
  });
});
