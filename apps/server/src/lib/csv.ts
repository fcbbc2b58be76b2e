/**
 * CSV for spreadsheets (RFC 4180, comma separated, CRLF lines). Every cell is quoted. A cell that a spreadsheet
 * would run as a formula — starting with = + - @, a tab or a carriage return — is prefixed with a single quote
 * (OWASP "CSV injection"), so that an audit export of hostile text (a name typed as `=HYPERLINK(…)`) stays text.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '""';
  let text = value instanceof Date ? value.toISOString() : String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

export function csvLine(values: readonly unknown[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}

/** The byte-order mark that makes spreadsheets read the file as UTF-8 (accents of French names). */
export const CSV_BOM = '\uFEFF';
