import type { TDepositStay, TStayDeposits } from '@greensen/shared/contracts/billing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { xof } from '../../../test/cash-tendered';
import { stubDesktopWidth } from '../../../test/media-query';
import { type MockRequest, makeUser, renderApp } from '../../../test/render';
import {
  departments,
  INVOICE_ID,
  PATIENT_ID,
  page,
  pureCashier,
  RECEIPT_ID,
  receipt,
} from '../billing.fixture';

// The cash desk's Cautions tab (issue 37, decision 0088): a pure cashier finds the open stay and takes its deposit.
beforeEach(() => stubDesktopWidth());
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const STAY = '0190f0f0-8888-7222-8333-444455550001';

const stay: TDepositStay = {
  id: STAY,
  status: 'admitted',
  patient: { id: PATIENT_ID, record_number: 'HGG-000123', full_name: 'Awa Diallo' },
  department: 'Médecine interne',
  requested_at: '2026-12-05T08:00:00Z',
  admitted_at: '2026-12-05T09:00:00Z',
};

const noDeposit: TStayDeposits = {
  hospitalization: STAY,
  currency: 'XOF',
  invoice: null,
  deposits: [],
  total: 0,
};

function routes(
  stays: (r: MockRequest) => Response,
  extra: Record<string, (r: MockRequest) => Response> = {},
) {
  return {
    '/api/departments/': () => departments(),
    '/api/hospitals/h1/': () => Response.json({ id: 'h1', currency: 'XOF' }),
    '/api/deposits/stays/': stays,
    ...extra,
  };
}

const open = (
  stays: (r: MockRequest) => Response,
  extra: Record<string, (r: MockRequest) => Response> = {},
) => renderApp('/billing?tab=deposits', { user: pureCashier, routes: routes(stays, extra) });

