import type { TPaymentSummary } from '@greensen/shared/contracts/billing';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { TestProviders } from '../../../test/render';
import { invoiceDetail } from '../billing.fixture';
import { PaymentsList } from './PaymentsList';

const payment = (overrides: Partial<TPaymentSummary>): TPaymentSummary => ({
  id: '0190f0f0-aaaa-7222-8333-444455550001',
  kind: 'payment',
  method: 'cash',
  operator: null,
  currency: 'XOF',
  amount: 5000,
  rate: null,
  amount_invoice_currency: 5000,
  reference: null,
  is_deposit: false,
  receipt: { id: '0190f0f0-bbbb-7222-8333-444455550001', number: 'REC-HGG-2026-000007' },
  received_by: { id: '0190f0f0-cccc-7222-8333-444455550001', full_name: 'Mariam Koné' },
  received_at: '2026-03-04T12:00:00Z',
  ...overrides,
});

const cash = payment({});
const momo = payment({
  id: '0190f0f0-aaaa-7222-8333-444455550002',
  method: 'mobile_money',
  operator: 'mtn_momo',
  amount: 7500,
  amount_invoice_currency: 7500,
  reference: 'MP240304.1200.A1',
  receipt: { id: '0190f0f0-bbbb-7222-8333-444455550002', number: 'REC-HGG-2026-000008' },
});
const refund = payment({
  id: '0190f0f0-aaaa-7222-8333-444455550003',
  kind: 'refund',
  amount: -1000,
  amount_invoice_currency: -1000,
  receipt: { id: '0190f0f0-bbbb-7222-8333-444455550003', number: 'REC-HGG-2026-000009' },
});

function show(canRefund: boolean, onRefund = vi.fn()) {
  render(
    <TestProviders>
      <MemoryRouter>
        <PaymentsList
          invoice={invoiceDetail({ payments: [cash, momo, refund] })}
          canRefund={canRefund}
          onRefund={onRefund}
        />
      </MemoryRouter>
    </TestProviders>,
  );
  return screen.getAllByTestId('payment-row');
}

describe('an invoice’s payments', () => {
  it('shows a mobile-money payment’s operator with its reference in the method’s cell, and none for cash', () => {
    const [cashRow, momoRow] = show(false);
    const momoMethod = within(momoRow!).getByText('MP240304.1200.A1').closest('td');
    expect(momoMethod).toHaveTextContent(/MTN MoMo/);
    expect(within(cashRow!).queryByText(/MP/)).toBeNull();
    // Four columns: receipt, method and reference, amount, cashier (no refund column without the right).
    expect(within(momoRow!).getAllByRole('cell')).toHaveLength(4);
    expect(screen.queryByRole('button', { name: /Rembourser/ })).toBeNull();
  });

  it('offers the refund of a payment, never of a refund, to billing staff', async () => {
    const onRefund = vi.fn();
    const [cashRow, momoRow, refundRow] = show(true, onRefund);
    expect(within(refundRow!).queryByRole('button', { name: /Rembourser/ })).toBeNull();
    expect(within(cashRow!).getByRole('button', { name: /Rembourser/ })).toBeInTheDocument();
    await userEvent.click(within(momoRow!).getByRole('button', { name: /Rembourser/ }));
    expect(onRefund).toHaveBeenCalledWith(momo);
  });
});
