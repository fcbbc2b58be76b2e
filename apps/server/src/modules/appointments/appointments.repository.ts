import type {
  TAppointment,
  TAppointmentMove,
  TSchedule,
  TScheduleException,
} from '@greensen/shared/contracts/appointments';
import type { AppointmentStatus, AppointmentType, SlotSchedule } from '@greensen/shared/domain/appointments';
import { type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import {
  DEPARTMENT_REF_COLUMNS,
  departmentRef,
  fullName,
  iso,
  isoRequired,
  PATIENT_REF_COLUMNS,
  patientRef,
  personRef,
  type RefRow,
} from '../../lib/clinical.js';

/** Roles whose holders may have a schedule (they see patients): doctors, head doctors, midwives, nurses. */
export const PROVIDER_GROUPS = ['doctor', 'head_doctor', 'midwife', 'nurse'] as const;

/** The hospital's IANA time zone. */
export async function hospitalZone(q: Queryable, hospitalId: string): Promise<string> {
  const res = await q.execute<{ time_zone: string }>(
    sql`select time_zone from hospitals where id = ${hospitalId}`,
  );
  return res.rows[0]?.time_zone ?? 'UTC';
}

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

// Slot counters ---------------------------------------------------------------------------------------------

/** The booked counts of a provider's or a department's slots in `[from, to)`. Key: `provider|iso start`. */
export async function slotCounts(
  q: Queryable,
  hospitalId: string,
  providers: readonly string[],
  from: Date,
  to: Date,
): Promise<Map<string, number>> {
  if (providers.length === 0) return new Map();
  const res = await q.execute<{
    provider_id: string;
    start_at: Date | string;
    booked: number;
    overbooked: number;
  }>(
    sql`select provider_id, start_at, booked, overbooked from appointment_slots
      where hospital_id = ${hospitalId} and provider_id in (${sql.join(
        providers.map((p) => sql`${p}`),
        sql`, `,
      )}) and start_at >= ${from.toISOString()}::timestamptz and start_at < ${to.toISOString()}::timestamptz`,
  );
  return new Map(
    res.rows.map((r) => [
      `${r.provider_id}|${isoRequired(r.start_at)}`,
      Number(r.booked) + Number(r.overbooked),
    ]),
  );
}

/** Gives a place of a slot back (a cancellation or a move). */
export async function releasePlace(
  q: Queryable,
  hospitalId: string,
  providerId: string,
  startAt: string,
  overbooked: boolean,
) {
  await q.execute(sql`update appointment_slots set
      booked = booked - ${overbooked ? 0 : 1}, overbooked = overbooked - ${overbooked ? 1 : 0}
    where hospital_id = ${hospitalId} and provider_id = ${providerId} and start_at = ${startAt}::timestamptz`);
}

// Appointments ----------------------------------------------------------------------------------------------

export interface AppointmentRow extends RefRow {
  id: string;
  provider_id: string;
  pr_first: string;
  pr_last: string;
  schedule_id: string | null;
  start_at: Date | string;
  end_at: Date | string;
  appointment_type: AppointmentType;
  reason: string;
  notes: string | null;
  status: AppointmentStatus;
  cancel_reason: string | null;
  overbooked: boolean;
  overbooked_by: string | null;
  ob_first: string | null;
  ob_last: string | null;
  booked_by: string | null;
  bb_first: string | null;
  bb_last: string | null;
  created_at: Date | string;
  confirmed_at: Date | string | null;
  checked_in_at: Date | string | null;
  completed_at: Date | string | null;
  no_show_at: Date | string | null;
  cancelled_at: Date | string | null;
  admission_id: string | null;
  adm_status: string | null;
  adm_queue: number | null;
  reschedule_count: number;
}

const APPOINTMENT_FROM = sql`from appointments a join patients p on p.id = a.patient_id
  join departments d on d.id = a.department_id join users pr on pr.id = a.provider_id
  left join users ob on ob.id = a.overbooked_by left join users bb on bb.id = a.booked_by
  left join admissions adm on adm.id = a.admission_id`;

const APPOINTMENT_SELECT = sql`select a.id, a.provider_id, pr.first_name as pr_first, pr.last_name as pr_last,
    ${PATIENT_REF_COLUMNS}, ${DEPARTMENT_REF_COLUMNS}, a.schedule_id, a.start_at, a.end_at, a.appointment_type,
    a.reason, a.notes, a.status, a.cancel_reason, a.overbooked, a.overbooked_by, ob.first_name as ob_first,
    ob.last_name as ob_last, a.booked_by, bb.first_name as bb_first, bb.last_name as bb_last, a.created_at,
    a.confirmed_at, a.checked_in_at, a.completed_at, a.no_show_at, a.cancelled_at, a.admission_id,
    adm.status as adm_status, adm.queue_number as adm_queue, a.reschedule_count
  ${APPOINTMENT_FROM}`;

export function toAppointment(r: AppointmentRow): TAppointment {
  return {
    id: r.id,
    patient: patientRef(r),
    provider: { id: r.provider_id, full_name: fullName(r.pr_first, r.pr_last) },
    department: departmentRef(r),
    start: isoRequired(r.start_at),
    end: isoRequired(r.end_at),
    appointment_type: r.appointment_type,
    reason: r.reason,
    notes: r.notes,
    status: r.status,
    cancel_reason: r.cancel_reason,
    overbooked: r.overbooked,
    overbooked_by: personRef(r.overbooked_by, r.ob_first, r.ob_last),
    booked_by: personRef(r.booked_by, r.bb_first, r.bb_last),
    created_at: isoRequired(r.created_at),
    confirmed_at: iso(r.confirmed_at),
    checked_in_at: iso(r.checked_in_at),
    completed_at: iso(r.completed_at),
    no_show_at: iso(r.no_show_at),
    cancelled_at: iso(r.cancelled_at),
    admission:
      r.admission_id && r.adm_status
        ? { id: r.admission_id, status: r.adm_status, queue_number: Number(r.adm_queue) }
        : null,
    reschedule_count: Number(r.reschedule_count),
  };
}

export async function findAppointmentRow(q: Queryable, hospitalId: string, id: string) {
  const res = await q.execute<AppointmentRow>(
    sql`${APPOINTMENT_SELECT} where a.hospital_id = ${hospitalId} and a.id = ${id}`,
  );
  return res.rows[0] ?? null;
}

/** The appointment's own row, locked for a change (null when not in the hospital). */
export async function lockAppointment(q: Queryable, hospitalId: string, id: string) {
  const res = await q.execute<{
    id: string;
    patient_id: string;
    provider_id: string;
    department_id: string;
    schedule_id: string | null;
    start_at: Date | string;
    end_at: Date | string;
    appointment_type: AppointmentType;
    reason: string;
    status: AppointmentStatus;
    overbooked: boolean;
  }>(sql`select id, patient_id, provider_id, department_id, schedule_id, start_at, end_at, appointment_type,
      reason, status, overbooked
    from appointments where hospital_id = ${hospitalId} and id = ${id} for update`);
  return res.rows[0] ?? null;
}
export type LockedAppointment = NonNullable<Awaited<ReturnType<typeof lockAppointment>>>;

export interface AppointmentFilters {
  provider?: string | undefined;
  department?: string | undefined;
  patient?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  status?: readonly AppointmentStatus[] | undefined;
  appointment_type?: AppointmentType | undefined;
  ordering?: 'start' | '-start';
}

export async function listAppointments(
  q: Queryable,
  hospitalId: string,
  f: AppointmentFilters,
  limit: number,
  offset: number,
) {
  const conds: SQL[] = [sql`a.hospital_id = ${hospitalId}`];
  if (f.provider) conds.push(sql`a.provider_id = ${f.provider}`);
  if (f.department) conds.push(sql`a.department_id = ${f.department}`);
  if (f.patient) conds.push(sql`a.patient_id = ${f.patient}`);
  if (f.from) conds.push(sql`a.start_at >= ${f.from.toISOString()}::timestamptz`);
  if (f.to) conds.push(sql`a.start_at < ${f.to.toISOString()}::timestamptz`);
  if (f.status?.length)
    conds.push(
      sql`a.status in (${sql.join(
        f.status.map((s) => sql`${s}`),
        sql`, `,
      )})`,
    );
  if (f.appointment_type) conds.push(sql`a.appointment_type = ${f.appointment_type}`);
  const where = sql.join(conds, sql` and `);
  const order = f.ordering === '-start' ? sql`a.start_at desc, a.id desc` : sql`a.start_at, a.id`;
  const rows = await q.execute<AppointmentRow>(
    sql`${APPOINTMENT_SELECT} where ${where} order by ${order} limit ${limit} offset ${offset}`,
  );
  const counted = await q.execute<{ n: number }>(
    sql`select count(*)::int as n from appointments a where ${where}`,
  );
  return { rows: rows.rows.map(toAppointment), count: Number(counted.rows[0]?.n ?? 0) };
}

export async function appointmentMoves(q: Queryable, appointmentId: string): Promise<TAppointmentMove[]> {
  const res = await q.execute<{
    id: string;
    from_start: Date | string;
    from_end: Date | string;
    from_provider_id: string;
    fp_first: string;
    fp_last: string;
    to_start: Date | string;
    to_end: Date | string;
    to_provider_id: string;
    tp_first: string;
    tp_last: string;
    reason: string | null;
    moved_by: string | null;
    mb_first: string | null;
    mb_last: string | null;
    created_at: Date | string;
  }>(sql`select m.id, m.from_start, m.from_end, m.from_provider_id, fp.first_name as fp_first,
      fp.last_name as fp_last, m.to_start, m.to_end, m.to_provider_id, tp.first_name as tp_first,
      tp.last_name as tp_last, m.reason, m.moved_by, mb.first_name as mb_first, mb.last_name as mb_last, m.created_at
    from appointment_moves m join users fp on fp.id = m.from_provider_id join users tp on tp.id = m.to_provider_id
      left join users mb on mb.id = m.moved_by
    where m.appointment_id = ${appointmentId} order by m.created_at, m.id`);
  return res.rows.map((r) => ({
    id: r.id,
    from_start: isoRequired(r.from_start),
    from_end: isoRequired(r.from_end),
    from_provider: { id: r.from_provider_id, full_name: fullName(r.fp_first, r.fp_last) },
    to_start: isoRequired(r.to_start),
    to_end: isoRequired(r.to_end),
    to_provider: { id: r.to_provider_id, full_name: fullName(r.tp_first, r.tp_last) },
    reason: r.reason,
    moved_by: personRef(r.moved_by, r.mb_first, r.mb_last),
    moved_at: isoRequired(r.created_at),
  }));
}

/** Open (booked or confirmed) appointments from `from` on, matching `where` (a 409's list of affected bookings). */
export async function openBookings(q: Queryable, hospitalId: string, from: Date, where: SQL, until?: Date) {
  const res = await q.execute<{
    id: string;
    start_at: Date | string;
    record_number: string;
    first_name: string;
    last_name: string;
    provider_id: string;
    pr_first: string;
    pr_last: string;
    status: AppointmentStatus;
    schedule_id: string | null;
  }>(sql`select a.id, a.start_at, p.record_number, p.first_name, p.last_name, a.provider_id,
      pr.first_name as pr_first, pr.last_name as pr_last, a.status, a.schedule_id
    from appointments a join patients p on p.id = a.patient_id join users pr on pr.id = a.provider_id
    where a.hospital_id = ${hospitalId} and a.status in ('booked', 'confirmed')
      and a.start_at >= ${from.toISOString()}::timestamptz
      ${until ? sql`and a.start_at < ${until.toISOString()}::timestamptz` : sql``} and ${where}
    order by a.start_at, a.id limit 500`);
  return res.rows.map((r) => ({
    id: r.id,
    start: isoRequired(r.start_at),
    record_number: r.record_number,
    patient_name: fullName(r.first_name, r.last_name),
    provider: { id: r.provider_id, full_name: fullName(r.pr_first, r.pr_last) },
    status: r.status,
    schedule_id: r.schedule_id,
  }));
}
export type OpenBooking = Awaited<ReturnType<typeof openBookings>>[number];
