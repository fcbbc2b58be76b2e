import type { TShift, TShiftInfo } from '@greensen/shared/contracts/care';
import { DEFAULT_HOSPITAL_SETTINGS } from '@greensen/shared/contracts/hospital-settings';
import { type ShiftWindow, shiftAt } from '@greensen/shared/domain/care';
import type { Queryable } from '../../db/client.js';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { forbidden } from '../../lib/errors.js';
import { zoneAndShiftTimes } from '../hospital-settings/hospital-settings.repository.js';
import { activeMembershipsOf } from '../staff/staff.repository.js';

/** The hospital's time zone and shift times. */
export interface HospitalClock {
  timeZone: string;
  shiftTimes: string[];
}

/** One statement: the hospital's zone and its settings' shift times (the defaults without a settings row). */
export async function hospitalClock(q: Queryable, hospitalId: string): Promise<HospitalClock> {
  const row = await zoneAndShiftTimes(q, hospitalId);
  const shiftTimes =
    typeof row?.shift_times === 'string' ? (JSON.parse(row.shift_times) as string[]) : row?.shift_times;
  return {
    timeZone: row?.time_zone ?? 'UTC',
    shiftTimes: shiftTimes ?? [...DEFAULT_HOSPITAL_SETTINGS.shift_times],
  };
}

/**
 * The last shift computed per zone, shift times and offset, with the current shift it was computed in: any
 * instant of that current shift has the same answer (the boundaries are instants of wall-clock dates and times,
 * the same whichever day they are counted from). Computing one takes some thirty time-zone conversions, which
 * weighed on every read of the tasks (decision 0044).
 */
const shiftsKept = new Map<string, { from: number; to: number; window: ShiftWindow }>();
const SHIFTS_KEPT_MAX = 256;

export function shiftOf(clock: HospitalClock, at: Date, offset = 0): ShiftWindow {
  const key = `${clock.timeZone}|${clock.shiftTimes.join(',')}|${offset}`;
  const t = at.getTime();
  const kept = shiftsKept.get(key);
  let window = kept && t >= kept.from && t < kept.to ? kept.window : undefined;
  if (!window) {
    window = shiftAt(at, clock.timeZone, clock.shiftTimes, offset);
    const current = offset === 0 ? window : shiftAt(at, clock.timeZone, clock.shiftTimes, 0);
    if (shiftsKept.size >= SHIFTS_KEPT_MAX) shiftsKept.clear();
    shiftsKept.set(key, { from: current.start.getTime(), to: current.end.getTime(), window });
  }
  return { start: new Date(window.start), end: new Date(window.end), label: window.label };
}

export function shiftDto(clock: HospitalClock, w: ShiftWindow): TShift {
  return {
    start: w.start.toISOString(),
    end: w.end.toISOString(),
    label: w.label,
    time_zone: clock.timeZone,
  };
}

export function shiftInfo(clock: HospitalClock, now: Date): TShiftInfo {
  return {
    current: shiftDto(clock, shiftOf(clock, now)),
    previous: shiftDto(clock, shiftOf(clock, now, -1)),
    next: shiftDto(clock, shiftOf(clock, now, 1)),
    shift_times: clock.shiftTimes,
  };
}

/** The departments a member works in: all of the hospital's when one membership has none. */
export interface MemberScope {
  all: boolean;
  departments: Set<string>;
  roleCodes: Set<string>;
}

export async function memberScope(q: Queryable, hospitalId: string, userId: string): Promise<MemberScope> {
  const rows = await activeMembershipsOf(q, hospitalId, userId);
  return scopeOf(rows.map((r) => ({ roleCode: r.role_code, departmentId: r.department_id })));
}

/**
 * The signed-in caller's scope in the request's hospital, from the active memberships her sign-in check read
 * (the auth cache's entry, dropped by the membership change notices of migration 0009): no statement.
 */
export function callerScope(ctx: ServiceContext): MemberScope {
  const hospitalId = scopedHospital(ctx).id;
  return scopeOf(actingUser(ctx).memberships.filter((m) => m.hospitalId === hospitalId));
}

function scopeOf(rows: { roleCode: string; departmentId: string | null }[]): MemberScope {
  return {
    all: rows.some((r) => r.departmentId === null),
    departments: new Set(rows.flatMap((r) => (r.departmentId ? [r.departmentId] : []))),
    roleCodes: new Set(rows.map((r) => r.roleCode.toUpperCase())),
  };
}

export const covers = (scope: MemberScope, departmentId: string) =>
  scope.all || scope.departments.has(departmentId);

/** A patient of a department the caller does not work in: 403 (the plan exists in the hospital). */
export function requireDepartment(scope: MemberScope, departmentId: string) {
  if (!covers(scope, departmentId)) throw forbidden('care.other_department');
}
