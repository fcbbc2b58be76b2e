/**
 * The hospital's structure in SQL (issue 15): wards with their bed counts, a ward's rooms and beds, and the
 * locks the rules need (a bed, a room's or a ward's occupied beds). Every query filters on the hospital.
 */
import type {
  TBed,
  TDepartmentCreate,
  THospitalCreate,
  TRoom,
  TWard,
  TWardCreate,
} from '@greensen/shared/contracts/structure';
import { ROLE_CODES, ROLE_GROUPS } from '@greensen/shared/domain/roles';
import { and, eq, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import {
  beds,
  departments,
  hospitalLogos,
  hospitals,
  memberships,
  rooms,
  wards,
} from '../../db/schema/index.js';
import { textArray } from '../../lib/clinical.js';

type WardRow = {
  id: string;
  name: string;
  code: string;
  category: string | null;
  sex_restriction: 'F' | 'M' | null;
  min_age: number | null;
  max_age: number | null;
  is_active: boolean;
  d_id: string;
  d_code: string;
  d_name: string;
  d_kind: string;
  rooms: number;
  total: number;
  free: number;
  occupied: number;
  cleaning: number;
  out_of_service: number;
};

/** A ward with its department and, counted in one pass, its active rooms and the beds of those by status. */
const WARD_SELECT = sql`select w.id, w.name, w.code, w.category, w.sex_restriction::text as sex_restriction,
    w.min_age, w.max_age, w.is_active, d.id as d_id, d.code as d_code, d.name as d_name, d.kind::text as d_kind,
    (select count(*)::int from rooms r where r.ward_id = w.id and r.is_active) as rooms,
    coalesce(b.total, 0) as total, coalesce(b.free, 0) as free, coalesce(b.occupied, 0) as occupied,
    coalesce(b.cleaning, 0) as cleaning, coalesce(b.out_of_service, 0) as out_of_service
  from wards w
  join departments d on d.id = w.department_id
  left join lateral (
    select count(*)::int as total,
      count(*) filter (where bd.status = 'free')::int as free,
      count(*) filter (where bd.status = 'occupied')::int as occupied,
      count(*) filter (where bd.status = 'cleaning')::int as cleaning,
      count(*) filter (where bd.status = 'out_of_service')::int as out_of_service
    from beds bd join rooms r on r.id = bd.room_id
    where r.ward_id = w.id and r.is_active and bd.is_active
  ) b on true`;

function toWard(r: WardRow): TWard {
  return {
    id: r.id,
    department: { id: r.d_id, code: r.d_code, name: r.d_name, kind: r.d_kind },
    name: r.name,
    code: r.code,
    category: r.category,
    sex_restriction: r.sex_restriction,
    min_age: r.min_age === null ? null : Number(r.min_age),
    max_age: r.max_age === null ? null : Number(r.max_age),
    is_active: r.is_active,
    rooms: Number(r.rooms),
    beds: {
      total: Number(r.total),
      free: Number(r.free),
      occupied: Number(r.occupied),
      cleaning: Number(r.cleaning),
      out_of_service: Number(r.out_of_service),
    },
  };
}

export async function listWards(
  q: Queryable,
  hospitalId: string,
  filters: { department?: string | undefined; includeInactive?: boolean | undefined },
  limit: number,
  offset: number,
) {
  const cond = sql`w.hospital_id = ${hospitalId}
    ${filters.department ? sql`and w.department_id = ${filters.department}` : sql``}
    ${filters.includeInactive ? sql`` : sql`and w.is_active`}`;
  const rows = await q.execute<WardRow>(
    sql`${WARD_SELECT} where ${cond} order by d.name, w.name, w.id limit ${limit} offset ${offset}`,
  );
  const counted = await q.execute<{ n: number }>(sql`select count(*)::int as n from wards w where ${cond}`);
  return { rows: rows.rows.map(toWard), count: Number(counted.rows[0]?.n ?? 0) };
}

export async function findWard(q: Queryable, hospitalId: string, id: string): Promise<TWard | null> {
  const res = await q.execute<WardRow>(
    sql`${WARD_SELECT} where w.hospital_id = ${hospitalId} and w.id = ${id}`,
  );
  return res.rows[0] ? toWard(res.rows[0]) : null;
}

/** A ward's rooms with their beds, active ones first, in their order. */
export async function roomsOfWard(q: Queryable, hospitalId: string, wardId: string): Promise<TRoom[]> {
  const res = await q.execute<{
    r_id: string;
    r_name: string;
    r_active: boolean;
    b_id: string | null;
    b_label: string | null;
    b_status: TBed['status'] | null;
    b_reason: string | null;
    b_active: boolean | null;
  }>(sql`select r.id as r_id, r.name as r_name, r.is_active as r_active, b.id as b_id, b.label as b_label,
      b.status::text as b_status, b.status_reason as b_reason, b.is_active as b_active
    from rooms r left join beds b on b.room_id = r.id
    where r.hospital_id = ${hospitalId} and r.ward_id = ${wardId}
    order by r.is_active desc, r.name, r.id, b.is_active desc, b.sort_order, b.label, b.id`);
  const rooms = new Map<string, TRoom>();
  for (const row of res.rows) {
    let room = rooms.get(row.r_id);
    if (!room) {
      room = { id: row.r_id, name: row.r_name, is_active: row.r_active, beds: [] };
      rooms.set(row.r_id, room);
    }
    if (row.b_id)
      room.beds.push({
        id: row.b_id,
        label: row.b_label ?? '',
        status: row.b_status ?? 'free',
        status_reason: row.b_reason,
        is_active: row.b_active ?? true,
      });
  }
  return [...rooms.values()];
}

/** Locks a bed of the hospital for a change: `{id, room_id, ward_id, status, is_active}` or null. */
export async function lockBed(q: Queryable, hospitalId: string, id: string) {
  const res = await q.execute<{
    id: string;
    room_id: string;
    ward_id: string;
    status: TBed['status'];
    is_active: boolean;
  }>(
    sql`select b.id, b.room_id, r.ward_id, b.status::text as status, b.is_active
      from beds b join rooms r on r.id = b.room_id
      where b.hospital_id = ${hospitalId} and b.id = ${id} for update of b`,
  );
  return res.rows[0] ?? null;
}

/** Locks a room of the hospital and its beds: `{id, ward_id, occupied}` (occupied beds) or null. */
export async function lockRoom(q: Queryable, hospitalId: string, id: string) {
  const res = await q.execute<{ id: string; ward_id: string }>(
    sql`select id, ward_id from rooms where hospital_id = ${hospitalId} and id = ${id} for update`,
  );
  const room = res.rows[0];
  if (!room) return null;
  const occupied = await q.execute<{ n: number }>(
    sql`select count(*)::int as n from (select 1 from beds where room_id = ${id} and status = 'occupied' for update) t`,
  );
  return { ...room, occupied: Number(occupied.rows[0]?.n ?? 0) };
}

/** Locks a ward of the hospital: `{id, occupied}` (occupied beds of its rooms) or null. */
export async function lockWard(q: Queryable, hospitalId: string, id: string) {
  const res = await q.execute<{ id: string }>(
    sql`select id from wards where hospital_id = ${hospitalId} and id = ${id} for update`,
  );
  if (!res.rows[0]) return null;
  const occupied = await q.execute<{ n: number }>(
    sql`select count(*)::int as n from (select 1 from beds b join rooms r on r.id = b.room_id
      where r.ward_id = ${id} and b.status = 'occupied' for update of b) t`,
  );
  return { id, occupied: Number(occupied.rows[0]?.n ?? 0) };
}

/** The labels already used in a room (case-insensitively compared by the caller). */
export async function bedLabelsOfRoom(q: Queryable, roomId: string): Promise<string[]> {
  const res = await q.execute<{ label: string }>(sql`select label from beds where room_id = ${roomId}`);
  return res.rows.map((r) => r.label);
}

/** The next sort positions of a room's beds. */
export async function nextBedOrder(q: Queryable, roomId: string): Promise<number> {
  const res = await q.execute<{ n: number }>(
    sql`select coalesce(max(sort_order), 0)::int as n from beds where room_id = ${roomId}`,
  );
  return Number(res.rows[0]?.n ?? 0) + 1;
}

export async function departmentOf(q: Queryable, hospitalId: string, id: string) {
  const res = await q.execute<{ id: string; is_active: boolean }>(
    sql`select id, is_active from departments where hospital_id = ${hospitalId} and id = ${id}`,
  );
  return res.rows[0] ?? null;
}

/** Whether `userId` holds an active role in the hospital (a head of department must). */
export async function isMember(q: Queryable, hospitalId: string, userId: string) {
  const res = await q.execute<{ id: string }>(
    sql`select m.user_id as id from memberships m join users u on u.id = m.user_id
      where m.hospital_id = ${hospitalId} and m.user_id = ${userId} and m.is_active and u.is_active limit 1`,
  );
  return res.rows.length > 0;
}

/** Active wards of a department (a department with some cannot be deactivated). */
export async function activeWardsOf(q: Queryable, departmentId: string) {
  const res = await q.execute<{ n: number }>(
    sql`select count(*)::int as n from wards where department_id = ${departmentId} and is_active`,
  );
  return Number(res.rows[0]?.n ?? 0);
}

/** A department of the hospital with its head: the shape of the department list. */
export async function findDepartment(q: Queryable, hospitalId: string, id: string) {
  const res = await q.execute<{
    id: string;
    code: string;
    name: string;
    kind: string;
    is_active: boolean;
    head_id: string | null;
    head_first: string | null;
    head_last: string | null;
  }>(sql`select d.id, d.code, d.name, d.kind::text as kind, d.is_active, u.id as head_id,
      u.first_name as head_first, u.last_name as head_last
    from departments d left join users u on u.id = d.head_user_id
    where d.hospital_id = ${hospitalId} and d.id = ${id}`);
  const r = res.rows[0];
  if (!r) return null;
  return {
    id: r.id,
    code: r.code,
    name: r.name,
    kind: r.kind,
    is_active: r.is_active,
    head: r.head_id ? { id: r.head_id, full_name: `${r.head_first} ${r.head_last}` } : null,
  };
}

/** Inserts a hospital (its code and currency in capitals); its id. A code already used is a unique violation. */
export async function insertHospital(q: Queryable, body: THospitalCreate): Promise<string> {
  const [row] = await q
    .insert(hospitals)
    .values({
      name: body.name,
      code: body.code.toUpperCase(),
      timeZone: body.time_zone,
      currency: body.currency.toUpperCase(),
      triageScale: body.triage_scale,
      address: body.address ?? null,
      phones: body.phones ?? [],
      languages: body.languages ?? ['fr', 'en'],
      printHeader: body.print_header ?? null,
      printFooter: body.print_footer ?? null,
    })
    .returning({ id: hospitals.id });
  return row!.id;
}

/** A hospital as administrators see it (the details printed documents and clocks use). */
export async function findHospital(q: Queryable, id: string) {
  const res = await q.execute<{
    id: string;
    name: string;
    code: string;
    time_zone: string;
    currency: string;
    triage_scale: 'FRENCH' | 'SATS';
    address: string | null;
    phones: string[] | string;
    languages: string[] | string;
    print_header: string | null;
    print_footer: string | null;
    is_active: boolean;
    has_logo: boolean;
  }>(sql`select id, name, code, time_zone, currency, triage_scale::text as triage_scale, address,
      array_to_json(phones) as phones, array_to_json(languages) as languages, print_header, print_footer, is_active,
      exists (select 1 from hospital_logos l where l.hospital_id = hospitals.id) as has_logo
    from hospitals where id = ${id}`);
  const r = res.rows[0];
  if (!r) return null;
  return { ...r, phones: textArray(r.phones), languages: textArray(r.languages) };
}

/** The role codes of the administrators' group (specification §6). */
const ADMIN_ROLE_CODES = ROLE_CODES.filter((code) => ROLE_GROUPS[code] === 'admin');

/** The other active hospitals `userId` administers (deactivating one must leave them somewhere to work). */
export async function otherAdministeredHospitals(q: Queryable, userId: string, except: string) {
  const res = await q.execute<{ n: number }>(
    sql`select count(distinct m.hospital_id)::int as n from memberships m join hospitals h on h.id = m.hospital_id
      where m.user_id = ${userId} and m.is_active and h.is_active and m.hospital_id <> ${except}
        and m.role_code in (${sql.join(
          ADMIN_ROLE_CODES.map((c) => sql`${c}`),
          sql`, `,
        )})`,
  );
  return Number(res.rows[0]?.n ?? 0);
}

// Writes ----------------------------------------------------------------------------------------------------

/** Makes `userId` an administrator of the hospital (the first member of a hospital just created). */
export async function insertAdministrator(q: Queryable, userId: string, hospitalId: string) {
  await q.insert(memberships).values({ userId, hospitalId, roleCode: 'ADMIN' });
}

/** Writes the given columns of a hospital. */
export async function updateHospitalColumns(
  q: Queryable,
  id: string,
  values: Partial<typeof hospitals.$inferInsert>,
) {
  await q.update(hospitals).set(values).where(eq(hospitals.id, id));
}

/** The hospital's logo row, or null. */
export async function findLogo(q: Queryable, hospitalId: string) {
  const [row] = await q.select().from(hospitalLogos).where(eq(hospitalLogos.hospitalId, hospitalId));
  return row ?? null;
}

/** Stores the hospital's logo, replacing the one it had. */
export async function upsertLogo(
  q: Queryable,
  hospitalId: string,
  values: Omit<typeof hospitalLogos.$inferInsert, 'hospitalId'>,
) {
  await q
    .insert(hospitalLogos)
    .values({ hospitalId, ...values })
    .onConflictDoUpdate({ target: hospitalLogos.hospitalId, set: values });
}

export async function deleteLogo(q: Queryable, hospitalId: string) {
  await q.delete(hospitalLogos).where(eq(hospitalLogos.hospitalId, hospitalId));
}

/** Inserts a department (its code in capitals); its id. A code already used is a unique violation. */
export async function insertDepartment(q: Queryable, hospitalId: string, body: TDepartmentCreate) {
  const [row] = await q
    .insert(departments)
    .values({
      hospitalId,
      name: body.name,
      code: body.code.toUpperCase(),
      kind: body.kind,
      headUserId: body.head ?? null,
    })
    .returning({ id: departments.id });
  return row!.id;
}

/** Writes the given columns of a department of the hospital. A code already used is a unique violation. */
export async function updateDepartmentColumns(
  q: Queryable,
  hospitalId: string,
  id: string,
  values: Partial<typeof departments.$inferInsert>,
) {
  await q
    .update(departments)
    .set(values)
    .where(and(eq(departments.id, id), eq(departments.hospitalId, hospitalId)));
}

/** Inserts a ward (its code in capitals); its id. A code already used is a unique violation. */
export async function insertWard(q: Queryable, hospitalId: string, body: TWardCreate) {
  const [row] = await q
    .insert(wards)
    .values({
      hospitalId,
      departmentId: body.department,
      name: body.name,
      code: body.code.toUpperCase(),
      category: body.category ?? null,
      sexRestriction: body.sex_restriction ?? null,
      minAge: body.min_age ?? null,
      maxAge: body.max_age ?? null,
    })
    .returning({ id: wards.id });
  return row!.id;
}

/** Writes the given columns of a ward of the hospital. A code already used is a unique violation. */
export async function updateWardColumns(
  q: Queryable,
  hospitalId: string,
  id: string,
  values: Partial<typeof wards.$inferInsert>,
) {
  await q
    .update(wards)
    .set(values)
    .where(and(eq(wards.id, id), eq(wards.hospitalId, hospitalId)));
}

/** Inserts a room of a ward; its id. A name already used in the ward is a unique violation. */
export async function insertRoom(q: Queryable, hospitalId: string, wardId: string, name: string) {
  const [row] = await q.insert(rooms).values({ hospitalId, wardId, name }).returning({ id: rooms.id });
  return row!.id;
}

/** Writes the given columns of a room of the hospital. A name already used in the ward is a unique violation. */
export async function updateRoomColumns(
  q: Queryable,
  hospitalId: string,
  id: string,
  values: Partial<typeof rooms.$inferInsert>,
) {
  await q
    .update(rooms)
    .set(values)
    .where(and(eq(rooms.id, id), eq(rooms.hospitalId, hospitalId)));
}

/** Inserts beds in a room, in the labels' order, sorted from `firstOrder` on. */
export async function insertBeds(
  q: Queryable,
  hospitalId: string,
  roomId: string,
  labels: readonly string[],
  firstOrder: number,
) {
  await q
    .insert(beds)
    .values(labels.map((label, i) => ({ hospitalId, roomId, label, sortOrder: firstOrder + i })));
}

/** Writes the given columns of a bed of the hospital. */
export async function updateBedColumns(
  q: Queryable,
  hospitalId: string,
  id: string,
  values: Partial<typeof beds.$inferInsert>,
) {
  await q
    .update(beds)
    .set(values)
    .where(and(eq(beds.id, id), eq(beds.hospitalId, hospitalId)));
}
