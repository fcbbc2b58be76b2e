import type { TSchedule, TScheduleCreate, TScheduleException } from '@greensen/shared/contracts/appointments';
import type { AppointmentType, SlotSchedule } from '@greensen/shared/domain/appointments';
import { type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { DEPARTMENT_REF_COLUMNS, fullName, isoRequired } from '../../lib/clinical.js';

// The SQL of providers' schedules, their exceptions and the hospital's holidays (issue 22, decision 0028); the
// rules (overlaps, affected bookings, who may) are in schedules.service.ts.

// Schedules -------------------------------------------------------------------------------------------------

interface ScheduleRow extends Record<string, unknown> {
  id: string;
  provider_id: string;
  pr_first: string;
  pr_last: string;
  d_id: string;
  d_code: string;
  d_name: string;
  d_kind: string;
  sessions: SlotSchedule['sessions'] | string;
  slot_minutes: number;
  capacity: number;
  types: AppointmentType[] | string;
  valid_from: string;
  valid_until: string | null;
  note: string | null;
  active: boolean;
  created_at: Date | string;
  updated_at: Date | string;
}

const SCHEDULE_SELECT = sql`select s.id, s.provider_id, pr.first_name as pr_first, pr.last_name as pr_last,
    ${DEPARTMENT_REF_COLUMNS}, s.sessions, s.slot_minutes, s.capacity, array_to_json(s.types) as types,
    s.valid_from::text as valid_from, s.valid_until::text as valid_until, s.note, s.active, s.created_at, s.updated_at
  from provider_schedules s join users pr on pr.id = s.provider_id join departments d on d.id = s.department_id`;

const jsonOf = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);

function toSchedule(r: ScheduleRow): TSchedule {
  return {
    id: r.id,
    provider: { id: r.provider_id, full_name: fullName(r.pr_first, r.pr_last) },
    department: { id: r.d_id, code: r.d_code, name: r.d_name, kind: r.d_kind },
    sessions: jsonOf(r.sessions) as TSchedule['sessions'],
    slot_minutes: Number(r.slot_minutes),
    capacity: Number(r.capacity),
    types: jsonOf(r.types),
    valid_from: r.valid_from,
    valid_until: r.valid_until,
    note: r.note,
    active: r.active,
    created_at: isoRequired(r.created_at),
    updated_at: isoRequired(r.updated_at),
  };
}

export async function findSchedule(q: Queryable, hospitalId: string, id: string, lock = false) {
  const res = await q.execute<ScheduleRow>(
    sql`${SCHEDULE_SELECT} where s.hospital_id = ${hospitalId} and s.id = ${id} ${lock ? sql`for update of s` : sql``}`,
  );
  return res.rows[0] ? toSchedule(res.rows[0]) : null;
}

export async function listSchedules(
  q: Queryable,
  hospitalId: string,
  f: { provider?: string | undefined; department?: string | undefined; active?: boolean | undefined },
  limit: number,
  offset: number,
) {
  const conds: SQL[] = [sql`s.hospital_id = ${hospitalId}`];
  if (f.provider) conds.push(sql`s.provider_id = ${f.provider}`);
  if (f.department) conds.push(sql`s.department_id = ${f.department}`);
  if (f.active !== undefined) conds.push(sql`s.active = ${f.active}`);
  const where = sql.join(conds, sql` and `);
  const rows = await q.execute<ScheduleRow>(
    sql`${SCHEDULE_SELECT} where ${where} order by pr.last_name, pr.first_name, s.valid_from, s.id
      limit ${limit} offset ${offset}`,
  );
  const counted = await q.execute<{ n: number }>(
    sql`select count(*)::int as n from provider_schedules s where ${where}`,
  );
  return { rows: rows.rows.map(toSchedule), count: Number(counted.rows[0]?.n ?? 0) };
}

/**
 * The active schedules valid over `[from, to]` of a provider or of a department, as slot expansion needs them
 * (one query, by the department or provider index).
 */