describe('the cash desk’s deposits (Cautions)', () => {
  it('shows the loading state, then says when no stay is open', async () => {
    // Every request waits until the test answers (the hospital's arrival may ask twice).
    const waiting: ((r: Response) => void)[] = [];
    let released = false;
    open(() =>
      released
        ? page([])
        : (new Promise<Response>((resolve) => waiting.push(resolve)) as unknown as Response),
    );
    const desk = await screen.findByTestId('deposits-desk', {}, { timeout: 15_000 });
    await waitFor(() => expect(desk.querySelector('.mantine-datatable-loader-fetching')).not.toBeNull());
    // The table's empty state waits for the answer.
    expect(desk.querySelector('.mantine-datatable-empty-state[data-active]')).toBeNull();
    released = true;
    for (const answer of waiting) answer(page([]));
    await waitFor(() => expect(desk.querySelector('.mantine-datatable-loader-fetching')).toBeNull());
    expect(desk.querySelector('.mantine-datatable-empty-state[data-active]')).toHaveTextContent(
      'Aucun séjour en cours.',
    );
  }, 40_000);

  it('shows a load failure with « Réessayer »', async () => {
    let fail = true;
    open(() => (fail ? Response.json({ detail: 'Panne' }, { status: 500 }) : page([stay])));
    expect(
      await screen.findByText('Impossible de charger les données', {}, { timeout: 15_000 }),
    ).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Réessayer' }));
    expect(await screen.findByTestId('deposit-stay-row')).toHaveTextContent('Awa Diallo');
  });

  it('searches the open stays by name or record number (debounced, from the first page)', async () => {
    const asked: URLSearchParams[] = [];
    open((r) => {
      asked.push(r.url.searchParams);
      return page(r.url.searchParams.get('search') === 'zz' ? [] : [stay]);
    });
    const row = await screen.findByTestId('deposit-stay-row', {}, { timeout: 15_000 });
    expect(row).toHaveTextContent('Awa Diallo');
    expect(row).toHaveTextContent('HGG-000123');
    expect(screen.getByText('Médecine interne')).toBeInTheDocument();
    expect(screen.getByText('05/12/2026')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Patient'), 'HGG-000123');
    await waitFor(() => expect(asked.at(-1)?.get('search')).toBe('HGG-000123'));
    expect(asked.at(-1)?.get('page')).toBe('1');
    await userEvent.clear(screen.getByLabelText('Patient'));
    await userEvent.type(screen.getByLabelText('Patient'), 'zz');
    expect(await screen.findByText('Aucun séjour en cours pour cette recherche.')).toBeInTheDocument();
  });

  it('opens the stay’s deposits and takes one with the stay’s own form, then offers its receipt', async () => {
    const sent: MockRequest[] = [];
    const taken = receipt(
      { is_deposit: true, amount: 50000, amount_invoice_currency: 50000 },
      {
        stay: {
          id: STAY,
          department: stay.department,
          requested_at: stay.requested_at,
          admitted_at: stay.admitted_at,
        },
      },
    );
    open(() => page([stay]), {
      [`/api/hospitalizations/${STAY}/deposits/`]: (r) => {
        sent.push(r);
        return r.method === 'POST' ? Response.json(taken, { status: 201 }) : Response.json(noDeposit);
      },
      [`/api/receipts/${RECEIPT_ID}/`]: () => Response.json(taken),
    });
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId('deposit-stay-row', {}, { timeout: 15_000 }));
    const chosen = await screen.findByTestId('deposit-stay-chosen');
    expect(chosen).toHaveTextContent('HGG-000123 · Médecine interne · séjour du 05/12/2026');
    expect(await within(chosen).findByText('Aucune caution versée pour ce séjour.')).toBeInTheDocument();
    await user.click(within(chosen).getByRole('button', { name: 'Encaisser une caution' }));
    const form = await screen.findByTestId('deposit-form');
    await user.type(within(form).getByRole('textbox', { name: /Montant/ }), '50 000');
    await user.click(within(form).getByRole('button', { name: 'Encaisser' }));
    const done = await screen.findByTestId('deposit-done');
    expect(done).toHaveTextContent('REC-HGG-2026-000009');
    const post = sent.find((s) => s.method === 'POST')!;
    expect(post.body).toMatchObject({ method: 'cash', amount: 50000 });
    const print = within(done).getByRole('link', { name: 'Imprimer le reçu' });
    expect(print).toHaveAttribute('href', `/billing/receipts/${RECEIPT_ID}`);
    // « Imprimer le reçu » opens the deposit's receipt.
    await user.click(print);
    expect(await screen.findByText('REÇU DE CAUTION', {}, { timeout: 15_000 })).toBeInTheDocument();
  }, 60_000);

  it('shows the deposits but no « Encaisser une caution » to the management outside the cash desk', async () => {
    renderApp('/billing?tab=deposits', {
      user: makeUser({
        id: 'a1',
        active_roles: [{ role_code: 'ADMIN', hospital: 'h1', department: 'd1' }],
      }),
      routes: routes(() => page([stay]), {
        [`/api/hospitalizations/${STAY}/deposits/`]: () => Response.json(noDeposit),
      }),
    });
    await userEvent.click(await screen.findByTestId('deposit-stay-row', {}, { timeout: 15_000 }));
    expect(await screen.findByText('Aucune caution versée pour ce séjour.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Encaisser une caution' })).toBeNull();
  });
});

