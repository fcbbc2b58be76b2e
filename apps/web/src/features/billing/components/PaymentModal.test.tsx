import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { tenderShort, xof } from '../../../test/cash-tendered';
import { stubDesktopWidth } from '../../../test/media-query';
import { type MockRequest, renderApp } from '../../../test/render';
import {
  cashier,
  departments,
  INVOICE_ID,
  invoice,
  invoiceDetail,
  page,
  RECEIPT_ID,
  receipt,
  session,
} from '../billing.fixture';

// The cash desk's amount tendered and change due (issue 37, decision 0079), and an invoice partly paid.
beforeEach(() => stubDesktopWidth());
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the cash desk’s amount tendered and change due', () => {
  it('shows the change as the cashier types, refuses what does not cover the amount, sends what was handed over', async () => {
    const sent: MockRequest[] = [];
    renderApp(`/billing/invoices/${INVOICE_ID}`, {
      user: cashier,
      routes: {
        '/api/departments/': () => departments(),
        '/api/cash-sessions/current/': () => Response.json(session()),
        [`/api/invoices/${INVOICE_ID}/`]: () => Response.json(invoiceDetail()),
        '/api/payments/': (r) => {
          sent.push(r);
          return Response.json(receipt(), { status: 201 });
        },
      },
    });
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Encaisser' }, { timeout: 15_000 }));
    const form = await screen.findByTestId('payment-form');
    // Cash by default, the balance proposed; « Montant reçu » opens with « Rendre la monnaie ».
    const tendered = await tenderShort(user, form, '5 000', '7 500 F CFA');
    expect(sent).toHaveLength(0);

    await user.clear(tendered);
    await user.type(tendered, '10 000');
    expect(within(form).getByTestId('change-due')).toHaveTextContent(xof('^Monnaie à rendre : 2 500 F CFA$'));
    expect(within(form).queryByTestId('tendered-short')).toBeNull();
    await user.click(within(form).getByRole('button', { name: 'Encaisser' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]?.body).toMatchObject({ method: 'cash', amount: 7500, amount_tendered: 10000 });
    // After saving, the server's figures.
    expect(await screen.findByTestId('payment-change')).toHaveTextContent(
      xof('Montant reçu : 10 000 F CFA — monnaie rendue : 2 500 F CFA.'),
    );
  }, 60_000);

  it('sends no amount tendered for another method, nor in cash without « Rendre la monnaie »', async () => {
    const sent: MockRequest[] = [];
    renderApp(`/billing/invoices/${INVOICE_ID}`, {
      user: cashier,
      routes: {
        '/api/departments/': () => departments(),
        '/api/cash-sessions/current/': () => Response.json(session()),
        [`/api/invoices/${INVOICE_ID}/`]: () => Response.json(invoiceDetail()),
        '/api/payments/': (r) => {
          sent.push(r);
          return Response.json(receipt({ amount_tendered: null, change_due: null }), { status: 201 });
        },
      },
    });
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Encaisser' }, { timeout: 15_000 }));
    const form = await screen.findByTestId('payment-form');
    await user.click(within(form).getByRole('switch', { name: 'Rendre la monnaie' }));
    await user.type(within(form).getByLabelText('Montant reçu'), '10 000');
    // Card: the switch and the field go, and nothing handed over is sent.
    await user.click(within(form).getByRole('combobox', { name: 'Mode de paiement' }));
    await user.click(await screen.findByRole('option', { name: 'Carte bancaire', hidden: true }));
    expect(within(form).queryByLabelText('Montant reçu')).toBeNull();
    expect(within(form).queryByRole('switch', { name: 'Rendre la monnaie' })).toBeNull();
    await user.click(within(form).getByRole('button', { name: 'Encaisser' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]?.body).toMatchObject({ method: 'card' });
    expect(sent[0]?.body).not.toHaveProperty('amount_tendered');
    expect(await screen.findByTestId('payment-done')).toBeInTheDocument();
    expect(screen.queryByTestId('payment-change')).toBeNull();
  }, 60_000);

  it.each([
    ['payment', false],
    ['deposit on admission', true],
  ])('prints « Montant reçu » and « Monnaie rendue » on the receipt of a cash %s', async (_, is_deposit) => {
    renderApp(`/billing/receipts/${RECEIPT_ID}`, {
      user: cashier,
      routes: { [`/api/receipts/${RECEIPT_ID}/`]: () => Response.json(receipt({ is_deposit })) },
    });
    const printed = await screen.findByTestId('receipt', {}, { timeout: 15_000 });
    expect(within(printed).getByText('Montant encaissé')).toBeInTheDocument();
    expect(within(printed).getByTestId('receipt-amount')).toHaveTextContent(xof('^7 500 F CFA$'));
    expect(within(printed).getByText('Montant reçu')).toBeInTheDocument();
    expect(within(printed).getByTestId('receipt-tendered')).toHaveTextContent(xof('^10 000 F CFA$'));
    expect(within(printed).getByText('Monnaie rendue')).toBeInTheDocument();
    expect(within(printed).getByTestId('receipt-change')).toHaveTextContent(xof('^2 500 F CFA$'));
  });

  it('a receipt without an amount tendered keeps its one « Montant reçu » line', async () => {
    renderApp(`/billing/receipts/${RECEIPT_ID}`, {
      user: cashier,
      routes: {
        [`/api/receipts/${RECEIPT_ID}/`]: () =>
          Response.json(receipt({ amount_tendered: null, change_due: null })),
      },
    });
    const printed = await screen.findByTestId('receipt', {}, { timeout: 15_000 });
    expect(within(printed).getByText('Montant reçu')).toBeInTheDocument();
    expect(within(printed).queryByText('Monnaie rendue')).toBeNull();
    expect(within(printed).queryByTestId('receipt-tendered')).toBeNull();
  });
});

describe('an invoice partly paid (issue 37)', () => {
  it('reads « Partiellement payée » in the list', async () => {
    renderApp('/billing', {
      user: cashier,
      routes: {
        '/api/departments/': () => departments(),
        '/api/hospitals/h1/': () => Response.json({ id: 'h1', currency: 'XOF' }),
        '/api/invoices/': () => page([invoice()]),
        '/api/cash-sessions/': () => page([session()]),
      },
    });
    const [row] = await screen.findAllByTestId('invoice-row', {}, { timeout: 15_000 });
    // The row's number cell carries the test id; its status is in the same table row.
    expect(within(row!.closest('tr')!).getByTestId('invoice-status')).toHaveTextContent(
      'Partiellement payée',
    );
  });

  it('on the invoice page', async () => {
    renderApp(`/billing/invoices/${INVOICE_ID}`, {
      user: cashier,
      routes: {
        '/api/departments/': () => departments(),
        '/api/cash-sessions/current/': () => Response.json(session()),
        [`/api/invoices/${INVOICE_ID}/`]: () => Response.json(invoiceDetail()),
      },
    });
    expect(await screen.findByTestId('invoice-title', {}, { timeout: 15_000 })).toBeInTheDocument();
    expect(screen.getByTestId('invoice-status')).toHaveTextContent('Partiellement payée');
  });
});