export async function slotSchedules(
  q: Queryable,
  hospitalId: string,
  target: { provider?: string | undefined; department?: string | undefined },
  from: string,
  to: string,
): Promise<(SlotSchedule & { provider_name: string })[]> {
  const conds: SQL[] = [
    sql`s.hospital_id = ${hospitalId}`,
    sql`s.active`,
    sql`s.valid_from <= ${to}::date`,
    sql`(s.valid_until is null or s.valid_until >= ${from}::date)`,
  ];
  if (target.provider) conds.push(sql`s.provider_id = ${target.provider}`);
  if (target.department) conds.push(sql`s.department_id = ${target.department}`);
  const res = await q.execute<ScheduleRow>(sql`${SCHEDULE_SELECT} where ${sql.join(conds, sql` and `)}`);
  return res.rows.map((r) => {
    const s = toSchedule(r);
    return {
      id: s.id,
      provider: s.provider.id,
      provider_name: s.provider.full_name,
      department: s.department.id,
      sessions: s.sessions,
      slot_minutes: s.slot_minutes,
      capacity: s.capacity,
      types: s.types,
      valid_from: s.valid_from,
      valid_until: s.valid_until,
    };
  });
}

// Exceptions and holidays -----------------------------------------------------------------------------------

interface ExceptionRow extends Record<string, unknown> {
  id: string;
  provider_id: string;
  pr_first: string;
  pr_last: string;
  start_date: string;
  end_date: string;
  kind: TScheduleException['kind'];
  reason: string | null;
  created_at: Date | string;
}

const toException = (r: ExceptionRow): TScheduleException => ({
  id: r.id,
  provider: { id: r.provider_id, full_name: fullName(r.pr_first, r.pr_last) },
  start_date: r.start_date,
  end_date: r.end_date,
  kind: r.kind,
  reason: r.reason,
  created_at: isoRequired(r.created_at),
});

/** Exceptions overlapping `[from, to]` (either bound optional), of one provider or of several. */
export async function listExceptions(
  q: Queryable,
  hospitalId: string,
  f: { providers?: readonly string[] | undefined; from?: string | undefined; to?: string | undefined },
  limit: number,
  offset: number,
) {
  const conds: SQL[] = [sql`e.hospital_id = ${hospitalId}`];
  if (f.providers)
    conds.push(
      f.providers.length
        ? sql`e.provider_id in (${sql.join(
            f.providers.map((p) => sql`${p}`),
            sql`, `,
          )})`
        : sql`false`,
    );
  if (f.from) conds.push(sql`e.end_date >= ${f.from}::date`);
  if (f.to) conds.push(sql`e.start_date <= ${f.to}::date`);
  const where = sql.join(conds, sql` and `);
  const rows = await q.execute<ExceptionRow>(sql`select e.id, e.provider_id, u.first_name as pr_first,
      u.last_name as pr_last, e.start_date::text as start_date, e.end_date::text as end_date, e.kind, e.reason,
      e.created_at
    from schedule_exceptions e join users u on u.id = e.provider_id where ${where}
    order by e.start_date, e.id limit ${limit} offset ${offset}`);
  const counted = await q.execute<{ n: number }>(
    sql`select count(*)::int as n from schedule_exceptions e where ${where}`,
  );
  return { rows: rows.rows.map(toException), count: Number(counted.rows[0]?.n ?? 0) };
}

/**
 * The absences over `from`–`to` of a provider, or of the providers who have an active schedule in a department (the
 * free-slot search: dates only, no names, no count, so that it runs beside the schedules' query).
 */
export async function absenceRanges(
  q: Queryable,
  hospitalId: string,
  target: { provider?: string | undefined; department?: string | undefined },
  from: string,
  to: string,
) {
  const who = target.provider
    ? sql`and e.provider_id = ${target.provider}`
    : target.department
      ? sql`and e.provider_id in (select s.provider_id from provider_schedules s
          where s.hospital_id = ${hospitalId} and s.department_id = ${target.department} and s.active)`
      : sql``;
  const res = await q.execute<{ provider_id: string; start_date: string; end_date: string }>(sql`select
      e.provider_id, e.start_date::text as start_date, e.end_date::text as end_date
    from schedule_exceptions e
    where e.hospital_id = ${hospitalId} and e.end_date >= ${from}::date and e.start_date <= ${to}::date ${who}`);
  return res.rows.map((r) => ({ provider: r.provider_id, start_date: r.start_date, end_date: r.end_date }));
}

