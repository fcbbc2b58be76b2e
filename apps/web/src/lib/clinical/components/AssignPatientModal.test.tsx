import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '../../../stores/auth';
import { TestProviders } from '../../../test/render';
import { queryClient } from '../../query-client';
import { AssignPatientModal } from './AssignPatientModal';

const ADMISSION = '01a20084-3df8-723b-b4f0-7b5799e2dfc2';
const doctor = (id: string, name: string, waiting: number, inProgress: number, prefix = 'Dr.') => ({
  id,
  full_name: name,
  email: `${id}@greensen.test`,
  title_prefix: prefix,
  role_codes: prefix === 'Mme' ? ['SAGE_FEMME'] : ['DOCTOR'],
  departments:
    prefix === 'Mme'
      ? [{ id: 'd-mat', code: 'MAT', name: 'Maternité', kind: 'maternity' }]
      : [{ id: 'd-urg', code: 'URG', name: 'Urgences', kind: 'emergency' }],
  workload: { waiting, in_progress: inProgress, completed_today: 0, average_consultation_minutes: null },
});
const D1 = '01a20084-0000-7000-8000-0000000000d1';
const D2 = '01a20084-0000-7000-8000-0000000000d2';
const D3 = '01a20084-0000-7000-8000-0000000000d3';

const doctorQueries: URLSearchParams[] = [];

function mockServer() {
  const posts: unknown[] = [];
  doctorQueries.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      if (url.pathname === '/api/doctors/') {
        // The server's order (the visit's department first): the dialog keeps it.
        doctorQueries.push(url.searchParams);
        return Response.json({
          count: 3,
          next: null,
          previous: null,
          results: [
            doctor(D3, 'Marie Lukusa', 1, 0),
            doctor(D1, 'Patrick Ilunga', 3, 1),
            doctor(D2, 'Grâce Mbuyi', 0, 0, 'Mme'),
          ],
        });
      }
      if (url.pathname === '/api/admissions/') {
        return Response.json({
          count: 1,
          next: null,
          previous: null,
          results: [
            {
              id: ADMISSION,
              patient: {
                id: 'p1',
                record_number: 'HGG-000002',
                full_name: 'Jean-Pierre Mbuyi',
                sex: 'M',
                age: 62,
                allergies: [],
              },
              department: { id: 'd1', code: 'URG', name: 'Urgences', kind: 'emergency' },
              status: 'waiting',
              queue_number: 2,
              triage: {
                id: 't1',
                scale: 'FRENCH',
                level: '2',
                rank: 2,
                target_minutes: 20,
                recorded_at: '2026-01-01T00:00:00Z',
              },
              doctor: null,
            },
          ],
        });
      }
      if (url.pathname === '/api/assign-patient/' && init?.method === 'POST') {
        posts.push(JSON.parse(String(init.body)));
        return Response.json({
          execution: {
            patient: { full_name: 'Jean-Pierre Mbuyi' },
            doctor: { id: D3, full_name: 'Marie Lukusa' },
          },
          reassigned_from: null,
        });
      }
      return Response.json({ detail: 'Not found' }, { status: 404 });
    }),
  );
  return posts;
}

describe('assign dialog', () => {
  beforeEach(() => {
    queryClient.clear();
    useAuthStore.setState({ access: 'a', refresh: 'r', isAuthenticated: true, currentHospitalId: 'h1' });
  });

  it('lists the doctors in the server’s order for the visit, with their role, department and load, and assigns', async () => {
    const posts = mockServer();
    const onClose = vi.fn();
    const user = userEvent.setup();
    render(
      <TestProviders>
        <AssignPatientModal opened onClose={onClose} admissionId={ADMISSION} />
      </TestProviders>,
    );
    await user.click(screen.getByLabelText(/^Médecin/, { selector: 'input' }));
    await waitFor(() => expect(screen.getAllByTestId('doctor-option')).toHaveLength(3));
    const options = screen.getAllByTestId('doctor-option');
    expect(options.map((option) => option.textContent)).toEqual([
      'Dr. Marie LukusaMédecin · Urgences1 patient',
      'Dr. Patrick IlungaMédecin · Urgences4 patients',
      'Mme Grâce MbuyiSage-femme · Maternité0 patient',
    ]);
    expect(doctorQueries.at(-1)?.get('admission')).toBe(ADMISSION);
    await user.click(options[0] as HTMLElement);
    await user.click(screen.getByRole('button', { name: 'Affecter' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(posts).toEqual([{ admission: ADMISSION, doctor: D3 }]);
  });
});
