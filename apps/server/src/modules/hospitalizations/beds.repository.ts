/**
 * Beds in SQL (issues 17 and 37): the bed board in one query, a bed locked with its ward's rules, the room's
 * neighbours, and the writes of a placement (assignments and bed states). Every read filters on the hospital.
 */
import type { TBoardBed, TBoardWard } from '@greensen/shared/contracts/hospitalizations';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { bedAssignments, beds } from '../../db/schema/index.js';
import {
  DEPARTMENT_REF_COLUMNS,
  departmentRef,
  PATIENT_REF_COLUMNS,
  patientRef,
  personRef,
  type RefRow,
} from '../../lib/clinical.js';
import type { Lang } from '../../lib/i18n.js';
import { icdLabel } from './hospitalizations.repository.js';
import { OPEN_TRANSFER } from './transfers.repository.js';

/** Locks a bed of the hospital with its ward's rules (active room and ward). */
export async function lockBedForStay(q: Queryable, hospitalId: string, id: string) {
  const res = await q.execute<{
    id: string;
    label: string;
    status: TBoardBed['status'];
    usable: boolean;
    ward_id: string;
    ward_name: string;
    room_id: string;
    department_id: string;
    department_name: string;
    sex_restriction: 'F' | 'M' | null;
    min_age: number | null;
    max_age: number | null;
  }>(sql`select b.id, b.label, b.status::text as status, (b.is_active and r.is_active and w.is_active) as usable,
      w.id as ward_id, w.name as ward_name, r.id as room_id, w.department_id, d.name as department_name,
      w.sex_restriction::text as sex_restriction, w.min_age, w.max_age
    from beds b join rooms r on r.id = b.room_id join wards w on w.id = r.ward_id
      join departments d on d.id = w.department_id
    where b.hospital_id = ${hospitalId} and b.id = ${id} for update of b`);
  return res.rows[0] ?? null;
}
export type LockedBed = NonNullable<Awaited<ReturnType<typeof lockBedForStay>>>;

/** A bed with its ward's rules, unlocked (the bed board's check before a placement). */
export async function bedForStay(q: Queryable, hospitalId: string, id: string): Promise<LockedBed | null> {
  const res = await q.execute<LockedBed>(sql`select b.id, b.label, b.status::text as status,
      (b.is_active and r.is_active and w.is_active) as usable, w.id as ward_id, w.name as ward_name,
      r.id as room_id, w.department_id, d.name as department_name, w.sex_restriction::text as sex_restriction,
      w.min_age, w.max_age
    from beds b join rooms r on r.id = b.room_id join wards w on w.id = r.ward_id
      join departments d on d.id = w.department_id
    where b.hospital_id = ${hospitalId} and b.id = ${id}`);
  return res.rows[0] ?? null;
}

/** The sex of the patients lying in the other beds of a room (its open assignments), the stay `except` aside. */
export async function roomNeighbourSexes(
  q: Queryable,
  roomId: string,
  except: string,
): Promise<('F' | 'M')[]> {
  const res = await q.execute<{ sex: 'F' | 'M' }>(sql`select distinct p.sex::text as sex
    from beds b join bed_assignments ba on ba.bed_id = b.id and ba.ended_at is null
      join hospitalizations s on s.id = ba.hospitalization_id join patients p on p.id = s.patient_id
    where b.room_id = ${roomId} and s.id <> ${except}`);
  return res.rows.map((r) => r.sex);
}

// The bed board --------------------------------------------------------------------------------------------

type BoardRow = RefRow & {
  w_id: string;
  w_code: string;
  w_name: string;
  w_sex: 'F' | 'M' | null;
  w_min: number | null;
  w_max: number | null;
  r_id: string | null;
  r_name: string | null;
  b_id: string | null;
  b_label: string | null;
  b_status: TBoardBed['status'] | null;
  b_reason: string | null;
  s_id: string | null;
  s_days: number | null;
  icd_code: string | null;
  icd_fr: string | null;
  icd_en: string | null;
  u_id: string | null;
  u_first: string | null;
  u_last: string | null;
  open_transfer: string | null;
};

/**
 * Every active ward of the hospital with its active rooms and beds and each bed's occupant, in one query (a
 * 500-bed hospital is one round trip; the stays are found by their bed through `hospitalizations_bed_uq`).
 */
