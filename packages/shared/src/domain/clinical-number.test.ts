import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decimalSeparatorOf, formatClinicalNumber, parseClinicalNumber } from './clinical-number';

const LOCALES = ['fr', 'en'] as const;
const locale = fc.constantFrom(...LOCALES);
/** A number with at most `maxDecimals` decimals, as a clinician would type one: k / 10^d. */
const decimalNumber = (maxAbs: number, maxDecimals: number) =>
  fc
    .tuple(fc.integer({ min: 0, max: maxDecimals }), fc.integer({ min: -maxAbs, max: maxAbs }))
    .map(([d, k]) => ({ value: k / 10 ** d, decimals: d }));
const swapSeparator = (text: string) => text.replace(/[.,]/, (s) => (s === ',' ? '.' : ','));

describe('a clinical number read and written (issue 34, item 8)', () => {
  it('reads the examples of the issue in both languages, typed either way', () => {
    for (const lang of LOCALES) {
      expect(parseClinicalNumber('62,5', lang)).toEqual({ ok: true, value: 62.5 });
      expect(parseClinicalNumber('62.5', lang)).toEqual({ ok: true, value: 62.5 });
      expect(parseClinicalNumber('8,5', lang)).toEqual({ ok: true, value: 8.5 });
      expect(parseClinicalNumber(' 39,4 ', lang)).toEqual({ ok: true, value: 39.4 });
      expect(parseClinicalNumber(',5', lang)).toEqual({ ok: true, value: 0.5 });
      expect(parseClinicalNumber('1 250', lang)).toEqual({ ok: true, value: 1250 });
      expect(parseClinicalNumber('1\u202f250,5', lang)).toEqual({ ok: true, value: 1250.5 });
      expect(parseClinicalNumber('', lang)).toEqual({ ok: true, value: null });
      expect(parseClinicalNumber('   ', lang)).toEqual({ ok: true, value: null });
    }
    expect(formatClinicalNumber(62.5, 'fr')).toBe('62,5');
    expect(formatClinicalNumber(62.5, 'en')).toBe('62.5');
    expect(formatClinicalNumber(1.5e-7, 'fr')).toBe('0,00000015');
    expect(formatClinicalNumber(null, 'fr')).toBe('');
    expect(formatClinicalNumber(Number.NaN, 'en')).toBe('');
  });

  it('refuses what it cannot read, and a thousand-or-decimal it would have to guess', () => {
    for (const lang of LOCALES)
      for (const text of [
        '62,5,1',
        '62.5.1',
        '1,2.3',
        'abc',
        '1e5',
        '62,5 kg',
        '-',
        ',',
        '6 2,5',
        '12 34',
        '0x10',
      ])
        expect(parseClinicalNumber(text, lang)).toEqual({ ok: false, error: 'unreadable', value: null });
    expect(parseClinicalNumber('1,250', 'en')).toEqual({ ok: false, error: 'ambiguous', value: null });
    expect(parseClinicalNumber('1.250', 'fr')).toEqual({ ok: false, error: 'ambiguous', value: null });
    // Its own language's separator is a decimal one, and a whole part of 0 is no thousand.
    expect(parseClinicalNumber('1,250', 'fr')).toEqual({ ok: true, value: 1.25 });
    expect(parseClinicalNumber('1.250', 'en')).toEqual({ ok: true, value: 1.25 });
    expect(parseClinicalNumber('0,125', 'en')).toEqual({ ok: true, value: 0.125 });
  });

  it('never clamps nor rounds: out of bounds and too many decimals are errors that keep the number', () => {
    const weight = { min: 0.3, max: 300, decimals: 1 };
    expect(parseClinicalNumber('625', 'fr', weight)).toEqual({ ok: false, error: 'range', value: 625 });
    expect(parseClinicalNumber('62,55', 'fr', weight)).toEqual({
      ok: false,
      error: 'decimals',
      value: 62.55,
    });
    expect(parseClinicalNumber('62,50', 'fr', weight)).toEqual({ ok: true, value: 62.5 });
    expect(parseClinicalNumber('-1', 'en', { min: 0 })).toEqual({ ok: false, error: 'range', value: -1 });
  });

  it('property: what is written in a language reads back as the same number, in that language', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), locale, (value, lang) => {
        const text = formatClinicalNumber(value, lang);
        expect(text).not.toMatch(/e/i);
        expect(text.includes(decimalSeparatorOf(lang) === ',' ? '.' : ',')).toBe(false);
        expect(parseClinicalNumber(text, lang)).toEqual({ ok: true, value: value === 0 ? 0 : value });
      }),
      { numRuns: 2000 },
    );
  });

  it('property: a number with up to 3 decimals, in bounds, reads back through the field rule in both languages', () => {
    fc.assert(
      fc.property(decimalNumber(400_000, 3), locale, ({ value, decimals }, lang) => {
        const rule = { min: -400, max: 400_000, decimals: 3 };
        const result = parseClinicalNumber(formatClinicalNumber(value, lang), lang, rule);
        if (value < rule.min) expect(result).toEqual({ ok: false, error: 'range', value });
        else expect(result).toEqual({ ok: true, value: value === 0 ? 0 : value });
        expect(decimals).toBeLessThanOrEqual(3);
      }),
      { numRuns: 2000 },
    );
  });

  it('property: pasted with the other separator, it reads the same, or is refused as ambiguous — never another number', () => {
    fc.assert(
      fc.property(decimalNumber(100_000, 4), locale, ({ value }, lang) => {
        const written = formatClinicalNumber(value, lang);
        const other = swapSeparator(written);
        const result = parseClinicalNumber(other, lang);
        const [whole = '', fraction = ''] = other.replace('-', '').split(/[.,]/);
        const ambiguous = other !== written && fraction.length === 3 && /^[1-9]\d{0,2}$/.test(whole);
        if (ambiguous) expect(result).toEqual({ ok: false, error: 'ambiguous', value: null });
        else expect(result).toEqual({ ok: true, value: value === 0 ? 0 : value });
        // The same text in the language whose separator it is always reads the number.
        const own = other.includes(',') ? 'fr' : 'en';
        expect(parseClinicalNumber(other, own)).toEqual({ ok: true, value: value === 0 ? 0 : value });
      }),
      { numRuns: 2000 },
    );
  });

  it('property: thousands grouped by spaces read the same as without', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), locale, (n, lang) => {
        const grouped = String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
        expect(parseClinicalNumber(grouped, lang)).toEqual({ ok: true, value: n });
        expect(parseClinicalNumber(grouped.replace(/ /g, '\u202f'), lang)).toEqual({ ok: true, value: n });
      }),
    );
  });

  it('property: garbage never yields a number', () => {
    const letter = fc.constantFrom(...'abcdefxyzKgmlEé%/*#()_'.split(''));
    fc.assert(
      fc.property(decimalNumber(100_000, 3), letter, fc.nat(), locale, ({ value }, junk, at, lang) => {
        const text = formatClinicalNumber(value, lang);
        const i = at % (text.length + 1);
        const result = parseClinicalNumber(text.slice(0, i) + junk + text.slice(i), lang);
        expect(result).toEqual({ ok: false, error: 'unreadable', value: null });
      }),
      { numRuns: 2000 },
    );
    // Two separators, wherever they fall, are unreadable.
    fc.assert(
      fc.property(fc.stringMatching(/^\d{1,4}[.,]\d{1,4}[.,]\d{1,4}$/), locale, (text, lang) => {
        expect(parseClinicalNumber(text, lang)).toEqual({ ok: false, error: 'unreadable', value: null });
      }),
    );
    // Any string at all: either refused, or a finite number that is written back and read the same.
    fc.assert(
      fc.property(fc.string(), locale, (text, lang) => {
        const result = parseClinicalNumber(text, lang);
        if (result.ok && result.value !== null) {
          expect(Number.isFinite(result.value)).toBe(true);
          expect(parseClinicalNumber(formatClinicalNumber(result.value, lang), lang)).toEqual(result);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('property: no value is ever clamped — out of bounds is an error carrying the very number read', () => {
    fc.assert(
      fc.property(
        decimalNumber(1_000_000, 2),
        fc.integer({ min: -1000, max: 1000 }),
        fc.integer({ min: 0, max: 5000 }),
        locale,
        ({ value }, min, span, lang) => {
          const rule = { min, max: min + span, decimals: 2 };
          const result = parseClinicalNumber(formatClinicalNumber(value, lang), lang, rule);
          const read = value === 0 ? 0 : value;
          if (read < rule.min || read > rule.max)
            expect(result).toEqual({ ok: false, error: 'range', value: read });
          else expect(result).toEqual({ ok: true, value: read });
        },
      ),
      { numRuns: 2000 },
    );
  });
});
