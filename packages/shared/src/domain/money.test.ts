import { describe, expect, it } from 'vitest';
import {
  convertMinor,
  currencyExponent,
  formatMoney,
  lineGross,
  minorToDecimal,
  parseMoney,
  percentOf,
  splitShare,
} from './money.js';

describe('currency exponents (ISO 4217)', () => {
  it('has none for the CFA francs and the Guinean franc, two for the euro, the dollar, the cedi, the naira, the Congolese franc', () => {
    expect(['XOF', 'XAF', 'GNF'].map(currencyExponent)).toEqual([0, 0, 0]);
    expect(['EUR', 'USD', 'GHS', 'NGN', 'CDF', 'eur'].map(currencyExponent)).toEqual([2, 2, 2, 2, 2, 2]);
    expect(currencyExponent('ZZZ')).toBe(2);
  });
});

describe('convertMinor (the rate of the day, rounded half away from zero)', () => {
  it('converts euros into CFA francs at the fixed parity', () => {
    // 10.00 € × 655.957 = 6 559.57 F CFA → 6 560
    expect(convertMinor(1000, 'EUR', '655.957', 'XOF')).toBe(6560);
    // 0.01 € × 655.957 = 6.55957 → 7
    expect(convertMinor(1, 'EUR', '655.957', 'XOF')).toBe(7);
    // 12.34 € → 8 094.50938 → 8 095
    expect(convertMinor(1234, 'EUR', '655.957', 'XOF')).toBe(8095);
  });
  it('converts CFA francs into euros, half a cent rounding away from zero', () => {
    // 1 000 F CFA × 0.0015 = 1.5 € → 150 cents
    expect(convertMinor(1000, 'XOF', '0.0015', 'EUR')).toBe(150);
    // 1 F CFA × 0.005 = 0.005 € = half a cent → 1 cent; refunds mirror it
    expect(convertMinor(1, 'XOF', '0.005', 'EUR')).toBe(1);
    expect(convertMinor(-1, 'XOF', '0.005', 'EUR')).toBe(-1);
    // 3 F CFA × 0.001524 = 0.004572 € → 0 cents
    expect(convertMinor(3, 'XOF', '0.001524', 'EUR')).toBe(0);
  });
  it('keeps the amount in the same currency and refuses a bad rate', () => {
    expect(convertMinor(1500, 'XOF', '1', 'XOF')).toBe(1500);
    expect(() => convertMinor(100, 'EUR', '0', 'XOF')).toThrow(RangeError);
    expect(() => convertMinor(100, 'EUR', '1e3', 'XOF')).toThrow(RangeError);
    expect(() => convertMinor(1.5, 'EUR', '2', 'XOF')).toThrow(RangeError);
  });
});

describe('splitShare (payer share rounded down, capped by the ceiling)', () => {
  it('gives the insurer 80 % rounded down and the patient the rest', () => {
    expect(splitShare(1999, 80, null)).toEqual({ payer: 1599, patient: 400 });
    expect(splitShare(5000, 80, null)).toEqual({ payer: 4000, patient: 1000 });
    // Euro cents: 12.35 € at 80 % = 9.88 €
    expect(splitShare(1235, 80, null)).toEqual({ payer: 988, patient: 247 });
  });
  it('caps the payer share by what remains of the ceiling', () => {
    expect(splitShare(50_000, 80, 25_000)).toEqual({ payer: 25_000, patient: 25_000 });
    expect(splitShare(50_000, 80, 0)).toEqual({ payer: 0, patient: 50_000 });
    expect(splitShare(50_000, 80, -5)).toEqual({ payer: 0, patient: 50_000 });
  });
  it('covers everything at 100 % and nothing at 0 %', () => {
    expect(splitShare(3500, 100, null)).toEqual({ payer: 3500, patient: 0 });
    expect(splitShare(3500, 0, null)).toEqual({ payer: 0, patient: 3500 });
    expect(() => splitShare(100, 101, null)).toThrow(RangeError);
    expect(() => splitShare(-1, 50, null)).toThrow(RangeError);
  });
});

describe('line amounts', () => {
  it('multiplies in integers and rounds percent discounts half away from zero', () => {
    expect(lineGross(2500, 3)).toBe(7500);
    expect(percentOf(1005, 10)).toBe(101); // 100.5 → 101
    expect(percentOf(1004, 10)).toBe(100);
    expect(() => lineGross(Number.MAX_SAFE_INTEGER, 2)).toThrow(RangeError);
  });
});

describe('parsing and formatting', () => {
  it('parses what people type, with the currency’s decimals only', () => {
    expect(parseMoney('1 500', 'XOF')).toBe(1500);
    expect(parseMoney('1500,5', 'XOF')).toBeNull();
    expect(parseMoney('12,5', 'EUR')).toBe(1250);
    expect(parseMoney('12.50', 'EUR')).toBe(1250);
    expect(parseMoney('12.505', 'EUR')).toBeNull();
    expect(parseMoney('abc', 'EUR')).toBeNull();
    expect(parseMoney('-3', 'XOF')).toBe(-3);
  });
  it('writes the decimal form and formats for French and English', () => {
    expect(minorToDecimal(1250, 'EUR')).toBe('12.50');
    expect(minorToDecimal(5, 'EUR')).toBe('0.05');
    expect(minorToDecimal(-5, 'EUR')).toBe('-0.05');
    expect(minorToDecimal(1500, 'XOF')).toBe('1500');
    const norm = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');
    expect(norm(formatMoney(1500, 'XOF', 'fr'))).toBe('1 500 F CFA');
    expect(norm(formatMoney(1250, 'EUR', 'fr'))).toBe('12,50 €');
    expect(formatMoney(1250, 'EUR', 'en')).toBe('€12.50');
    expect(formatMoney(9_007_199_254_740_991, 'XOF', 'en')).toContain('9,007,199,254,740,991');
  });
});
