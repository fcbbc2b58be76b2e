/**
 * A table as CSV (RFC 4180, comma separated, CRLF, UTF-8 with a byte-order mark for spreadsheets), the period and
 * filters written first. Text cells a spreadsheet would run as a formula are prefixed with a quote (as the
 * server's audit export does); numbers are written as they are.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export type Cell = string | number | null | undefined;

export function csvCell(value: Cell): string {
  if (value === null || value === undefined) return '""';
  if (typeof value === 'number') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return `"${text.replace(/"/g, '""')}"`;
}

export function toCsv(context: [string, string][], header: string[], rows: Cell[][]): string {
  const lines = [...context.map(([k, v]) => [k, v]), [], header, ...rows].map((cells) =>
    cells.map(csvCell).join(','),
  );
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

/** Saves a file: text (CSV by default) or a ready blob (a workbook, a JSON file). */
export function download(name: string, content: string | Blob, type = 'text/csv;charset=utf-8') {
  const url = URL.createObjectURL(typeof content === 'string' ? new Blob([content], { type }) : content);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
