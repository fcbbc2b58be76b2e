import readXlsxFile from 'read-excel-file/node';
import { describe, expect, it } from 'vitest';
import { toCsv } from './csv';
import { exportTable } from './table-export';
import { sheetName, toXlsx } from './xlsx';

const rows = [
  { code: 'B50.9', label: 'Paludisme à P. falciparum', count: 12 },
  { code: '=HYPERLINK("x")', label: 'Texte', count: 0 },
  { code: 'J18.9', label: 'Pneumopathie', count: null },
];
const table = exportTable(
  'top-diagnoses',
  'Diagnostics les plus fréquents: CIM/10',
  [
    ['Indicateur', 'Diagnostics les plus fréquents'],
    ['Hôpital', 'Hôpital Général de Grand-Yoff'],
    ['Période', '2026-10-01 – 2026-10-31'],
    ['Service', 'Tous les services'],
    ['Généré le', '2026-11-26T05:00:00.000Z'],
  ],
  [
    { label: 'Code', value: (r: (typeof rows)[number]) => r.code },
    { label: 'Libellé', value: (r: (typeof rows)[number]) => r.label },
    { label: 'Nombre', value: (r: (typeof rows)[number]) => r.count },
  ],
  rows,
);

/** The blob's bytes (jsdom's Blob has no `arrayBuffer`; its FileReader reads it). */
function bytes(blob: Blob): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(Buffer.from(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(blob);
  });
}

describe('indicator XLSX', () => {
  it('reads back with the context first, then the header and the numbers as numbers', async () => {
    const blob = await toXlsx(table);
    const sheets = await readXlsxFile(await bytes(blob));
    expect(sheets).toHaveLength(1);
    expect(sheets[0]!.sheet).toBe('Diagnostics les plus fréquents');
    const data = sheets[0]!.data;
    expect(data.slice(0, 5)).toEqual([
      ['Indicateur', 'Diagnostics les plus fréquents', null],
      ['Hôpital', 'Hôpital Général de Grand-Yoff', null],
      ['Période', '2026-10-01 – 2026-10-31', null],
      ['Service', 'Tous les services', null],
      ['Généré le', '2026-11-26T05:00:00.000Z', null],
    ]);
    // The blank row between the context and the table is kept or dropped by readers alike: find the header.
    const header = data.findIndex((row) => row[0] === 'Code');
    expect(data[header]).toEqual(['Code', 'Libellé', 'Nombre']);
    expect(data.slice(header + 1)).toEqual([
      ['B50.9', 'Paludisme à P. falciparum', 12],
      // A formula-like text stays a text cell (never a formula in a workbook).
      ['=HYPERLINK("x")', 'Texte', 0],
      ['J18.9', 'Pneumopathie', null],
    ]);
  });

  it('writes the same rows as the CSV export', () => {
    const csv = toCsv(table.context, table.header, table.rows);
    expect(csv).toContain('"B50.9","Paludisme à P. falciparum",12\r\n');
    expect(csv).toContain('"J18.9","Pneumopathie",""\r\n');
  });

  it('names the sheet within the format’s limits', () => {
    expect(sheetName('a/b: c?')).toBe('a b  c');
    expect(sheetName('x'.repeat(40))).toHaveLength(31);
  });
});
