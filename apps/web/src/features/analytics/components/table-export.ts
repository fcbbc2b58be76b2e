/**
 * One indicator table as a file (CSV or XLSX): the same rows for both formats, the indicator, hospital, period,
 * filters and generation time first. The CSV writer is small and in the page's chunk; the XLSX writer
 * (write-excel-file) is loaded only when a user asks for a workbook (its own chunk, `./xlsx`).
 */
import { type Cell, download, toCsv } from './csv';

export interface ExportColumn<R> {
  label: string;
  value: (row: R) => Cell;
}

export interface ExportTable {
  /** The file's name without its extension. */
  name: string;
  /** The indicator's title, for the sheet's name. */
  title: string;
  /** The lines written before the table: [label, value]. */
  context: [string, string][];
  header: string[];
  rows: Cell[][];
}

export function exportTable<R>(
  name: string,
  title: string,
  context: [string, string][],
  columns: ExportColumn<R>[],
  rows: R[],
): ExportTable {
  return {
    name,
    title,
    context,
    header: columns.map((c) => c.label),
    rows: rows.map((row) => columns.map((c) => c.value(row))),
  };
}

export function downloadCsv(table: ExportTable) {
  download(`${table.name}.csv`, toCsv(table.context, table.header, table.rows));
}

export async function downloadXlsx(table: ExportTable) {
  const { toXlsx } = await import('./xlsx');
  download(`${table.name}.xlsx`, await toXlsx(table));
}
