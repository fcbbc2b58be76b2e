/**
 * Numbers a clinician types (issue 34 item 8, docs/decisions/0056-clinical-numbers.md): a weight, a height, a
 * dose, a vital sign, a result. One reading for every such field, in French and in English:
 *
 * - a decimal comma and a decimal point are read alike in both languages (`62,5` = `62.5`), typed, pasted or
 *   filled in by the browser;
 * - spaces may group thousands (`1 250`, also the no-break spaces of a copied French number); a comma or a point
 *   is never a thousands separator;
 * - the other language's separator followed by exactly three digits after a whole part of 1 to 3 digits
 *   (`1,250` in English, `1.250` in French) could mean a thousand or a decimal: it is refused as ambiguous,
 *   never guessed;
 * - anything else that is not a plain decimal number (`62,5,1`, `abc`, `1e5`, `62,5 kg`) is unreadable;
 * - too many decimals for the field, or a value outside its bounds, is an error that keeps the number read:
 *   nothing is ever rounded or clamped here.
 *
 * `formatClinicalNumber` writes a number back with the language's separator, never with an exponent or a
 * thousands separator, so that reading what it writes gives the same number.
 */

/** The field's rule: bounds (inclusive) and the largest number of decimals (0: a whole number). */
export interface ClinicalNumberRule {
  min?: number | undefined;
  max?: number | undefined;
  decimals?: number | undefined;
}

export type ClinicalNumberError = 'unreadable' | 'ambiguous' | 'decimals' | 'range';

export type ClinicalNumberResult =
  /** `value` is null when nothing was entered. */
  | { ok: true; value: number | null }
  /** `value` is the number read, unchanged, for `decimals` and `range`; null when nothing could be read. */
  | { ok: false; error: ClinicalNumberError; value: number | null };

/** The decimal separator a language writes: a comma in French, a point otherwise. */
export function decimalSeparatorOf(locale: string): ',' | '.' {
  return locale.toLowerCase().startsWith('fr') ? ',' : '.';
}

// An optional sign, a whole part (plain digits, or 1-3 digits then groups of three after a space), an optional
// separator and decimals. At least one digit somewhere (checked below).
const NUMBER_PATTERN = /^([-+]?)(\d{1,3}(?: \d{3})+|\d*)(?:([.,])(\d*))?$/;

/** The decimals of a number's text once its trailing zeros are dropped (`62,50` has one). */
function significantDecimals(fraction: string): number {
  return fraction.replace(/0+$/, '').length;
}

/** Reads what was typed in a clinical number field; see the module's header for the rules. */
export function parseClinicalNumber(
  text: string,
  locale: string,
  rule: ClinicalNumberRule = {},
): ClinicalNumberResult {
  // No-break and narrow no-break spaces (a copied French number) count as spaces; U+2212 is a minus sign.
  const cleaned = text
    .replace(/[\u00a0\u202f\u2007]/g, ' ')
    .replace(/\u2212/g, '-')
    .trim();
  if (cleaned === '') return { ok: true, value: null };
  const match = NUMBER_PATTERN.exec(cleaned);
  if (!match) return { ok: false, error: 'unreadable', value: null };
  const [, sign = '', whole = '', separator, fraction = ''] = match;
  if (whole === '' && fraction === '') return { ok: false, error: 'unreadable', value: null };
  const grouped = whole.includes(' ');
  if (
    separator !== undefined &&
    separator !== decimalSeparatorOf(locale) &&
    !grouped &&
    fraction.length === 3 &&
    /^[1-9]\d{0,2}$/.test(whole)
  )
    return { ok: false, error: 'ambiguous', value: null };
  const value = Number(`${sign}${whole.replace(/ /g, '') || '0'}.${fraction || '0'}`);
  if (!Number.isFinite(value)) return { ok: false, error: 'unreadable', value: null };
  const read = value === 0 ? 0 : value; // -0 is 0
  if (rule.decimals !== undefined && significantDecimals(fraction) > rule.decimals)
    return { ok: false, error: 'decimals', value: read };
  if ((rule.min !== undefined && read < rule.min) || (rule.max !== undefined && read > rule.max))
    return { ok: false, error: 'range', value: read };
  return { ok: true, value: read };
}

/** `1.234e-7` as `0.0000001234`, `1e+21` as `1000000000000000000000`: the same digits without an exponent. */
function withoutExponent(text: string): string {
  const match = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!match) return text;
  const [, sign = '', first = '', rest = '', exp = '0'] = match;
  const digits = first + rest;
  const point = 1 + Number(exp); // where the decimal point falls in `digits`
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** A number as the language writes it (`62,5` in French, `62.5` in English); '' for null or not a number. */
export function formatClinicalNumber(value: number | null | undefined, locale: string): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '';
  const text = withoutExponent(String(value === 0 ? 0 : value));
  return decimalSeparatorOf(locale) === ',' ? text.replace('.', ',') : text;
}
