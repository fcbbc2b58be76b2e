/**
 * The MAR's lines and doses (issue 20): the signed prescription lines of care plans and their doses in a window,
 * read by the MAR (`mar.service.ts`), the care list's counts (`care.service.ts`) and the nurse's tasks
 * (`tasks.service.ts`). Its own file so that the care and MAR services do not import each other (issue 36); the
 * lines are read by `mar.repository.ts`.
 */
import type { TDose, TDoseRecord, TMarLine } from '@greensen/shared/contracts/care';
import { type DoseFrequency, doseTimes, GRACE_MINUTES, isLate } from '@greensen/shared/domain/care';
import type { Queryable } from '../../db/client.js';
import { fullName } from '../../lib/clinical.js';
import { statDoseTimes } from '../medication-safety/safety.rules.js';
import { type DoseRow, toDose } from './care.repository.js';
import { type LineRow, type LineWithRecords, planLinesWithRecords } from './mar.repository.js';

export const HOUR = 3_600_000;

/** The doses of lines read by `linesWithRecords`. */
export function dosesOfLines(
  rows: LineWithRecords[],
  from: Date,
  to: Date,
  now: Date,
  timeZone: string,
): Map<string, TDose[]> {
  const records = rows.flatMap((r) =>
    (typeof r.records === 'string' ? (JSON.parse(r.records) as DoseRow[]) : r.records).map(toDose),
  );
  return scheduleDoses(rows, records, from, to, now, timeZone);
}

/** The signed lines of plans with their doses in `[from, to)`, in one statement: the care list's counts, the MAR. */
export async function planDoses(
  q: Queryable,
  planIds: readonly string[],
  from: Date,
  to: Date,
  now: Date,
  timeZone: string,
): Promise<{ lines: LineRow[]; doses: Map<string, TDose[]> }> {
  if (planIds.length === 0) return { lines: [], doses: new Map() };
  const rows = await planLinesWithRecords(q, planIds, from, to);
  return { lines: rows, doses: dosesOfLines(rows, from, to, now, timeZone) };
}

export const parseFrequency = (f: DoseFrequency | string): DoseFrequency =>
  typeof f === 'string' ? JSON.parse(f) : f;

export function lineOf(r: LineRow): Omit<TMarLine, 'doses'> {
  const frequency = parseFrequency(r.frequency);
  const starts = new Date(r.first_dose_at ?? r.signed_at);
  return {
    id: r.id,
    prescription: r.prescription_id,
    medication: { id: r.m_id, inn_fr: r.inn_fr, inn_en: r.inn_en },
    strength: r.strength,
    form: r.form,
    dose: Number(r.dose),
    dose_unit: r.dose_unit,
    route: r.route,
    frequency: frequency as TMarLine['frequency'],
    instructions: r.instructions,
    starts_at: starts.toISOString(),
    ends_at: r.duration_days ? new Date(starts.getTime() + r.duration_days * 24 * HOUR).toISOString() : null,
    prescriber: { id: r.u_id, full_name: fullName(r.u_first, r.u_last) },
    as_needed: frequency.kind === 'as_needed',
  };
}

/**
 * The scheduled times of a line in `[from, to)`: from its signature and the ward's round times, or, after a
 * stat first dose, from that dose by its frequency (issue 34).
 */
export function lineDoseTimes(l: LineRow, from: Date, to: Date, timeZone: string): Date[] {
  const frequency = parseFrequency(l.frequency);
  if (l.first_dose_at) return statDoseTimes(frequency, new Date(l.first_dose_at), l.duration_days, from, to);
  return doseTimes(frequency, new Date(l.signed_at), l.duration_days, from, to, timeZone);
}

/** The doses of lines in `[from, to)` given their records of the window (as-needed lines: their records). */
function scheduleDoses(
  lines: LineRow[],
  recorded: TDoseRecord[],
  from: Date,
  to: Date,
  now: Date,
  timeZone: string,
): Map<string, TDose[]> {
  const out = new Map<string, TDose[]>();
  const records = new Map<string, TDoseRecord>();
  for (const d of recorded) records.set(`${d.prescription_line}|${d.scheduled_at}`, d);
  for (const l of lines) {
    const times = lineDoseTimes(l, from, to, timeZone);
    const keys = new Set(times.map((t) => t.toISOString()));
    // As-needed administrations (and any record at a time no longer scheduled) are shown too.
    for (const r of records.values()) if (r.prescription_line === l.id) keys.add(r.scheduled_at);
    const doses = [...keys].sort().map((at): TDose => {
      const record = records.get(`${l.id}|${at}`) ?? null;
      const status: TDose['status'] = record
        ? record.outcome
        : isLate(new Date(at), null, now, GRACE_MINUTES)
          ? 'overdue'
          : 'due';
      return { prescription_line: l.id, scheduled_at: at, status, record };
    });
    out.set(l.id, doses);
  }
  return out;
}
