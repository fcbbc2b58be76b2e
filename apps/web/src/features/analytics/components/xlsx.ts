/**
 * An indicator table as an XLSX workbook (write-excel-file, decision 0039): one sheet, the context lines first
 * (label in bold, value), an empty row, the header in bold, then the rows — numbers stay numbers, text stays text
 * (the library writes strings as strings, never as formulas). Loaded lazily by `downloadXlsx`.
 */
import writeXlsxFile, { type Row } from 'write-excel-file/browser';
import type { ExportTable } from './table-export';

/** A sheet name: at most 31 characters, none of `[]:*?/\`. */
export function sheetName(title: string): string {
  return (
    title
      .replace(/[[\]:*?/\\]/g, ' ')
      .slice(0, 31)
      .trim() || 'Sheet1'
  );
}

export function toXlsx(table: ExportTable): Promise<Blob> {
  const bold = (value: string) => ({ value, type: String, fontWeight: 'bold' as const });
  const data: Row[] = [
    ...table.context.map(([label, value]): Row => [bold(label), value]),
    [],
    table.header.map(bold),
    ...table.rows.map((cells): Row => cells.map((cell) => cell ?? null)),
  ];
  const widest = Math.max(table.header.length, 2);
  return writeXlsxFile(data, {
    sheet: sheetName(table.title),
    columns: Array.from({ length: widest }, (_, i) => ({ width: i === 0 ? 28 : 16 })),
  }).toBlob();
}