export async function findException(q: Queryable, hospitalId: string, id: string) {
  const row = await q.execute<ExceptionRow>(sql`select e.id, e.provider_id, u.first_name as pr_first,
      u.last_name as pr_last, e.start_date::text as start_date, e.end_date::text as end_date, e.kind, e.reason,
      e.created_at
    from schedule_exceptions e join users u on u.id = e.provider_id
    where e.hospital_id = ${hospitalId} and e.id = ${id}`);
  return row.rows[0] ? toException(row.rows[0]) : null;
}

export async function holidayDates(q: Queryable, hospitalId: string, from: string, to: string) {
  const res = await q.execute<{ date: string }>(sql`select date::text as date from hospital_holidays
    where hospital_id = ${hospitalId} and date between ${from}::date and ${to}::date`);
  return res.rows.map((r) => r.date);
}

/** The fields of a schedule as written (a new one, or a change). */
interface ScheduleFields {
  sessions: TScheduleCreate['sessions'];
  slot_minutes: number;
  capacity: number;
  types: readonly AppointmentType[];
  valid_from: string;
  valid_until?: string | null | undefined;
}

export async function insertSchedule(
  q: Queryable,
  s: ScheduleFields & {
    id: string;
    hospitalId: string;
    provider: string;
    department: string;
    note?: string | null | undefined;
    by: string;
  },
) {
  await q.execute(sql`insert into provider_schedules (id, hospital_id, provider_id, department_id, sessions,
      slot_minutes, capacity, types, valid_from, valid_until, note, created_by, updated_by)
    values (${s.id}, ${s.hospitalId}, ${s.provider}, ${s.department}, ${JSON.stringify(s.sessions)}::jsonb,
      ${s.slot_minutes}, ${s.capacity}, ${`{${s.types.join(',')}}`}::appointment_type[],
      ${s.valid_from}::date, ${s.valid_until ?? null}::date, ${s.note ?? null}, ${s.by}, ${s.by})`);
}

export async function updateSchedule(
  q: Queryable,
  id: string,
  s: ScheduleFields & { note: string | null; by: string },
) {
  await q.execute(sql`update provider_schedules set sessions = ${JSON.stringify(s.sessions)}::jsonb,
      slot_minutes = ${s.slot_minutes}, capacity = ${s.capacity},
      types = ${`{${s.types.join(',')}}`}::appointment_type[], valid_from = ${s.valid_from}::date,
      valid_until = ${s.valid_until ?? null}::date,
      note = ${s.note},
      updated_at = now(), updated_by = ${s.by}
    where id = ${id}`);
}

/** Ends a schedule (kept for history). */
export async function deactivateSchedule(q: Queryable, id: string, by: string) {
  await q.execute(sql`update provider_schedules set active = false, updated_at = now(), updated_by = ${by}
    where id = ${id}`);
}

/** Serializes two changes of one provider's schedules (the overlap check reads the others). */
export async function lockProviderSchedules(q: Queryable, providerId: string) {
  await q.execute(sql`select id from users where id = ${providerId} for update`);
}

/** The role codes of a user's active memberships in the hospital (none when the user or they are inactive). */
export async function activeRolesOf(q: Queryable, hospitalId: string, userId: string): Promise<string[]> {
  const res = await q.execute<{ role_code: string }>(sql`select m.role_code from memberships m
    join users u on u.id = m.user_id
    where m.hospital_id = ${hospitalId} and m.user_id = ${userId} and m.is_active and u.is_active`);
  return res.rows.map((r) => r.role_code);
}

/** The kind of an active department of the hospital, or null. */
export async function activeDepartmentKind(q: Queryable, hospitalId: string, departmentId: string) {
  const res = await q.execute<{ kind: string }>(sql`select kind from departments
    where hospital_id = ${hospitalId} and id = ${departmentId} and is_active`);
  return res.rows[0]?.kind ?? null;
}

