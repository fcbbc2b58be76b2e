import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeUser, renderApp } from '../../../test/render';
import { monthRange } from './AnalyticsPage';

// jsdom has no canvas: the chart (its own lazy chunk) is replaced by its title.
vi.mock('../components/BarChart', () => ({
  default: ({ title }: { title: string }) => <div data-testid="chart">{title}</div>,
}));

afterEach(() => {
  vi.unstubAllGlobals();
});

const period = {
  from: '2026-03-01',
  to: '2026-03-31',
  department: null,
  hospital: { id: 'h1', code: 'HGG', name: 'HGG' },
  hospitals: [{ id: 'h1', code: 'HGG', name: 'HGG' }],
};
const zero = { '0-11m': 0, '1-4': 0, '5-14': 0, '15+': 0, unknown: 0 };
const diagnoses = {
  period,
  top_codes: [{ code: 'B50.9', label: 'Paludisme à P. falciparum', count: 3 }],
  chapters: [{ chapter: 'I', label: 'Maladies infectieuses', count: 3 }],
  idsr: [
    { disease: 'malaria_confirmed', total: 3, by_age: { ...zero, '1-4': 1, '15+': 2 } },
    { disease: 'cholera', total: 0, by_age: zero },
  ],
};
const drilldown = {
  count: 1,
  next: null,
  previous: null,
  results: [
    {
      consultation: '0190f0f0-1111-7222-8333-444455556666',
      started_at: '2026-03-04T08:00:00Z',
      status: 'completed',
      patient: {
        id: '0190f0f0-2222-7222-8333-444455556666',
        record_number: 'HGG-0042',
        full_name: 'Esther Mbuyi',
        age_group: '1-4',
      },
      doctor: { id: '0190f0f0-3333-7222-8333-444455556666', full_name: 'Awa Diop' },
      department: { id: '0190f0f0-4444-7222-8333-444455556666', name: 'Urgences' },
      diagnosis: { code: 'B50.9', label: 'Paludisme', certainty: 'confirmed' },
    },
  ],
};
const routes = {
  '/api/stats/diagnoses/': () => Response.json(diagnoses),
  '/api/stats/drilldown/': () => Response.json(drilldown),
  '/api/departments/': () => Response.json({ count: 0, next: null, previous: null, results: [] }),
};

