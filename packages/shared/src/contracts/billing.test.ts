import { describe, expect, it } from 'vitest';
import { documentNumber, ZCashSessionOpen, ZInvoiceAssemble, ZPaymentCreate } from './billing.js';
import { ZPerformedActCreate, ZTariffCreate } from './medical-acts.js';

const invoice = '01890000-0000-7000-8000-000000000001';

describe('billing contracts', () => {
  it('numbers invoices, credit notes and receipts per hospital and year on six digits', () => {
    expect(documentNumber('FAC', 'HGG', 2026, 123)).toBe('FAC-HGG-2026-000123');
    expect(documentNumber('AV', 'HGG', 2026, 1)).toBe('AV-HGG-2026-000001');
  });

  it('requires the operator, the phone and the reference of a mobile-money payment', () => {
    const r = ZPaymentCreate.safeParse({ invoice, method: 'mobile_money', amount: 1000 });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.path[0]).sort()).toEqual(['operator', 'phone', 'reference']);
    const ok = ZPaymentCreate.parse({
      invoice,
      method: 'mobile_money',
      amount: 1000,
      operator: 'mtn_momo',
      phone: '+225 07 00 00 00',
      reference: 'MP2611.1234.A',
    });
    expect(ok.operator).toBe('mtn_momo');
    expect(
      ZPaymentCreate.safeParse({ invoice, method: 'cash', amount: 1000, operator: 'wave' }).success,
    ).toBe(false);
  });

  it('refuses float amounts, zero payments, bad rates and unknown fields', () => {
    expect(ZPaymentCreate.safeParse({ invoice, method: 'cash', amount: 10.5 }).success).toBe(false);
    expect(ZPaymentCreate.safeParse({ invoice, method: 'cash', amount: 0 }).success).toBe(false);
    expect(ZPaymentCreate.safeParse({ invoice, method: 'cash', amount: 5, rate: '1e3' }).success).toBe(false);
    expect(ZPaymentCreate.safeParse({ invoice, method: 'cash', amount: 5, cashier: invoice }).success).toBe(
      false,
    );
    expect(
      ZPaymentCreate.parse({ invoice, method: 'cash', amount: 5, currency: 'eur', rate: '655.957' }).currency,
    ).toBe('EUR');
  });

  it('wants exactly one of a visit or a stay', () => {
    expect(ZInvoiceAssemble.safeParse({}).success).toBe(false);
    expect(ZInvoiceAssemble.safeParse({ admission: invoice, hospitalization: invoice }).success).toBe(false);
    expect(ZInvoiceAssemble.safeParse({ hospitalization: invoice }).success).toBe(true);
    expect(ZPerformedActCreate.safeParse({ act: invoice }).success).toBe(false);
  });

  it('refuses a currency counted twice and a tariff ending before it starts', () => {
    const floats = [
      { currency: 'XOF', amount: 10_000 },
      { currency: 'xof', amount: 5 },
    ];
    expect(ZCashSessionOpen.safeParse({ floats }).success).toBe(false);
    expect(
      ZTariffCreate.safeParse({
        payer_category: 'private',
        price: 1000,
        valid_from: '2026-02-01',
        valid_to: '2026-01-31',
      }).success,
    ).toBe(false);
  });
});
