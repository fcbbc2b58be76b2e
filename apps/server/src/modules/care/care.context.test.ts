import { shiftAt } from '@greensen/shared/domain/care';
import { describe, expect, it } from 'vitest';
import { shiftOf } from './care.context.js';

const HOUR = 3_600_000;

describe('shiftOf (kept per zone, shift times and offset)', () => {
  // Every 53 minutes over 14 days, across the end of daylight saving time in Paris (25 October 2026) and in
  // New York (1 November 2026): the kept answer is always the one computed afresh.
  const clocks = [
    { timeZone: 'Europe/Paris', shiftTimes: ['07:00', '19:00'] },
    { timeZone: 'Europe/Paris', shiftTimes: ['06:00', '14:00', '22:00'] },
    { timeZone: 'America/New_York', shiftTimes: ['02:30', '14:30'] },
    { timeZone: 'Africa/Abidjan', shiftTimes: ['19:00', '07:00', '07:00'] },
  ];
  it.each(clocks)('answers as shiftAt in $timeZone at $shiftTimes', (clock) => {
    const start = Date.UTC(2026, 9, 21, 0, 0);
    for (let t = start; t < start + 14 * 24 * HOUR; t += 53 * 60_000) {
      const at = new Date(t);
      for (const offset of [0, -1, 1, -2, 2]) {
        const fresh = shiftAt(at, clock.timeZone, clock.shiftTimes, offset);
        const kept = shiftOf(clock, at, offset);
        expect(kept, `${at.toISOString()} ${offset}`).toEqual(fresh);
      }
    }
  });

  it('answers a new window once the shift times change, and a copy the caller may change', () => {
    const at = new Date(Date.UTC(2026, 10, 26, 9, 0));
    const before = shiftOf({ timeZone: 'UTC', shiftTimes: ['07:00', '19:00'] }, at);
    before.start.setTime(0);
    expect(shiftOf({ timeZone: 'UTC', shiftTimes: ['07:00', '19:00'] }, at).start.toISOString()).toBe(
      '2026-11-26T07:00:00.000Z',
    );
    const after = shiftOf({ timeZone: 'UTC', shiftTimes: ['08:00', '20:00'] }, at);
    expect([after.start.toISOString(), after.end.toISOString(), after.label]).toEqual([
      '2026-11-26T08:00:00.000Z',
      '2026-11-26T20:00:00.000Z',
      '08:00',
    ]);
  });
});
