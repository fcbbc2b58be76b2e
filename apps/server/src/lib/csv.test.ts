import { describe, expect, it } from 'vitest';
import { csvCell, csvLine } from './csv.js';

describe('CSV cells', () => {
  it('quotes every cell and doubles the quotes inside', () => {
    expect(csvLine(['Kabila', 'dit "Joseph"', null, 3])).toBe('"Kabila","dit ""Joseph""","","3"\r\n');
    expect(csvCell('ligne 1\nligne 2, suite')).toBe('"ligne 1\nligne 2, suite"');
  });

  it('neutralises cells a spreadsheet would run as formulas', () => {
    for (const hostile of ['=HYPERLINK("http://x")', '+33 1 00', '-2+3', '@SUM(A1)', '\t=1', '\r=1'])
      expect(csvCell(hostile)).toBe(`"'${hostile.replace(/"/g, '""')}"`);
    expect(csvCell('Dr. =ok')).toBe('"Dr. =ok"');
  });
});
