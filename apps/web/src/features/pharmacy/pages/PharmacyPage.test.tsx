import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  AMOX_CAPS,
  lot,
  PATIENT,
  PHARMACY,
  PHARMACY_2,
  pageOf,
  prescription,
  presentation,
  stockItem,
} from '../../../lib/clinical/components/pharmacy.fixture';
import { stubDesktopWidth } from '../../../test/media-query';
import { makeUser, renderApp } from '../../../test/render';

// Tables show their columns on a desktop-wide window only.
beforeEach(() => stubDesktopWidth());
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const nurse = makeUser({ active_roles: [{ role_code: 'NURSE', hospital: 'h1', department: null }] });
const PARA = presentation({ id: '0190f0f0-cccc-7222-8333-444455550009', form: 'tablet', unit: 'tablet' });
const paracetamol = stockItem({
  medication: {
    id: '0190f0f0-dddd-7222-8333-444455550009',
    inn_fr: 'Paracétamol',
    inn_en: 'Paracetamol',
    atc_code: 'N02BE01',
  },
  presentation: PARA,
  on_hand: 3,
  reorder_level: 10,
  flags: ['low'],
});
const outItem = stockItem({ on_hand: 0, lots: 0, nearest_expiry: null, flags: ['out'] });
const { lines: _lines, warnings: _warnings, ...listed } = prescription({ status: 'signed' });

function routes(member: boolean) {
  return {
    '/api/pharmacy/pharmacies/': () =>
      Response.json({
        results: [
          { ...PHARMACY_2, member: false },
          { ...PHARMACY, member },
        ],
      }),
    '/api/pharmacy/alerts/': () =>
      Response.json({
        out: [outItem],
        low: [paracetamol],
        expiring: [
          lot({ lot_number: 'L-Z', expiry_date: '2099-01-15', on_hand: 12, presentation: AMOX_CAPS }),
        ],
        expired: [
          lot({
            lot_number: 'L-OLD',
            expiry_date: '2020-01-15',
            on_hand: 4,
            presentation: AMOX_CAPS,
            expired: true,
          }),
        ],
        expiring_days: 90,
      }),
    '/api/pharmacy/stock/': () => pageOf([paracetamol, outItem]),
    '/api/prescriptions/': () =>
      pageOf([
        { ...listed, line_count: 1, allergy_override: true, summary: 'Amoxicilline', refused_lines: 0 },
      ]),
  };
}

describe('the pharmacy page', () => {
  it('shows the stock-outs, the items below their reorder level and the lots about to expire', async () => {
    renderApp('/pharmacy?tab=alerts', { user: nurse, routes: routes(true) });
    const out = await screen.findByTestId('alerts-out', {}, { timeout: 15_000 });
    expect(within(out).getByTestId('alerts-out-count')).toHaveTextContent('1');
    expect(within(out).getByText('Amoxicilline')).toBeInTheDocument();
    const low = screen.getByTestId('alerts-low');
    expect(within(low).getByText('Paracétamol')).toBeInTheDocument();
    expect(within(low).getByText('3 en stock (seuil 10)')).toBeInTheDocument();
    const expiring = screen.getByTestId('alerts-expiring');
    expect(within(expiring).getByText('Péremption dans 90 jours')).toBeInTheDocument();
    expect(within(expiring).getByText(/L-Z/)).toBeInTheDocument();
    // Issue 37: an expired lot has its own group, never under "Péremption dans 90 jours".
    expect(within(expiring).queryByText(/L-OLD/)).toBeNull();
    const expired = screen.getByTestId('alerts-expired');
    expect(within(expired).getByText('Périmés à sortir du stock')).toBeInTheDocument();
    expect(within(expired).getByText(/L-OLD/)).toBeInTheDocument();
  });

  it('opens on the user’s own pharmacy and lets its members act on the stock', async () => {
    const user = userEvent.setup();
    renderApp('/pharmacy?tab=stock', { user: nurse, routes: routes(true) });
    expect(await screen.findByRole('combobox', { name: 'Pharmacie' }, { timeout: 15_000 })).toHaveValue(
      'Pharmacie centrale',
    );
    const table = await screen.findByTestId('stock-panel');
    await within(table).findByText('Paracétamol');
    expect(within(table).getAllByRole('button', { name: /Modifier le seuil/ })).toHaveLength(2);
    expect(screen.getByRole('tab', { name: 'Entrée en stock' })).toBeInTheDocument();
    expect(screen.queryByTestId('read-only-note')).not.toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'À délivrer' }));
    const row = await screen.findByTestId('to-dispense-row');
    expect(within(row).getByText(PATIENT.full_name)).toBeInTheDocument();
    expect(within(row).getByTestId('allergy-badge')).toHaveTextContent('Pénicilline');
    // Signed despite the allergy: the pharmacist sees it before opening the prescription.
    expect(within(row).getByText('Allergie : passée outre')).toBeInTheDocument();
    expect(within(row).getByRole('link', { name: 'Délivrer' })).toBeInTheDocument();
  });

  it('shows the stock but no write action to someone who is not a member', async () => {
    const user = userEvent.setup();
    renderApp('/pharmacy?tab=stock', { user: nurse, routes: routes(false) });
    const table = await screen.findByTestId('stock-panel', {}, { timeout: 15_000 });
    await within(table).findByText('Paracétamol');
    expect(screen.getByTestId('read-only-note')).toBeInTheDocument();
    expect(within(table).getAllByRole('button', { name: 'Lots' })).toHaveLength(2);
    expect(within(table).queryByRole('button', { name: /Modifier le seuil/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: 'Entrée en stock' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'À délivrer' }));
    const row = await screen.findByTestId('to-dispense-row');
    expect(within(row).queryByRole('link', { name: 'Délivrer' })).not.toBeInTheDocument();
  });
});