export async function boardWards(
  q: Queryable,
  hospitalId: string,
  filters: { ward?: string | undefined; department?: string | undefined },
  lang: Lang,
): Promise<TBoardWard[]> {
  const res = await q.execute<BoardRow>(sql`select w.id as w_id, w.code as w_code, w.name as w_name,
      w.sex_restriction::text as w_sex, w.min_age as w_min, w.max_age as w_max, ${DEPARTMENT_REF_COLUMNS},
      r.id as r_id, r.name as r_name, b.id as b_id, b.label as b_label, b.status::text as b_status,
      b.status_reason as b_reason, s.id as s_id,
      ((now() at time zone ho.time_zone)::date - (s.requested_at at time zone ho.time_zone)::date + 1)::int as s_days,
      s.provisional_icd_code as icd_code, i.label_fr as icd_fr, i.label_en as icd_en,
      u.id as u_id, u.first_name as u_first, u.last_name as u_last,
      (select t.id from transfers t where t.hospitalization_id = s.id and t.status in ${OPEN_TRANSFER}
        limit 1) as open_transfer,
      ${PATIENT_REF_COLUMNS}
    from wards w
    join hospitals ho on ho.id = w.hospital_id
    join departments d on d.id = w.department_id
    left join rooms r on r.ward_id = w.id and r.is_active
    left join beds b on b.room_id = r.id and b.is_active
    left join hospitalizations s on s.bed_id = b.id
    left join patients p on p.id = s.patient_id
    left join users u on u.id = s.doctor_id
    left join icd10_codes i on i.code = s.provisional_icd_code
    where w.hospital_id = ${hospitalId} and w.is_active
      ${filters.ward ? sql`and w.id = ${filters.ward}` : sql``}
      ${filters.department ? sql`and w.department_id = ${filters.department}` : sql``}
    order by d.name, w.name, w.id, r.name, r.id, b.sort_order, b.label, b.id`);
  const wards = new Map<string, TBoardWard>();
  for (const row of res.rows) {
    let ward = wards.get(row.w_id);
    if (!ward) {
      ward = {
        id: row.w_id,
        code: row.w_code,
        name: row.w_name,
        department: departmentRef(row),
        sex_restriction: row.w_sex,
        min_age: row.w_min === null ? null : Number(row.w_min),
        max_age: row.w_max === null ? null : Number(row.w_max),
        beds: { total: 0, free: 0, occupied: 0, cleaning: 0, out_of_service: 0 },
        rooms: [],
      };
      wards.set(row.w_id, ward);
    }
    if (!row.r_id) continue;
    let room = ward.rooms.at(-1);
    if (room?.id !== row.r_id) {
      room = { id: row.r_id, name: row.r_name ?? '', beds: [] };
      ward.rooms.push(room);
    }
    if (!row.b_id || !row.b_status) continue;
    ward.beds.total += 1;
    ward.beds[row.b_status] += 1;
    room.beds.push({
      id: row.b_id,
      label: row.b_label ?? '',
      status: row.b_status,
      status_reason: row.b_reason,
      occupant:
        row.s_id && row.p_id
          ? {
              hospitalization: row.s_id,
              patient: patientRef(row),
              days: Number(row.s_days),
              main_diagnosis: icdLabel(lang, row.icd_code, row.icd_fr, row.icd_en),
              doctor: personRef(row.u_id, row.u_first, row.u_last)!,
              open_transfer: row.open_transfer,
            }
          : null,
    });
  }
  return [...wards.values()];
}

/** Opens the stay's assignment to a bed. */
export async function insertBedAssignment(q: Queryable, values: typeof bedAssignments.$inferInsert) {
  await q.insert(bedAssignments).values(values);
}

/** Ends the stay's current assignment (the one not ended). */
export async function endCurrentAssignment(q: Queryable, stayId: string, now: Date) {
  await q
    .update(bedAssignments)
    .set({ endedAt: now })
    .where(and(eq(bedAssignments.hospitalizationId, stayId), isNull(bedAssignments.endedAt)));
}

/** A bed now lies the patient: occupied, its out-of-service reason cleared. */
export async function markBedOccupied(q: Queryable, bedId: string, now: Date) {
  await q
    .update(beds)
    .set({ status: 'occupied', statusReason: null, updatedAt: now })
    .where(eq(beds.id, bedId));
}

/** A bed the patient left goes to cleaning. */
export async function markBedCleaning(q: Queryable, bedId: string, now: Date) {
  await q.update(beds).set({ status: 'cleaning', updatedAt: now }).where(eq(beds.id, bedId));
}

/** Housekeeping's state of a bed (`free` or `cleaning`); answers the bed as the board shows it. */
export async function setBedHousekeeping(q: Queryable, bedId: string, status: 'free' | 'cleaning') {
  const [row] = await q
    .update(beds)
    .set({ status, updatedAt: new Date() })
    .where(eq(beds.id, bedId))
    .returning({ id: beds.id, label: beds.label, status: beds.status, reason: beds.statusReason });
  return row!;
}
