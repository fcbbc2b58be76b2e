import { doseTimes, isLate, shiftAt } from '@greensen/shared/domain/care';
import { describe, expect, it } from 'vitest';
import { demoDoseStarts } from './care.js';

const KIN = 'Africa/Kinshasa';
const TIMES = ['07:00', '19:00'];

/** What the nurse does with the demo in the care e2e, at every 10 minutes of two days. */
describe('the demo doses of the current shift, whatever the hour', () => {
  const base = Date.parse('2026-11-25T00:00:00Z');
  const instants = Array.from({ length: (48 * 60) / 10 }, (_, i) => base + i * 10 * 60_000);

  it.each(instants.map((t) => [new Date(t).toISOString(), t] as const))('at %s', (_, now) => {
    const shift = shiftAt(new Date(now), KIN, TIMES);
    const starts = demoDoseStarts(now, shift.start);
    const at = new Date(now);

    // Metronidazole: the first dose (given) at the start, the second overdue, a third open in the shift.
    const metro = doseTimes(
      { kind: 'every_hours', hours: 8 },
      starts.metronidazole,
      5,
      starts.metronidazole,
      shift.end,
      KIN,
    );
    expect(metro[0]?.getTime()).toBe(starts.metronidazole.getTime());
    const second = metro[1]!;
    expect(second.getTime()).toBeLessThanOrEqual(now);
    expect(isLate(second, null, at)).toBe(true);
    const third = metro[2]!;
    expect(third.getTime()).toBeGreaterThanOrEqual(shift.start.getTime());
    expect(third.getTime()).toBeLessThan(shift.end.getTime());

    // Paracetamol: the first given, the second refused, the third in the shift (due or overdue).
    const para = doseTimes(
      { kind: 'every_hours', hours: 6 },
      starts.paracetamol,
      5,
      starts.paracetamol,
      shift.end,
      KIN,
    );
    expect(para[0]?.getTime()).toBe(starts.paracetamol.getTime());
    const open = para[2]!;
    expect(open.getTime()).toBeGreaterThanOrEqual(shift.start.getTime());
    expect(open.getTime()).toBeLessThanOrEqual(now);
    expect(open.getTime()).toBeLessThan(shift.end.getTime());
  });
});
