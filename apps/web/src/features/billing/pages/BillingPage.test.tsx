import type { TInvoiceAssembly } from '@greensen/shared/contracts/billing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubDesktopWidth } from '../../../test/media-query';
import { locationOf, type MockRequest, makeUser, renderApp } from '../../../test/render';
import {
  cashier,
  departments,
  INVOICE_ID,
  invoice,
  invoiceDetail,
  listedPatient,
  page,
  report,
  SESSION_ID,
  session,
} from '../billing.fixture';

beforeEach(() => stubDesktopWidth());
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const headDoctor = makeUser({
  id: 'hd1',
  active_roles: [{ role_code: 'HEAD_DOCTOR', hospital: 'h1', department: 'd1' }],
});
const receptionist = makeUser({
  id: 's1',
  active_roles: [{ role_code: 'SECRETARY', hospital: 'h1', department: 'd1' }],
});

function common(extra: Record<string, (r: MockRequest) => Response> = {}) {
  return {
    '/api/departments/': () => departments(),
    '/api/hospitals/h1/': () => Response.json({ id: 'h1', currency: 'XOF' }),
    '/api/invoices/': () =>
      page([invoice(), invoice({ id: 'i2', number: null, status: 'draft', balance: 0 })]),
    '/api/cash-sessions/': () => page([session()]),
    ...extra,
  };
}

/** "12 500 F CFA" whatever the spaces Intl puts (narrow no-break, no-break). */
const xof = (text: string) => new RegExp(text.replace(/ /g, '\\s'));

