import { describe, expect, it } from 'vitest';
import { doseTimes, isLate, scheduleSlots, shiftAt, timesPerDay, zonedDate, zonedInstant } from './care.js';

const KIN = 'Africa/Kinshasa'; // UTC+1, no DST
const PARIS = 'Europe/Paris';
const iso = (d: Date[]) => d.map((x) => x.toISOString());

describe('time zone helpers', () => {
  it('turns a wall-clock time into an instant, across DST', () => {
    expect(zonedInstant('2026-06-01', '07:00', KIN).toISOString()).toBe('2026-06-01T06:00:00.000Z');
    expect(zonedInstant('2026-07-01', '07:00', PARIS).toISOString()).toBe('2026-07-01T05:00:00.000Z');
    expect(zonedInstant('2026-01-15', '07:00', PARIS).toISOString()).toBe('2026-01-15T06:00:00.000Z');
    expect(zonedDate(new Date('2026-06-01T23:30:00Z'), KIN)).toBe('2026-06-02');
  });

  it('answers a known wall-clock time again with the same instant, per time zone, in a Date of its own', () => {
    const first = zonedInstant('2026-03-29', '08:00', PARIS);
    first.setTime(0);
    expect(zonedInstant('2026-03-29', '08:00', PARIS).toISOString()).toBe('2026-03-29T06:00:00.000Z');
    expect(zonedInstant('2026-03-29', '08:00', KIN).toISOString()).toBe('2026-03-29T07:00:00.000Z');
    expect(zonedInstant('2026-03-28', '08:00', PARIS).toISOString()).toBe('2026-03-28T07:00:00.000Z');
  });
});

describe('shiftAt', () => {
  const times = ['07:00', '19:00'];
  it('finds the day shift and the night shift across midnight', () => {
    const day = shiftAt(new Date('2026-06-01T10:00:00Z'), KIN, times);
    expect([day.start.toISOString(), day.end.toISOString(), day.label]).toEqual([
      '2026-06-01T06:00:00.000Z',
      '2026-06-01T18:00:00.000Z',
      '07:00',
    ]);
    const night = shiftAt(new Date('2026-06-02T02:00:00Z'), KIN, times);
    expect([night.start.toISOString(), night.end.toISOString(), night.label]).toEqual([
      '2026-06-01T18:00:00.000Z',
      '2026-06-02T06:00:00.000Z',
      '19:00',
    ]);
  });
  it('gives the previous and next shifts', () => {
    const at = new Date('2026-06-01T10:00:00Z');
    expect(shiftAt(at, KIN, times, -1).start.toISOString()).toBe('2026-05-31T18:00:00.000Z');
    expect(shiftAt(at, KIN, times, 1).start.toISOString()).toBe('2026-06-01T18:00:00.000Z');
  });
  it('starts a shift exactly at its time', () => {
    expect(shiftAt(new Date('2026-06-01T06:00:00Z'), KIN, times).label).toBe('07:00');
  });
});

describe('scheduleSlots', () => {
  const start = new Date('2026-06-01T06:30:00Z');
  it('every N hours from the start, inside the window and the order life', () => {
    const slots = scheduleSlots(
      { kind: 'every_hours', hours: 4 },
      start,
      new Date('2026-06-02T06:30:00Z'),
      new Date('2026-06-01T12:00:00Z'),
      new Date('2026-06-03T00:00:00Z'),
      KIN,
    );
    expect(iso(slots)).toEqual([
      '2026-06-01T14:30:00.000Z',
      '2026-06-01T18:30:00.000Z',
      '2026-06-01T22:30:00.000Z',
      '2026-06-02T02:30:00.000Z',
    ]);
  });
  it('fixed times are wall-clock times of each day', () => {
    const slots = scheduleSlots(
      { kind: 'fixed_times', times: ['20:00', '08:00'] },
      start,
      null,
      new Date('2026-06-01T00:00:00Z'),
      new Date('2026-06-02T12:00:00Z'),
      KIN,
    );
    expect(iso(slots)).toEqual([
      '2026-06-01T07:00:00.000Z',
      '2026-06-01T19:00:00.000Z',
      '2026-06-02T07:00:00.000Z',
    ]);
  });
  it('once is the start, when inside the window', () => {
    const w = [new Date('2026-06-01T00:00:00Z'), new Date('2026-06-02T00:00:00Z')] as const;
    expect(iso(scheduleSlots({ kind: 'once' }, start, null, w[0], w[1], KIN))).toEqual([start.toISOString()]);
    expect(scheduleSlots({ kind: 'once' }, start, null, w[1], new Date('2026-06-03T00:00:00Z'), KIN)).toEqual(
      [],
    );
  });
  it('windows that meet give every slot once (materialising in steps)', () => {
    const s = { kind: 'every_hours', hours: 6 } as const;
    const a = scheduleSlots(s, start, null, start, new Date('2026-06-01T18:30:00Z'), KIN);
    const b = scheduleSlots(
      s,
      start,
      null,
      new Date('2026-06-01T18:30:00Z'),
      new Date('2026-06-02T06:30:00Z'),
      KIN,
    );
    expect(iso([...a, ...b])).toEqual(
      iso(scheduleSlots(s, start, null, start, new Date('2026-06-02T06:30:00Z'), KIN)),
    );
    expect(a.length + b.length).toBe(4);
  });
});

describe('doseTimes', () => {
  const signed = new Date('2026-06-01T09:10:00Z'); // 10:10 in Kinshasa
  const from = new Date('2026-06-01T00:00:00Z');
  const to = new Date('2026-06-02T00:00:00Z');
  it('three times a day at 08, 14, 20 from the signature', () => {
    expect(iso(doseTimes({ kind: 'times_per_day', times: 3 }, signed, 5, from, to, KIN))).toEqual([
      '2026-06-01T13:00:00.000Z',
      '2026-06-01T19:00:00.000Z',
    ]);
  });
  it('every 8 hours from the next full hour; at night at 21:00; as needed never', () => {
    expect(iso(doseTimes({ kind: 'every_hours', hours: 8 }, signed, 1, from, to, KIN))).toEqual([
      '2026-06-01T10:00:00.000Z',
      '2026-06-01T18:00:00.000Z',
    ]);
    expect(iso(doseTimes({ kind: 'at_night' }, signed, 3, from, to, KIN))).toEqual([
      '2026-06-01T20:00:00.000Z',
    ]);
    expect(doseTimes({ kind: 'as_needed', max_per_day: 3 }, signed, null, from, to, KIN)).toEqual([]);
  });
  it('stops after the duration', () => {
    const week = new Date('2026-06-10T00:00:00Z');
    expect(doseTimes({ kind: 'times_per_day', times: 1 }, signed, 2, from, week, KIN)).toHaveLength(2);
  });
  it('spreads more than four doses a day evenly from 08:00', () => {
    expect(timesPerDay(6)).toEqual(['08:00', '12:00', '16:00', '20:00', '00:00', '04:00']);
  });
});

describe('isLate', () => {
  const at = new Date('2026-06-01T10:00:00Z');
  it('after the 30-minute grace, open or done', () => {
    expect(isLate(at, null, new Date('2026-06-01T10:30:00Z'))).toBe(false);
    expect(isLate(at, null, new Date('2026-06-01T10:31:00Z'))).toBe(true);
    expect(isLate(at, new Date('2026-06-01T10:20:00Z'), new Date('2026-06-01T12:00:00Z'))).toBe(false);
  });
});
