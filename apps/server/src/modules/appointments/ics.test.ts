import { describe, expect, it } from 'vitest';
import { escapeText, foldLine, icsCalendar, icsDate } from './ics.js';

describe('iCalendar writer (RFC 5545)', () => {
  it('escapes backslashes, semicolons, commas and line breaks in text', () => {
    expect(escapeText('a\\b;c,d\ne\r\nf')).toBe('a\\\\b\\;c\\,d\\ne\\nf');
  });

  it('folds lines at 75 octets without cutting a UTF-8 character', () => {
    const line = `SUMMARY:${'é'.repeat(80)}`;
    const folded = foldLine(line);
    const parts = folded.split('\r\n');
    expect(parts.length).toBeGreaterThan(1);
    for (const p of parts) expect(new TextEncoder().encode(p).length).toBeLessThanOrEqual(75);
    expect(parts.slice(1).every((p) => p.startsWith(' '))).toBe(true);
    // Unfolding gives the line back.
    expect(folded.replace(/\r\n /g, '')).toBe(line);
    expect(foldLine('SHORT:x')).toBe('SHORT:x');
  });

  it('writes a calendar with CRLF line ends and UTC times', () => {
    const ics = icsCalendar({
      name: 'Dr A, planning',
      now: new Date('2026-11-25T10:00:00Z'),
      events: [
        {
          uid: 'a1@greensen',
          start: new Date('2026-11-26T08:00:00Z'),
          end: new Date('2026-11-26T08:20:00Z'),
          summary: 'Suivi; HGG-000001',
          status: 'CONFIRMED',
        },
      ],
    });
    expect(ics.startsWith('BEGIN:VCALENDAR\r\nVERSION:2.0\r\n')).toBe(true);
    expect(ics.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(ics).toContain('X-WR-CALNAME:Dr A\\, planning\r\n');
    expect(ics).toContain('DTSTART:20261126T080000Z\r\n');
    expect(ics).toContain('SUMMARY:Suivi\\; HGG-000001\r\n');
    expect(ics.replace(/\r\n/g, '')).not.toMatch(/\n/);
    expect(icsDate(new Date('2026-01-02T03:04:05.678Z'))).toBe('20260102T030405Z');
  });
});
