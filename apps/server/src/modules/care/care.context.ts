import type { TShift, TShiftInfo } from '@greensen/shared/contracts/care';
import { type ShiftWindow, shiftAt } from '@greensen/shared/domain/care';
import { sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { forbidden } from '../../lib/errors.js';
import { findHospitalSettings } from '../hospital-settings/hospital-settings.repository.js';

/** The hospital's time zone and shift times. */
export interface HospitalClock {
  timeZone: string;
  shiftTimes: string[];
}

export async function hospitalClock(q: Queryable, hospitalId: string): Promise<HospitalClock> {
  const [zone, settings] = await Promise.all([
    q.execute<{ time_zone: string }>(sql`select time_zone from hospitals where id = ${hospitalId}`),
    findHospitalSettings(q, hospitalId),
  ]);
  return { timeZone: zone.rows[0]?.time_zone ?? 'UTC', shiftTimes: settings.shift_times };
}

export function shiftOf(clock: HospitalClock, at: Date, offset = 0): ShiftWindow {
  return shiftAt(at, clock.timeZone, clock.shiftTimes, offset);
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
  const res = await q.execute<{ role_code: string; department_id: string | null }>(
    sql`select upper(role_code) as role_code, department_id from memberships
      where hospital_id = ${hospitalId} and user_id = ${userId} and is_active`,
  );
  return {
    all: res.rows.some((r) => r.department_id === null),
    departments: new Set(res.rows.flatMap((r) => (r.department_id ? [r.department_id] : []))),
    roleCodes: new Set(res.rows.map((r) => r.role_code)),
  };
}

export const covers = (scope: MemberScope, departmentId: string) =>
  scope.all || scope.departments.has(departmentId);

/** A patient of a department the caller does not work in: 403 (the plan exists in the hospital). */
export function requireDepartment(scope: MemberScope, departmentId: string) {
  if (!covers(scope, departmentId)) throw forbidden('care.other_department');
}
