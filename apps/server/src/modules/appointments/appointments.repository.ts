import type { TAppointment, TAppointmentMove } from '@greensen/shared/contracts/appointments';
import type { AppointmentStatus, AppointmentType } from '@greensen/shared/domain/appointments';
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
import { sqlList } from '../../lib/queries.js';

/** Roles whose holders may have a schedule (they see patients): doctors, head doctors, midwives, nurses. */
export const PROVIDER_GROUPS = ['doctor', 'head_doctor', 'midwife', 'nurse'] as const;

/** The hospital's IANA time zone. */
export async function hospitalZone(q: Queryable, hospitalId: string): Promise<string> {
  const res = await q.execute<{ time_zone: string }>(
    sql`select time_zone from hospitals where id = ${hospitalId}`,
  );
  return res.rows[0]?.time_zone ?? 'UTC';
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
  await shiftPlaces(q, { hospitalId, providerId, startAt, overbooked }, -1);
}

/** Adds `by` to a slot's normal places, or to its overbookings. */
async function shiftPlaces(
  q: Queryable,
  p: { hospitalId: string; providerId: string; startAt: string; overbooked: boolean },
  by: 1 | -1,
) {
  await q.execute(sql`update appointment_slots set
      booked = booked + ${p.overbooked ? 0 : by}, overbooked = overbooked + ${p.overbooked ? by : 0}
    where hospital_id = ${p.hospitalId} and provider_id = ${p.providerId} and start_at = ${p.startAt}::timestamptz`);
}

// Appointments ----------------------------------------------------------------------------------------------

export type AppointmentRow = RefRow & {
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
};

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

/** An open appointment (booked or confirmed, of alias `a`): the ones a schedule change, an absence or a holiday affects. */
const OPEN_APPOINTMENT = sql`a.status in ('booked', 'confirmed')`;

/** Which open bookings a change affects: a schedule's, a provider's, or all the hospital's. */
export type BookingScope = { schedule: string } | { provider: string } | Record<string, never>;

const bookingScope = (scope: BookingScope): SQL =>
  'schedule' in scope
    ? sql`a.schedule_id = ${scope.schedule}`
    : 'provider' in scope
      ? sql`a.provider_id = ${scope.provider}`
      : sql`true`;

