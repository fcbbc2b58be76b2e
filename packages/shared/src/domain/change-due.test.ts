import { describe, expect, it } from 'vitest';
import { ZDepositCreate, ZPaymentCreate } from '../contracts/billing.js';
import { changeDue } from './money.js';

// The change due at the cash desk (issue 37, decision 0079).
const invoice = '0190f0f0-2222-7222-8333-444455550001';
const messages = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  r.error?.issues.map((i) => `${i.path.join('.')}:${i.message}`) ?? [];

describe('changeDue', () => {
  it('is what was handed over less the amount, none when it does not cover it or nothing was handed over', () => {
    expect(changeDue(3_500, 5_000)).toBe(1_500);
    expect(changeDue(3_500, 3_500)).toBe(0);
    expect(changeDue(3_500, 3_499)).toBeNull();
    expect(changeDue(3_500, null)).toBeNull();
    expect(changeDue(3_500, undefined)).toBeNull();
  });
});

describe('a payment’s amount tendered', () => {
  it('is accepted in cash when it covers the amount', () => {
    expect(
      ZPaymentCreate.parse({ invoice, method: 'cash', amount: 3_500, amount_tendered: 5_000 })
        .amount_tendered,
    ).toBe(5_000);
    expect(ZDepositCreate.safeParse({ method: 'cash', amount: 3_500, amount_tendered: 3_500 }).success).toBe(
      true,
    );
  });

  it('is refused below the amount, and with any other method', () => {
    expect(
      messages(ZPaymentCreate.safeParse({ invoice, method: 'cash', amount: 3_500, amount_tendered: 3_000 })),
    ).toEqual(['amount_tendered:billing.tendered_short']);
    expect(
      messages(
        ZPaymentCreate.safeParse({
          invoice,
          method: 'cheque',
          amount: 3_500,
          amount_tendered: 5_000,
          reference: 'CHQ-1',
        }),
      ),
    ).toEqual(['amount_tendered:billing.tendered_cash_only']);
    expect(ZDepositCreate.safeParse({ method: 'card', amount: 3_500, amount_tendered: 5_000 }).success).toBe(
      false,
    );
  });
});