describe('/analytics', () => {
  it('lets a head doctor open the consultations behind the malaria count', async () => {
    const head = makeUser({ active_roles: [{ role_code: 'HEAD_DOCTOR', hospital: 'h1', department: null }] });
    renderApp('/analytics?tab=diagnoses&from=2026-03-01&to=2026-03-31', { user: head, routes });
    const table = await screen.findByTestId('table-idsr', {}, { timeout: 15_000 });
    const row = within(table).getByText('Paludisme confirmé').closest('tr') as HTMLElement;
    const links = within(row).getAllByTestId('drill');
    expect(links.map((l) => l.textContent)).toEqual(['1', '2', '3']);
    expect((await screen.findAllByTestId('chart')).map((c) => c.textContent)).toContain(
      'Maladies à déclaration obligatoire (SIMR) par âge',
    );
    await userEvent.setup().click(links[0]!);
    const list = await screen.findByTestId('drilldown-table');
    expect(within(list).getByText(/Esther Mbuyi \(HGG-0042\)/)).toBeInTheDocument();
    expect(
      screen.getByText('Les consultations derrière le chiffre : Paludisme confirmé · 1–4 ans'),
    ).toBeInTheDocument();
  });

  it('gives an administrator the numbers only', async () => {
    const admin = makeUser({ active_roles: [{ role_code: 'ADMIN', hospital: 'h1', department: null }] });
    renderApp('/analytics?tab=diagnoses&from=2026-03-01&to=2026-03-31', { user: admin, routes });
    const table = await screen.findByTestId('table-idsr', {}, { timeout: 15_000 });
    expect(within(table).getByText('Paludisme confirmé')).toBeInTheDocument();
    expect(within(table).queryByTestId('drill')).toBeNull();
  });

  it('shows the pharmacy figures and the median waits', async () => {
    const head = makeUser({ active_roles: [{ role_code: 'HEAD_DOCTOR', hospital: 'h1', department: null }] });
    const pharmacy = {
      period,
      stock_outs: 2,
      below_reorder_level: 1,
      consumption: [
        {
          presentation: {
            id: 'p1',
            code: 'paracetamol:tablet:500 mg',
            name: 'Paracétamol 500 mg (tablet)',
            unit: 'cp',
          },
          dispensed: 120,
          dispensings: 30,
          received: 500,
          written_off: 0,
          on_hand: 380,
        },
      ],
      out_of_stock: [
        {
          presentation: {
            id: 'p2',
            code: 'amoxicilline:capsule:500 mg',
            name: 'Amoxicilline 500 mg (capsule)',
          },
          pharmacy: { id: 'ph', name: 'Pharmacie centrale' },
          reorder_level: 50,
          since: '2026-03-20T10:00:00Z',
        },
      ],
    };
    const flow = {
      period,
      levels: [
        {
          level: '2',
          target_minutes: 20,
          visits: 10,
          seen: 10,
          arrival_to_triage: 4.2,
          arrival_to_doctor: 31.6,
          doctor_to_end: 18,
          median_arrival_to_triage: 3.5,
          median_arrival_to_doctor: 22.5,
          median_doctor_to_end: 15,
          within_target: 4,
        },
      ],
    };
    const view = renderApp('/analytics?tab=pharmacy&from=2026-03-01&to=2026-03-31', {
      user: head,
      routes: {
        ...routes,
        '/api/stats/pharmacy/': () => Response.json(pharmacy),
        '/api/stats/flow/': () => Response.json(flow),
      },
    });
    const table = await screen.findByTestId('table-consumption', {}, { timeout: 15_000 });
    expect(within(table).getByText('Paracétamol 500 mg (tablet)')).toBeInTheDocument();
    expect(
      within(screen.getByTestId('table-stock-outs')).getByText('Pharmacie centrale'),
    ).toBeInTheDocument();
    expect(screen.getByText('Ruptures de stock')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('tab', { name: 'Flux' }));
    const waits = await screen.findByTestId('table-waiting-times', {}, { timeout: 15_000 });
    expect(within(waits).getByText('Arrivée → médecin (médiane)')).toBeInTheDocument();
    expect(within(waits).getByText('23')).toBeInTheDocument();
    expect(view).toBeTruthy();
  });

  it('offers all hospitals to an administrator of several, and asks for them', async () => {
    const admin = makeUser({
      hospitals: [
        { id: 'h1', name: 'Hôpital Général de Greensen', code: 'HGG' },
        { id: 'h2', name: 'Clinique du Fleuve', code: 'CDF' },
      ],
      active_roles: [
        { role_code: 'ADMIN', hospital: 'h1', department: null },
        { role_code: 'ADMIN', hospital: 'h2', department: null },
      ],
    });
    const asked: string[] = [];
    renderApp('/analytics?tab=diagnoses&from=2026-03-01&to=2026-03-31', {
      user: admin,
      routes: {
        ...routes,
        '/api/stats/diagnoses/': ({ url }) => {
          asked.push(url.searchParams.get('hospitals') ?? 'one');
          return Response.json(diagnoses);
        },
      },
    });
    await screen.findByTestId('table-idsr', {}, { timeout: 15_000 });
    const user = userEvent.setup();
    await user.click(screen.getByRole('combobox', { name: 'Hôpitaux' }));
    await user.click(await screen.findByRole('option', { name: 'Tous mes hôpitaux (2)', hidden: true }));
    await vi.waitFor(() => expect(asked).toContain('all'), { timeout: 15_000 });
    expect(asked[0]).toBe('one');
  });

  it('does not offer all hospitals to a head doctor of one', async () => {
    const head = makeUser({
      hospitals: [
        { id: 'h1', name: 'Hôpital Général de Greensen', code: 'HGG' },
        { id: 'h2', name: 'Clinique du Fleuve', code: 'CDF' },
      ],
      active_roles: [
        { role_code: 'HEAD_DOCTOR', hospital: 'h1', department: null },
        { role_code: 'NURSE', hospital: 'h2', department: null },
      ],
    });
    renderApp('/analytics?tab=diagnoses&from=2026-03-01&to=2026-03-31', { user: head, routes });
    await screen.findByTestId('table-idsr', {}, { timeout: 15_000 });
    expect(screen.queryByTestId('stats-scope')).toBeNull();
  });

  it('writes the average length of stay as French does (decimal comma)', async () => {
    const head = makeUser({ active_roles: [{ role_code: 'HEAD_DOCTOR', hospital: 'h1', department: null }] });
    const inpatient = {
      period,
      admissions: 5,
      discharges: 1,
      deaths: 0,
      average_length_of_stay: 5.1,
      beds: 36,
      occupied_bed_days: 12,
      occupancy: 8.5,
      discharges_by_mode: [],
    };
    renderApp('/analytics?tab=inpatient&from=2026-03-01&to=2026-03-31', {
      user: head,
      routes: { ...routes, '/api/stats/inpatient/': () => Response.json(inpatient) },
    });
    expect(await screen.findByText('5,1', {}, { timeout: 15_000 })).toBeInTheDocument();
    expect(screen.getByText('8,5 %')).toBeInTheDocument();
  });

  it('knows the first and last days of a month', () => {
    expect(monthRange(-1, new Date(2026, 2, 15))).toEqual({ from: '2026-02-01', to: '2026-02-28' });
    expect(monthRange(0, new Date(2026, 0, 31))).toEqual({ from: '2026-01-01', to: '2026-01-31' });
  });
});
