import { describe, expect, it } from 'vitest';
import { csvCell, toCsv } from './csv';

describe('indicator CSV', () => {
  it('writes the period and filters, then the table; formulas stay text, numbers stay numbers', () => {
    const csv = toCsv(
      [
        ['Période', '2026-10-01 – 2026-10-31'],
        ['Service', 'Tous'],
      ],
      ['Code', 'Nombre'],
      [
        ['=HYPERLINK("x")', 3],
        ['B50.9', -1],
      ],
    );
    expect(csv.startsWith('\uFEFF"Période","2026-10-01 – 2026-10-31"\r\n"Service","Tous"\r\n\r\n')).toBe(
      true,
    );
    expect(csv).toContain('"Code","Nombre"\r\n"\'=HYPERLINK(""x"")",3\r\n"B50.9",-1\r\n');
    expect(csvCell(null)).toBe('""');
  });
});
