import { describe, expect, it } from 'vitest';
import { formatDate, formatDayMonth } from './format';

describe('dates as the UI shows them', () => {
  it('writes a day as day/month/year and a chart’s day as day/month', () => {
    expect(formatDate('2026-11-01')).toBe('01/11/2026');
    expect(formatDayMonth('2026-11-01')).toBe('01/11');
    expect(formatDayMonth('2026-02-28T23:30:00Z')).toBe('28/02');
  });

  it('gives back what is not a date', () => {
    expect(formatDayMonth('soon')).toBe('soon');
  });
});
