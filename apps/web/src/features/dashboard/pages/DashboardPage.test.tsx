/**
 * Issue 37: a home screen for each job. The head doctor starts on the hospital overview; the pharmacist lands on
 * the dispensing queue, stock alerts and expiries, the cashier on the invoices waiting and her cash session
 * (decision 0070), each with only their modules in the navigation.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  AMOX_CAPS,
  lot,
  PHARMACY,
  pageOf,
  prescription,
  stockItem,
} from '../../../lib/clinical/components/pharmacy.fixture';
import { stubDesktopWidth } from '../../../test/media-query';
import { type MockRequest, makeUser, renderApp } from '../../../test/render';
import { BILLING_DEPT, departments, invoice, page, session } from '../../billing/billing.fixture';

beforeEach(() => stubDesktopWidth());
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const PHA_DEPT = PHARMACY.id;
const pharmacist = makeUser({
  id: 'ph1',
  email: 'pharmacie@greensen.test',
  departments: [{ id: PHA_DEPT, name: PHARMACY.name, hospital: 'h1' }],
  active_roles: [{ role_code: 'PHARMACIST', hospital: 'h1', department: PHA_DEPT }],
  roles: [{ code: 'PHARMACIST', name: 'Pharmacist' }],
});
const cashier = makeUser({
  id: 'ca1',
  email: 'caisse@greensen.test',
  departments: [{ id: BILLING_DEPT, name: 'Caisse', hospital: 'h1' }],
  active_roles: [{ role_code: 'CASHIER', hospital: 'h1', department: BILLING_DEPT }],
  roles: [{ code: 'CASHIER', name: 'Cashier' }],
});
const headDoctor = makeUser({
  id: 'hd1',
  active_roles: [{ role_code: 'HEAD_DOCTOR', hospital: 'h1', department: 'd1' }],
  roles: [{ code: 'HEAD_DOCTOR', name: 'Head doctor' }],
});

const { lines: _lines, warnings: _warnings, ...listed } = prescription({ status: 'signed' });

function navLabels() {
  return within(screen.getByTestId('module-nav'))
    .getAllByRole('link')
    .map((link) => link.textContent ?? '');
}

describe('the pharmacist’s home', () => {
  it('shows the dispensing queue first, then the stock alerts and the expiries, and only her modules', async () => {
    const asked: MockRequest[] = [];
    renderApp('/', {
      user: pharmacist,
      routes: {
        '/api/pharmacy/pharmacies/': () => Response.json({ results: [{ ...PHARMACY, member: true }] }),
        '/api/prescriptions/': (r) => {
          asked.push(r);
          return pageOf([
            { ...listed, line_count: 1, allergy_override: false, summary: 'Amoxicilline', refused_lines: 0 },
          ]);
        },
        '/api/pharmacy/alerts/': () =>
          Response.json({
            out: [stockItem({ on_hand: 0, lots: 0, nearest_expiry: null, flags: ['out'] })],
            low: [],
            expiring: [
              lot({ lot_number: 'L-EXP', expiry_date: '2099-01-15', on_hand: 4, presentation: AMOX_CAPS }),
            ],
            expired: [],
            expiring_days: 90,
          }),
      },
    });
    expect(
      await screen.findByRole('heading', { name: 'Pharmacie du jour' }, { timeout: 15_000 }),
    ).toBeVisible();
    // Never a doctor's dashboard (the specification's unknown-code rule).
    expect(screen.queryByText('Mes patients du jour')).not.toBeInTheDocument();
    const tabs = screen.getAllByRole('tab').map((tab) => tab.textContent);
    expect(tabs).toEqual(['À délivrer', 'Alertes de stock', 'Péremptions']);
    const queue = await screen.findByTestId('to-dispense', {}, { timeout: 15_000 });
    expect(within(queue).getByText(/Amoxicilline/)).toBeInTheDocument();
    expect(within(queue).getByRole('link', { name: 'Délivrer' })).toBeInTheDocument();
    expect(asked[0]?.url.searchParams.get('status')).toBe('to_dispense');

    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: 'Alertes de stock' }));
    expect(await screen.findByTestId('alerts-out')).toBeInTheDocument();
    expect(screen.queryByTestId('alerts-expiring')).not.toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Péremptions' }));
    const expiring = await screen.findByTestId('alerts-expiring');
    expect(within(expiring).getByText(/L-EXP/)).toBeInTheDocument();
    expect(screen.queryByTestId('alerts-out')).not.toBeInTheDocument();

    const links = navLabels().join(' | ');
    expect(links).toContain('Pharmacie');
    expect(links).toContain('Patients');
    for (const other of ['Consultations', 'Admissions', 'Facturation', 'Triage', 'Soins'])
      expect(links, other).not.toContain(other);
  });
});

describe('the pharmacist’s dispensing queue', () => {
  it('shows the urgent prescriptions, first as the server sends them, with an « Urgent » badge (issue 37)', async () => {
    const row = { ...listed, line_count: 1, allergy_override: false, refused_lines: 0 };
    renderApp('/', {
      user: pharmacist,
      routes: {
        '/api/pharmacy/pharmacies/': () => Response.json({ results: [{ ...PHARMACY, member: true }] }),
        '/api/prescriptions/': () =>
          pageOf([
            { ...row, id: 'rx-urgent', number: 'ORD-URG', summary: 'Artésunate', urgent: true },
            { ...row, id: 'rx-routine', number: 'ORD-EXT', summary: 'Paracétamol', urgent: false },
          ]),
      },
    });
    const queue = await screen.findByTestId('to-dispense', {}, { timeout: 15_000 });
    const rows = within(queue).getAllByTestId('to-dispense-row');
    expect(rows.map((r) => (r.textContent?.includes('ORD-URG') ? 'urgent' : 'routine'))).toEqual([
      'urgent',
      'routine',
    ]);
    expect(within(rows[0] as HTMLElement).getByTestId('urgent-badge')).toHaveTextContent('Urgent');
    expect(within(rows[0] as HTMLElement).getByTestId('urgent-badge')).toBeVisible();
    expect(within(rows[1] as HTMLElement).queryByTestId('urgent-badge')).not.toBeInTheDocument();
  });
});

describe('the cashier’s home', () => {
  it('shows the invoices waiting (issued) and her cash session, and only her modules', async () => {
    const asked: MockRequest[] = [];
    renderApp('/', {
      user: cashier,
      routes: {
        '/api/departments/': () => departments(),
        '/api/hospitals/h1/': () => Response.json({ id: 'h1', currency: 'XOF' }),
        '/api/invoices/': (r) => {
          asked.push(r);
          return page([invoice()]);
        },
        '/api/cash-sessions/current/': () => Response.json(session()),
        '/api/cash-sessions/': () => page([session()]),
      },
    });
    expect(await screen.findByRole('heading', { name: 'Caisse du jour' }, { timeout: 15_000 })).toBeVisible();
    expect(screen.queryByText('Affectation des patients')).not.toBeInTheDocument();
    expect(screen.getAllByRole('tab').map((tab) => tab.textContent)).toEqual([
      'Factures en attente',
      'Session de caisse',
    ]);
    expect(await screen.findByTestId('invoice-row', {}, { timeout: 15_000 })).toBeInTheDocument();
    await waitFor(() => expect(asked.at(-1)?.url.searchParams.get('status')).toBe('issued'));

    await userEvent.setup().click(screen.getByRole('tab', { name: 'Session de caisse' }));
    expect(await screen.findByTestId('cash-desk')).toBeInTheDocument();

    const links = navLabels().join(' | ');
    expect(links).toContain('Facturation');
    for (const other of ['Consultations', 'Admissions', 'Pharmacie', 'Triage', 'Soins'])
      expect(links, other).not.toContain(other);
  });
});

describe('the head doctor', () => {
  it('starts on the hospital overview', async () => {
    renderApp('/', {
      user: headDoctor,
      routes: { '/api/dashboard/overview/': () => Response.json({ detail: 'pas encore' }, { status: 500 }) },
    });
    expect(
      await screen.findByRole('heading', { name: "Vue d'ensemble de l'hôpital" }, { timeout: 15_000 }),
    ).toBeVisible();
    expect(screen.queryByRole('heading', { name: 'Mes patients du jour' })).not.toBeInTheDocument();
    // The switcher keeps the specification's order (the doctor's dashboard first), the overview chosen.
    const radios = screen.getAllByRole('radio');
    expect(radios.map((radio) => radio.getAttribute('value'))).toEqual(['doctor', 'admin']);
    expect(radios[1]).toBeChecked();
  });
});
