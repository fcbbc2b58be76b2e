import { describe, expect, it } from 'vitest';
import {
  dateTimeFormat,
  formatDate,
  formatDateTime,
  formatDayMonth,
  formatNumber,
  formatTime,
  numberFormat,
} from './format';

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

describe('formatters made once (issue 38)', () => {
  it('write what toLocale…String writes, in both languages', () => {
    const at = '2026-03-09T07:05:09Z';
    const date = new Date(at);
    expect(formatDate(at)).toBe(date.toLocaleDateString('fr-FR'));
    expect(formatDateTime(at)).toBe(date.toLocaleString('fr-FR', { dateStyle: 'short', timeStyle: 'short' }));
    expect(formatTime(at)).toBe(date.toLocaleTimeString('fr-FR', { hour: '2-digit', minute: '2-digit' }));
    for (const locale of ['fr', 'en', 'en-GB']) {
      const options = { hour: '2-digit', minute: '2-digit', second: '2-digit' } as const;
      expect(dateTimeFormat(locale, options).format(date)).toBe(date.toLocaleTimeString(locale, options));
      const full = { dateStyle: 'full' } as const;
      expect(dateTimeFormat(locale, full).format(date)).toBe(date.toLocaleDateString(locale, full));
    }
    expect(formatNumber(3000.12345)).toBe((3000.12345).toLocaleString('fr-FR', { maximumFractionDigits: 3 }));
    expect(formatNumber(38.7, 'en')).toBe('38.7');
  });

  it('are made once per language and options', () => {
    expect(dateTimeFormat('fr-FR', { day: '2-digit' })).toBe(dateTimeFormat('fr-FR', { day: '2-digit' }));
    expect(dateTimeFormat('fr-FR', { day: '2-digit' })).not.toBe(dateTimeFormat('en-GB', { day: '2-digit' }));
    expect(numberFormat('fr-FR')).toBe(numberFormat('fr-FR'));
  });
});
