import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeUser, renderApp } from '../../../test/render';
import { recentMonths, recentWeeks } from '../components/ExportsPanel';
import { reportPeriod } from './ReportPage';

afterEach(() => {
  vi.unstubAllGlobals();
});

const zero = { '0-11m': 0, '1-4': 0, '5-14': 0, '15+': 0, unknown: 0 };
const diagnoses = (from: string, to: string) => ({
  period: {
    from,
    to,
    department: null,
    hospital: { id: 'h1', code: 'HGG', name: 'Hôpital Général de Greensen' },
  },
  top_codes: [],
  chapters: [],
  idsr: [
    { disease: 'malaria_confirmed', total: 7, by_age: { ...zero, '1-4': 3, '15+': 4 } },
    { disease: 'cholera', total: 0, by_age: zero },
  ],
});
const mapping = {
  configured: true,
  id_scheme: 'UID',
  org_unit: 'DiszpKrYNg8',
  monthly_data_set: null,
  weekly_data_set: 'Nyh6laLdBEJ',
  rows: [
    {
      indicator: 'idsr.malaria_confirmed.total',
      data_element: 'vq2qO3eTrNi',
      category_option_combo: 'HllvX50cXC0',
      attribute_option_combo: null,
    },
  ],
  updated_at: '2026-11-20T10:00:00Z',
  updated_by: null,
};
const role = (role_code: string) =>
  makeUser({ active_roles: [{ role_code, hospital: 'h1', department: null }] });

describe('/analytics exports', () => {
  it('lets an administrator change the DHIS2 mapping', async () => {
    const saved: unknown[] = [];
    renderApp('/analytics?tab=exports', {
      user: role('ADMIN'),
      routes: {
        '/api/departments/': () => Response.json({ count: 0, next: null, previous: null, results: [] }),
        '/api/stats/dhis2/mapping/': ({ method, body }) => {
          if (method === 'PUT') saved.push(body);
          return Response.json(mapping);
        },
      },
    });
    const form = await screen.findByTestId('dhis2-mapping', {}, { timeout: 45_000 });
    const user = userEvent.setup();
    const orgUnit = within(form).getByLabelText(/Unité d’organisation/);
    fireEvent.change(orgUnit, { target: { value: 'FNnj3jKGS7i' } });
    await user.click(within(form).getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toEqual({
      id_scheme: 'UID',
      org_unit: 'FNnj3jKGS7i',
      monthly_data_set: null,
      weekly_data_set: 'Nyh6laLdBEJ',
      rows: [
        {
          indicator: 'idsr.malaria_confirmed.total',
          data_element: 'vq2qO3eTrNi',
          category_option_combo: 'HllvX50cXC0',
          attribute_option_combo: null,
        },
      ],
    });
  }, 90_000);

  it('gives a head doctor the DHIS2 file of last month, without the mapping', async () => {
    const periods: string[] = [];
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:x', revokeObjectURL: () => {} }));
    renderApp('/analytics?tab=exports', {
      user: role('HEAD_DOCTOR'),
      routes: {
        '/api/departments/': () => Response.json({ count: 0, next: null, previous: null, results: [] }),
        '/api/stats/dhis2/dataValueSet/': ({ url }) => {
          periods.push(url.searchParams.get('period') ?? '');
          return Response.json({
            period: url.searchParams.get('period'),
            orgUnit: 'DiszpKrYNg8',
            dataValues: [],
          });
        },
      },
    });
    const buttons = await screen.findAllByRole(
      'button',
      { name: 'Fichier DHIS2 (JSON)' },
      { timeout: 15_000 },
    );
    expect(screen.queryByTestId('dhis2-mapping')).toBeNull();
    await userEvent.setup().click(buttons[0]!);
    await waitFor(() => expect(periods).toEqual([recentMonths(2)[1]!.replace('-', '')]));
  }, 60_000);
});

describe('printable reports', () => {
  it('prints the weekly IDSR report of an ISO week with the hospital and its days', async () => {
    const asked: string[] = [];
    const print = vi.fn();
    vi.stubGlobal('print', print);
    renderApp('/analytics/report/idsr?week=2026W10', {
      user: role('HEAD_DOCTOR'),
      routes: {
        '/api/stats/diagnoses/': ({ url }) => {
          const from = url.searchParams.get('from') ?? '';
          const to = url.searchParams.get('to') ?? '';
          asked.push(`${from}/${to}`);
          return Response.json(diagnoses(from, to));
        },
      },
    });
    const table = await screen.findByTestId('report-idsr', {}, { timeout: 15_000 });
    const row = within(table).getByText('Paludisme confirmé').closest('tr') as HTMLElement;
    expect(
      within(row)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['Paludisme confirmé', '0', '3', '0', '4', '0', '7']);
    expect(screen.getByTestId('report-period').textContent).toBe('2026W10 · 2026-03-02 – 2026-03-08');
    expect(await screen.findByText('Hôpital Général de Greensen')).toBeInTheDocument();
    expect(asked).toEqual(['2026-03-02/2026-03-08']);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Imprimer' }));
    expect(print).toHaveBeenCalledOnce();
  }, 60_000);

  it('reads the report period from the address', () => {
    const q = (s: string) => new URLSearchParams(s);
    expect(reportPeriod('monthly', q('month=2026-02'))).toMatchObject({
      from: '2026-02-01',
      to: '2026-02-28',
    });
    expect(reportPeriod('idsr', q('week=2026W1'))).toMatchObject({ from: '2025-12-29', to: '2026-01-04' });
    expect(reportPeriod('idsr', q('week=202602'))).toBeNull();
    expect(reportPeriod('monthly', q('month=202602'))).toBeNull();
    expect(reportPeriod('other', q('month=2026-02'))).toBeNull();
    expect(recentWeeks(2, new Date(2026, 0, 5))).toEqual(['2026W2', '2026W1']);
  });
});
