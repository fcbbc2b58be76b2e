import { describe, expect, it } from 'vitest';
import { ZScheduleCreate, ZSlotQuery } from '../contracts/appointments.js';
import { canTransition, expandSlots, type SlotSchedule, sessionsOverlap, weekdayOf } from './appointments.js';

const KIN = 'Africa/Kinshasa'; // UTC+1, no DST
const PARIS = 'Europe/Paris';

const schedule = (over: Partial<SlotSchedule> = {}): SlotSchedule => ({
  id: 's1',
  provider: 'p1',
  department: 'd1',
  sessions: [{ weekday: 'tue', start: '08:00', end: '09:00' }],
  slot_minutes: 20,
  capacity: 2,
  types: ['follow_up'],
  valid_from: '2026-01-01',
  valid_until: null,
  ...over,
});

describe('status transitions', () => {
  it('follows booked → confirmed → checked_in → completed and refuses going back', () => {
    expect(canTransition('booked', 'confirmed')).toBe(true);
    expect(canTransition('confirmed', 'checked_in')).toBe(true);
    expect(canTransition('checked_in', 'completed')).toBe(true);
    expect(canTransition('booked', 'no_show')).toBe(true);
    expect(canTransition('confirmed', 'cancelled')).toBe(true);
    expect(canTransition('checked_in', 'cancelled')).toBe(false);
    expect(canTransition('completed', 'booked')).toBe(false);
    expect(canTransition('cancelled', 'confirmed')).toBe(false);
    expect(canTransition('no_show', 'checked_in')).toBe(false);
  });
});

describe('weekdayOf', () => {
  it('names the weekday of a date', () => {
    expect(weekdayOf('2026-11-24')).toBe('tue');
    expect(weekdayOf('2026-11-29')).toBe('sun');
    expect(weekdayOf('2026-11-30')).toBe('mon');
  });
});

describe('expandSlots', () => {
  it('cuts each session into whole slots in the hospital time zone', () => {
    const slots = expandSlots({
      schedules: [schedule({ sessions: [{ weekday: 'tue', start: '08:00', end: '09:10' }] })],
      exceptions: [],
      holidays: [],
      from: '2026-11-23',
      to: '2026-11-29',
      timeZone: KIN,
    });
    expect(slots.map((s) => s.start.toISOString())).toEqual([
      '2026-11-24T07:00:00.000Z',
      '2026-11-24T07:20:00.000Z',
      '2026-11-24T07:40:00.000Z',
    ]);
    expect(slots[2]?.end.toISOString()).toBe('2026-11-24T08:00:00.000Z');
    expect(slots[0]?.capacity).toBe(2);
  });

  it('follows daylight saving time', () => {
    const at = (date: string) =>
      expandSlots({
        schedules: [schedule({ sessions: [{ weekday: weekdayOf(date), start: '08:00', end: '08:20' }] })],
        exceptions: [],
        holidays: [],
        from: date,
        to: date,
        timeZone: PARIS,
      })[0]?.start.toISOString();
    expect(at('2026-07-07')).toBe('2026-07-07T06:00:00.000Z');
    expect(at('2026-01-06')).toBe('2026-01-06T07:00:00.000Z');
  });

  it('skips holidays, the provider’s exceptions and dates outside validity', () => {
    const slots = expandSlots({
      schedules: [
        schedule({ valid_until: '2026-12-31' }),
        schedule({ id: 's2', provider: 'p2', sessions: [{ weekday: 'tue', start: '10:00', end: '10:20' }] }),
      ],
      exceptions: [{ provider: 'p1', start_date: '2026-12-08', end_date: '2026-12-10' }],
      holidays: ['2026-12-15'],
      from: '2026-12-01',
      to: '2027-01-06',
      timeZone: KIN,
    });
    const days = (p: string) => [
      ...new Set(slots.filter((s) => s.provider === p).map((s) => s.start.toISOString().slice(0, 10))),
    ];
    expect(days('p1')).toEqual(['2026-12-01', '2026-12-22', '2026-12-29']);
    expect(days('p2')).toEqual(['2026-12-01', '2026-12-08', '2026-12-22', '2026-12-29', '2027-01-05']);
    // Ordered by time across schedules.
    const times = slots.map((s) => s.start.getTime());
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });

  it('is empty before the schedule starts', () => {
    expect(
      expandSlots({
        schedules: [schedule({ valid_from: '2027-01-01' })],
        exceptions: [],
        holidays: [],
        from: '2026-12-01',
        to: '2026-12-31',
        timeZone: KIN,
      }),
    ).toEqual([]);
  });
});

describe('schedule contracts', () => {
  it('refuses overlapping sessions of a weekday and accepts back-to-back ones', () => {
    expect(
      sessionsOverlap([
        { weekday: 'mon', start: '08:00', end: '12:00' },
        { weekday: 'mon', start: '11:00', end: '13:00' },
      ]),
    ).toBe(true);
    expect(
      sessionsOverlap([
        { weekday: 'mon', start: '08:00', end: '12:00' },
        { weekday: 'mon', start: '12:00', end: '13:00' },
        { weekday: 'tue', start: '08:00', end: '12:00' },
      ]),
    ).toBe(false);
    const base = {
      provider: '0190c5d2-8a6e-7b3c-9d4e-000000000001',
      department: '0190c5d2-8a6e-7b3c-9d4e-000000000002',
      slot_minutes: 20,
      capacity: 1,
      types: ['new'],
      valid_from: '2026-01-01',
    };
    expect(
      ZScheduleCreate.safeParse({ ...base, sessions: [{ weekday: 'mon', start: '09:00', end: '08:00' }] })
        .success,
    ).toBe(false);
    expect(
      ZScheduleCreate.safeParse({ ...base, sessions: [{ weekday: 'mon', start: '08:00', end: '09:00' }] })
        .success,
    ).toBe(true);
  });

  it('needs a provider or a department to search slots', () => {
    expect(ZSlotQuery.safeParse({ from: '2026-12-01', to: '2026-12-02' }).success).toBe(false);
    expect(
      ZSlotQuery.safeParse({
        department: '0190c5d2-8a6e-7b3c-9d4e-000000000002',
        from: '2026-12-01',
        to: '2026-12-02',
      }).success,
    ).toBe(true);
  });
});