/** Open (booked or confirmed) appointments from `from` on, in `scope` (a 409's list of affected bookings). */
export async function openBookings(
  q: Queryable,
  hospitalId: string,
  from: Date,
  scope: BookingScope,
  until?: Date,
) {
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
    where a.hospital_id = ${hospitalId} and ${OPEN_APPOINTMENT}
      and a.start_at >= ${from.toISOString()}::timestamptz
      ${until ? sql`and a.start_at < ${until.toISOString()}::timestamptz` : sql``} and ${bookingScope(scope)}
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

/** Cancels those of `ids` still open, with the reason: the cancelled ones (their places are to be given back). */
export async function cancelOpenAppointments(
  q: Queryable,
  hospitalId: string,
  ids: readonly string[],
  reason: string,
  by: string,
) {
  const res = await q.execute<{
    id: string;
    provider_id: string;
    start_at: Date | string;
    overbooked: boolean;
  }>(sql`update appointments a set status = 'cancelled', cancel_reason = ${reason}, cancelled_at = now(),
      cancelled_by = ${by}, updated_at = now()
    where a.hospital_id = ${hospitalId} and a.id in (${sqlList(ids)}) and ${OPEN_APPOINTMENT}
    returning a.id, a.provider_id, a.start_at, a.overbooked`);
  return res.rows;
}

// Writes of one appointment -----------------------------------------------------------------------------------

/**
 * Takes a normal place of a slot: the counter row is upserted (locked) and `check (booked <= capacity)` refuses a
 * place beyond the capacity (a check violation, whatever the concurrency).
 */
export async function takeSlotPlace(
  q: Queryable,
  hospitalId: string,
  providerId: string,
  startAt: string,
  capacity: number,
) {
  await q.execute(sql`insert into appointment_slots (hospital_id, provider_id, start_at, capacity, booked)
    values (${hospitalId}, ${providerId}, ${startAt}::timestamptz, ${capacity}, 1)
    on conflict on constraint appointment_slots_pk do update
      set capacity = excluded.capacity, booked = appointment_slots.booked + 1`);
}

/** The counter row of a slot, created when missing, locked: its booked places and capacity. */
export async function lockSlotCounter(
  q: Queryable,
  hospitalId: string,
  providerId: string,
  startAt: string,
  capacity: number,
) {
  const res = await q.execute<{ booked: number; capacity: number }>(sql`insert into appointment_slots
      (hospital_id, provider_id, start_at, capacity, booked)
    values (${hospitalId}, ${providerId}, ${startAt}::timestamptz, ${capacity}, 0)
    on conflict on constraint appointment_slots_pk do update set capacity = appointment_slots.capacity
    returning booked, capacity`);
  const row = res.rows[0]!;
  return { booked: Number(row.booked), capacity: Number(row.capacity) };
}

/** Counts a place of a slot: a normal one, or an overbooking (apart from the capacity). */
export async function countPlace(
  q: Queryable,
  hospitalId: string,
  providerId: string,
  startAt: string,
  overbooked: boolean,
) {
  await shiftPlaces(q, { hospitalId, providerId, startAt, overbooked }, 1);
}

export async function insertAppointment(
  q: Queryable,
  a: {
    id: string;
    hospitalId: string;
    patient: string;
    provider: string;
    department: string;
    schedule: string;
    start: Date;
    end: Date;
    type: AppointmentType;
    reason: string;
    notes?: string | null | undefined;
    overbooked: boolean;
    by: string;
  },
) {
  await q.execute(sql`insert into appointments (id, hospital_id, patient_id, provider_id, department_id,
      schedule_id, start_at, end_at, appointment_type, reason, notes, overbooked, overbooked_by, booked_by)
    values (${a.id}, ${a.hospitalId}, ${a.patient}, ${a.provider}, ${a.department}, ${a.schedule},
      ${a.start.toISOString()}::timestamptz, ${a.end.toISOString()}::timestamptz, ${a.type},
      ${a.reason}, ${a.notes ?? null}, ${a.overbooked}, ${a.overbooked ? a.by : null}, ${a.by})`);
}

/** Changes the type, reason and notes of an appointment (`undefined`: unchanged). */
export async function updateAppointmentFields(
  q: Queryable,
  id: string,
  f: {
    appointment_type?: AppointmentType | undefined;
    reason?: string | undefined;
    notes?: string | null | undefined;
  },
) {
  await q.execute(sql`update appointments set
      appointment_type = coalesce(${f.appointment_type ?? null}::appointment_type, appointment_type),
      reason = coalesce(${f.reason ?? null}, reason),
      notes = ${f.notes !== undefined ? (f.notes ?? null) : sql`notes`}, updated_at = now()
    where id = ${id}`);
}

/** The status and its moment, of each transition that records nothing else. */
const PLAIN_TRANSITION = {
  confirmed: sql`status = 'confirmed', confirmed_at = now()`,
  no_show: sql`status = 'no_show', no_show_at = now()`,
  completed: sql`status = 'completed', completed_at = now()`,
} as const;

/** Sets a status that only records its moment (confirmed, no-show, completed). */
export async function markAppointment(q: Queryable, id: string, status: keyof typeof PLAIN_TRANSITION) {
  await q.execute(sql`update appointments set ${PLAIN_TRANSITION[status]}, updated_at = now()
    where id = ${id}`);
}

export async function cancelAppointment(q: Queryable, id: string, reason: string, by: string) {
  await q.execute(sql`update appointments set status = 'cancelled', cancel_reason = ${reason},
      cancelled_at = now(), cancelled_by = ${by}, updated_at = now()
    where id = ${id}`);
}

/** Moves an appointment to another slot, keeping where it was in `appointment_moves`. */
export async function moveAppointment(
  q: Queryable,
  hospitalId: string,
  a: LockedAppointment,
  to: {
    moveId: string;
    provider: string;
    department: string;
    schedule: string;
    start: Date;
    end: Date;
    overbooked: boolean;
    reason?: string | null | undefined;
    by: string;
  },
) {
  await q.execute(sql`insert into appointment_moves (id, hospital_id, appointment_id, from_start, from_end,
      from_provider_id, from_department_id, to_start, to_end, to_provider_id, to_department_id, reason, moved_by)
    values (${to.moveId}, ${hospitalId}, ${a.id}, ${new Date(a.start_at).toISOString()}::timestamptz,
      ${new Date(a.end_at).toISOString()}::timestamptz, ${a.provider_id}, ${a.department_id},
      ${to.start.toISOString()}::timestamptz, ${to.end.toISOString()}::timestamptz, ${to.provider}, ${to.department},
      ${to.reason ?? null}, ${to.by})`);
  await q.execute(sql`update appointments set provider_id = ${to.provider}, department_id = ${to.department},
      schedule_id = ${to.schedule}, start_at = ${to.start.toISOString()}::timestamptz,
      end_at = ${to.end.toISOString()}::timestamptz, overbooked = ${to.overbooked},
      overbooked_by = ${to.overbooked ? to.by : null}, reschedule_count = reschedule_count + 1, updated_at = now()
    where id = ${a.id}`);
}

/** Checks an appointment in, linked to the visit it opened. */
export async function markCheckedIn(q: Queryable, id: string, admissionId: string) {
  await q.execute(sql`update appointments set status = 'checked_in', checked_in_at = now(),
      admission_id = ${admissionId}, updated_at = now()
    where id = ${id}`);
}

// What a booking reads of the patient and the department -------------------------------------------------------

/** Whether the patient is the hospital's, and archived: null when not the hospital's. */
export async function patientArchival(q: Queryable, hospitalId: string, patientId: string) {
  const res = await q.execute<{ archived_at: Date | null }>(
    sql`select archived_at from patients where hospital_id = ${hospitalId} and id = ${patientId}`,
  );
  return res.rows[0] ? { archived: Boolean(res.rows[0].archived_at) } : null;
}

/** The record number and names of a patient (notification texts). */
export async function patientNames(q: Queryable, patientId: string) {
  const res = await q.execute<{ record_number: string; first_name: string; last_name: string }>(
    sql`select record_number, first_name, last_name from patients where id = ${patientId}`,
  );
  return res.rows[0] ?? null;
}

/** A department's kind ('' when unknown). */
export async function departmentKind(q: Queryable, departmentId: string): Promise<string> {
  const kind = await q.execute<{ kind: string }>(
    sql`select kind from departments where id = ${departmentId}`,
  );
  return kind.rows[0]?.kind ?? '';
}