describe('a deposit’s receipt (issue 37, decision 0088)', () => {
  const deposit = receipt(
    {
      is_deposit: true,
      amount: 50000,
      amount_invoice_currency: 50000,
      amount_tendered: null,
      change_due: null,
    },
    {
      invoice: {
        id: INVOICE_ID,
        number: null,
        currency: 'XOF',
        patient_share: 25000,
        paid: 50000,
        balance: -25000,
      },
      stay: {
        id: STAY,
        department: 'Médecine interne',
        requested_at: stay.requested_at,
        admitted_at: stay.admitted_at,
      },
    },
  );

  it('reads « Reçu de caution », names the stay and shows the credit « En faveur du patient »', async () => {
    renderApp(`/billing/receipts/${RECEIPT_ID}`, {
      user: pureCashier,
      routes: { [`/api/receipts/${RECEIPT_ID}/`]: () => Response.json(deposit) },
    });
    const printed = await screen.findByTestId('receipt', {}, { timeout: 15_000 });
    expect(within(printed).getByText('REÇU DE CAUTION')).toBeInTheDocument();
    expect(within(printed).queryByText('REÇU DE PAIEMENT')).toBeNull();
    expect(within(printed).getByText('Séjour')).toBeInTheDocument();
    expect(within(printed).getByTestId('receipt-stay')).toHaveTextContent(
      'Médecine interne, admis le 05/12/2026',
    );
    expect(within(printed).queryByText('Facture')).toBeNull();
    expect(within(printed).getByText('En faveur du patient')).toBeInTheDocument();
    expect(within(printed).getByTestId('receipt-balance')).toHaveTextContent(xof('^25 000 F CFA$'));
    expect(within(printed).queryByText('Reste à payer')).toBeNull();
  });

  it('in English', async () => {
    renderApp(`/en/billing/receipts/${RECEIPT_ID}`, {
      user: pureCashier,
      routes: { [`/api/receipts/${RECEIPT_ID}/`]: () => Response.json(deposit) },
    });
    const printed = await screen.findByTestId('receipt', {}, { timeout: 15_000 });
    expect(within(printed).getByText('DEPOSIT RECEIPT')).toBeInTheDocument();
    expect(within(printed).getByText('Stay')).toBeInTheDocument();
    expect(within(printed).getByTestId('receipt-stay')).toHaveTextContent('Médecine interne, admitted on');
    expect(within(printed).getByText('In favour of the patient')).toBeInTheDocument();
  });

  it('a deposit’s refund reads « Reçu de remboursement de caution » and names the stay, not « Facture — »', async () => {
    const refund = {
      ...deposit,
      payment: { ...deposit.payment, kind: 'refund', is_deposit: false, amount: -10000, reason: 'Sortie' },
      invoice: { ...deposit.invoice, paid: 40000, balance: -15000 },
    };
    renderApp(`/billing/receipts/${RECEIPT_ID}`, {
      user: pureCashier,
      routes: { [`/api/receipts/${RECEIPT_ID}/`]: () => Response.json(refund) },
    });
    const printed = await screen.findByTestId('receipt', {}, { timeout: 15_000 });
    expect(within(printed).getByText('REÇU DE REMBOURSEMENT DE CAUTION')).toBeInTheDocument();
    expect(within(printed).getByTestId('receipt-stay')).toHaveTextContent(
      'Médecine interne, admis le 05/12/2026',
    );
    expect(within(printed).queryByText('Facture')).toBeNull();
    expect(within(printed).getByText('Montant remboursé')).toBeInTheDocument();
    expect(within(printed).getByTestId('receipt-amount')).toHaveTextContent(xof('^10 000 F CFA$'));
    expect(within(printed).getByTestId('receipt-balance')).toHaveTextContent(xof('^15 000 F CFA$'));
  });

  it('a payment’s receipt is unchanged: « Reçu de paiement », its invoice and « Reste à payer »', async () => {
    renderApp(`/billing/receipts/${RECEIPT_ID}`, {
      user: pureCashier,
      routes: { [`/api/receipts/${RECEIPT_ID}/`]: () => Response.json(receipt()) },
    });
    const printed = await screen.findByTestId('receipt', {}, { timeout: 15_000 });
    expect(within(printed).getByText('REÇU DE PAIEMENT')).toBeInTheDocument();
    expect(within(printed).getByText('FAC-HGG-2026-000042')).toBeInTheDocument();
    expect(within(printed).queryByTestId('receipt-stay')).toBeNull();
    expect(within(printed).getByText('Reste à payer')).toBeInTheDocument();
  });
});