/** The providers with an active schedule (in a department), one row per provider and department, in name order. */
export async function scheduledProviders(q: Queryable, hospitalId: string, department: string | undefined) {
  const res = await q.execute<{
    id: string;
    first_name: string;
    last_name: string;
    d_id: string;
    d_code: string;
    d_name: string;
    d_kind: string;
  }>(sql`select distinct u.id, u.first_name, u.last_name, d.id as d_id, d.code as d_code, d.name as d_name,
      d.kind as d_kind
    from provider_schedules s join users u on u.id = s.provider_id join departments d on d.id = s.department_id
    where s.hospital_id = ${hospitalId} and s.active
      ${department ? sql`and s.department_id = ${department}` : sql``}
    order by u.last_name, u.first_name, u.id, d.name`);
  return res.rows;
}

/** The active members of the hospital with their role codes (a row per role), in name order. */
export async function activeMembers(q: Queryable, hospitalId: string) {
  const res = await q.execute<{
    id: string;
    first_name: string;
    last_name: string;
    role_code: string;
  }>(sql`select distinct u.id, u.first_name, u.last_name, m.role_code
    from memberships m join users u on u.id = m.user_id
    where m.hospital_id = ${hospitalId} and m.is_active and u.is_active
    order by u.last_name, u.first_name, u.id`);
  return res.rows;
}

export async function insertException(
  q: Queryable,
  e: {
    id: string;
    hospitalId: string;
    provider: string;
    start_date: string;
    end_date: string;
    kind: TScheduleException['kind'];
    reason?: string | null | undefined;
    by: string;
  },
) {
  await q.execute(sql`insert into schedule_exceptions (id, hospital_id, provider_id, start_date, end_date, kind,
      reason, created_by)
    values (${e.id}, ${e.hospitalId}, ${e.provider}, ${e.start_date}::date, ${e.end_date}::date, ${e.kind},
      ${e.reason ?? null}, ${e.by})`);
}

export async function deleteException(q: Queryable, id: string) {
  await q.execute(sql`delete from schedule_exceptions where id = ${id}`);
}

// Holidays --------------------------------------------------------------------------------------------------

interface HolidayRow extends Record<string, unknown> {
  id: string;
  date: string;
  name: string;
  created_at: Date | string;
}

const toHoliday = (r: HolidayRow) => ({ ...r, created_at: new Date(r.created_at).toISOString() });

export async function listHolidays(
  q: Queryable,
  hospitalId: string,
  f: { from?: string | undefined; to?: string | undefined },
  limit: number,
  offset: number,
) {
  const conds: SQL[] = [sql`hospital_id = ${hospitalId}`];
  if (f.from) conds.push(sql`date >= ${f.from}::date`);
  if (f.to) conds.push(sql`date <= ${f.to}::date`);
  const where = sql.join(conds, sql` and `);
  const rows = await q.execute<HolidayRow>(
    sql`select id, date::text as date, name, created_at from hospital_holidays where ${where}
      order by date limit ${limit} offset ${offset}`,
  );
  const counted = await q.execute<{ n: number }>(
    sql`select count(*)::int as n from hospital_holidays where ${where}`,
  );
  return { count: Number(counted.rows[0]?.n ?? 0), rows: rows.rows.map(toHoliday) };
}

export async function insertHoliday(
  q: Queryable,
  h: { id: string; hospitalId: string; date: string; name: string; by: string },
) {
  await q.execute(sql`insert into hospital_holidays (id, hospital_id, date, name, created_by)
    values (${h.id}, ${h.hospitalId}, ${h.date}::date, ${h.name}, ${h.by})`);
}

export async function findHoliday(q: Queryable, id: string) {
  const res = await q.execute<HolidayRow>(
    sql`select id, date::text as date, name, created_at from hospital_holidays where id = ${id}`,
  );
  return res.rows[0] ? toHoliday(res.rows[0]) : null;
}

/** Deletes a holiday of the hospital: its date, or null when there was none. */
export async function deleteHoliday(q: Queryable, hospitalId: string, id: string) {
  const res = await q.execute<{ date: string }>(
    sql`delete from hospital_holidays where hospital_id = ${hospitalId} and id = ${id} returning date::text as date`,
  );
  return res.rows[0]?.date ?? null;
}