describe('/billing', () => {
  it('lists the invoices with their shares and balance in FCFA; the cashier may invoice a visit', async () => {
    renderApp('/billing', { user: cashier, routes: common() });
    const rows = await screen.findAllByTestId('invoice-row', {}, { timeout: 15_000 });
    expect(rows).toHaveLength(2);
    expect(screen.getByText('FAC-HGG-2026-000042')).toBeInTheDocument();
    expect(screen.getAllByText(xof('^62 500 F CFA$'))).toHaveLength(2);
    expect(screen.getAllByText(xof('^12 500 F CFA$'))).toHaveLength(2);
    // The balance of the issued invoice only (a draft owes nothing yet).
    expect(screen.getAllByText(xof('^7 500 F CFA$'))).toHaveLength(1);
    expect(screen.getByText('Brouillon', { selector: 'p' })).toBeInTheDocument();
    expect(screen.getAllByText('HGG-2026-00017 · Ascoma Assurances')).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'Facturer une visite' })).toBeInTheDocument();
  });

  it('invoices a visit: the assembly answers the draft’s summary, the invoice page reads its lines', async () => {
    const VISIT = '0190f0f0-7777-7222-8333-444455550001';
    const draft = invoiceDetail({ number: null, status: 'draft', issued_at: null, issued_by: null });
    const summary: TInvoiceAssembly = {
      ...invoice({ number: null, status: 'draft', issued_at: null }),
      line_count: 1,
      added_lines: 1,
      // A dispensed medicine with no act in the catalogue: known only to the assembly.
      unpriced: [{ performed_act: null, label: 'Cotrimoxazole 400 mg/80 mg', reason: 'no_act' }],
    };
    const sent: unknown[] = [];
    const { router } = renderApp('/billing', {
      user: cashier,
      routes: common({
        '/api/patients/': () => page([listedPatient]),
        // The cash desk's own read of the visits (decision 0088).
        '/api/invoices/visits/': () =>
          page([
            {
              id: VISIT,
              admitted_at: '2026-03-04T09:00:00Z',
              department: 'Urgences',
              status: 'completed',
              invoice: null,
            },
          ]),
        '/api/invoices/assemble/': (r) => {
          sent.push(r.body);
          return Response.json(summary, { status: 201 });
        },
        [`/api/invoices/${INVOICE_ID}/`]: () => Response.json(draft),
      }),
    });
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Facturer une visite' }, { timeout: 15_000 }));
    const dialog = await screen.findByRole('dialog');
    /** Picks an option of one of the modal's selects (their lists are portaled out of the dialog). */
    const pick = async (select: HTMLElement, name: RegExp) => {
      await user.click(select);
      await waitFor(() => expect(select).toHaveAttribute('aria-controls'));
      const listbox = document.getElementById(select.getAttribute('aria-controls') ?? '') as HTMLElement;
      await user.click(await within(listbox).findByRole('option', { name, hidden: true }));
    };
    const patient = within(dialog).getByRole('combobox', { name: /^Patient/ });
    await user.type(patient, 'aic');
    await pick(patient, /Aïcha Traoré/);
    await pick(within(dialog).getByRole('combobox', { name: /^Visite/ }), /Urgences/);
    await user.click(within(dialog).getByRole('button', { name: 'Préparer la facture' }));
    await waitFor(() => expect(locationOf(router)).toBe(`/billing/invoices/${INVOICE_ID}`));
    expect(sent).toEqual([{ admission: VISIT }]);
    // The lines come from the invoice's own read, not from the assembly's answer.
    expect(await screen.findByText('CONS-GEN', {}, { timeout: 15_000 })).toBeInTheDocument();
    // What the assembly could not price is on the page, with its reason in words.
    expect(screen.getByText("Cotrimoxazole 400 mg/80 mg — pas d'acte au catalogue")).toBeInTheDocument();
  });

  it('says when there is no invoice, and shows a load failure with "Réessayer"', async () => {
    let fail = true;
    renderApp('/billing', {
      user: cashier,
      routes: common({
        '/api/invoices/': () => (fail ? Response.json({ detail: 'Panne' }, { status: 500 }) : page([])),
      }),
    });
    expect(
      await screen.findByText('Impossible de charger les données', {}, { timeout: 15_000 }),
    ).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Réessayer' }));
    expect(await screen.findByText('Aucune facture pour le moment.')).toBeInTheDocument();
  });

  it('searches by number (debounced), from the first page', async () => {
    const asked: URLSearchParams[] = [];
    renderApp('/billing', {
      user: cashier,
      routes: common({
        '/api/invoices/': (r) => {
          asked.push(r.url.searchParams);
          return page([invoice()]);
        },
      }),
    });
    await screen.findAllByTestId('invoice-row', {}, { timeout: 15_000 });
    await userEvent.type(screen.getByLabelText('Numéro'), '000042');
    await waitFor(() => expect(asked.at(-1)?.get('number')).toBe('000042'));
    expect(asked.at(-1)?.get('page')).toBe('1');
  });

  it('the head doctor reads the invoices and every cash session but neither invoices a visit nor opens a cash desk', async () => {
    const { router } = renderApp('/billing', { user: headDoctor, routes: common() });
    await screen.findAllByTestId('invoice-row', {}, { timeout: 15_000 });
    expect(screen.queryByRole('button', { name: 'Facturer une visite' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('tab', { name: 'Caisse' }));
    expect(await screen.findByText('Sessions de caisse')).toBeInTheDocument();
    expect(screen.queryByTestId('open-session')).not.toBeInTheDocument();
    expect(await screen.findByText('Mariam Koné')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?tab=cash');
  });

  it('a secretary outside the billing departments is told so, and nothing is asked of the API', async () => {
    const { fetchMock } = renderApp('/billing', { user: receptionist, routes: common() });
    expect(await screen.findByTestId('billing-not-staff', {}, { timeout: 15_000 })).toBeInTheDocument();
    const paths = fetchMock.mock.calls.map(([input]) => new URL(String(input), 'http://localhost').pathname);
    expect(paths).not.toContain('/api/invoices/');
  });

  it('the cashier opens the cash desk with a float typed with spaces', async () => {
    const opened: MockRequest[] = [];
    renderApp('/billing?tab=cash', {
      user: cashier,
      routes: common({
        '/api/cash-sessions/current/': () =>
          Response.json({ detail: 'Aucune caisse ouverte' }, { status: 404 }),
        '/api/cash-sessions/': (r) => {
          if (r.method === 'POST') {
            opened.push(r);
            return Response.json(session(), { status: 201 });
          }
          return page([]);
        },
      }),
    });
    const form = await screen.findByTestId('open-session', {}, { timeout: 15_000 });
    await userEvent.type(within(form).getByLabelText('Fond de caisse (XOF)'), '50 000');
    await userEvent.click(within(form).getByRole('button', { name: 'Ouvrir la caisse' }));
    await waitFor(() => expect(opened).toHaveLength(1));
    expect(opened[0]?.body).toEqual({ floats: [{ currency: 'XOF', amount: 50000 }] });
  });

  it('closes the open session with a blind count, then shows the variance per currency and the totals per method', async () => {
    const closed: MockRequest[] = [];
    let isClosed = false;
    renderApp('/billing?tab=cash', {
      user: cashier,
      routes: common({
        '/api/cash-sessions/current/': () =>
          isClosed ? Response.json({ detail: 'none' }, { status: 404 }) : Response.json(session()),
        [`/api/cash-sessions/${SESSION_ID}/report/`]: () => Response.json(report(isClosed)),
        [`/api/cash-sessions/${SESSION_ID}/close/`]: (r) => {
          closed.push(r);
          isClosed = true;
          return Response.json(report(true));
        },
      }),
    });
    const current = await screen.findByTestId('current-session', {}, { timeout: 15_000 });
    expect(await within(current).findByText('Mobile money · MTN MoMo')).toBeInTheDocument();
    await userEvent.click(within(current).getByRole('button', { name: 'Fermer la caisse' }));
    const form = await screen.findByTestId('close-session-form');
    // Blind count: the expected amount is not shown in the dialog.
    expect(within(form).queryByText(xof('60 000 F CFA'))).not.toBeInTheDocument();
    await userEvent.type(within(form).getByLabelText('Espèces comptées (XOF)'), '59000');
    await userEvent.click(within(form).getByRole('button', { name: 'Fermer la caisse' }));
    await waitFor(() => expect(closed).toHaveLength(1));
    expect(closed[0]?.body).toEqual({ counted: [{ currency: 'XOF', amount: 59000 }], note: null });
    const variance = await screen.findByTestId('variance');
    expect(variance).toHaveTextContent(xof('-1 000 F CFA'));
    expect(screen.getByTestId('open-session')).toBeInTheDocument();
  });
});
