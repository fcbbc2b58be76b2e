import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { demo as ctx } from '../../../test/demo.js';
import { boardWards } from '../../modules/hospitalizations/beds.repository.js';
import { nursePatients } from '../../modules/hospitalizations/nurse-patients.repository.js';
import { seedScale, seedScaleBeds, seedScaleNurses, seedScaleRecords } from './scale.js';

it('seeds admissions in every state, triage on both scales and executions for the demo doctors', async () => {
  const db = ctx.database.db;
  const states = await db.execute<{ status: string }>(sql`select distinct status::text from admissions`);
  expect(states.rows.map((r) => r.status)).toEqual(
    expect.arrayContaining(['waiting', 'assigned', 'in_consultation', 'completed', 'cancelled']),
  );
  const scales = await db.execute<{ scale: string }>(sql`select distinct scale::text from triage_records`);
  expect(scales.rows.map((r) => r.scale).sort()).toEqual(['FRENCH', 'SATS']);
  const doctors = await db.execute<{ email: string }>(
    sql`select distinct u.email from executions e join users u on u.id = e.doctor_id`,
  );
  expect(doctors.rows.map((r) => r.email)).toEqual(
    expect.arrayContaining(['medecin@greensen.test', 'medecin2@greensen.test']),
  );
});

it('bulk-loads synthetic patients with continuing record numbers', async () => {
  const res = await seedScale(ctx.database.db, 1200, () => {}, 500);
  expect(res).toEqual({ hospital: 'HGG', inserted: 1200 });
  const rows = await ctx.database.db.execute<{ n: number; max: string }>(
    sql`select count(*)::int as n, max(record_number) as max from patients p join hospitals h on h.id = p.hospital_id where h.code = 'HGG'`,
  );
  const n = Number(rows.rows[0]!.n);
  expect(rows.rows[0]!.max).toBe(`HGG-${String(n).padStart(6, '0')}`);
});

it('seeds a floor of inpatients: beds occupied by their stays, patients waiting for a bed, a transfer, the nurse’s list', async () => {
  const db = ctx.database.db;
  const stays = await db.execute<{ status: string; n: number }>(
    sql`select status::text as status, count(*)::int as n from hospitalizations group by status`,
  );
  const by = Object.fromEntries(stays.rows.map((r) => [r.status, Number(r.n)]));
  expect(by.admitted).toBeGreaterThanOrEqual(5);
  expect(by.pending_bed).toBeGreaterThanOrEqual(2);
  expect(by.discharged).toBeGreaterThanOrEqual(1);
  // Every occupied bed is the bed of exactly one admitted stay, and the other way round.
  const beds = await db.execute<{ occupied: number; admitted: number; matched: number }>(sql`select
      (select count(*)::int from beds where status = 'occupied') as occupied,
      (select count(*)::int from hospitalizations where status = 'admitted') as admitted,
      (select count(*)::int from hospitalizations s join beds b on b.id = s.bed_id
        where s.status = 'admitted' and b.status = 'occupied') as matched`);
  const counts = beds.rows[0]!;
  expect([Number(counts.occupied), Number(counts.matched)]).toEqual([by.admitted, by.admitted]);
  expect(Number(counts.admitted)).toBe(by.admitted);
  const open = await db.execute<{ n: number }>(
    sql`select count(*)::int as n from transfers where status = 'requested'`,
  );
  expect(Number(open.rows[0]!.n)).toBe(1);
  const [nurse] = (
    await db.execute<{ id: string; hospital: string }>(sql`select u.id, m.hospital_id as hospital from users u
      join memberships m on m.user_id = u.id where u.email = 'infirmier@greensen.test'`)
  ).rows;
  const mine = await nursePatients(db, nurse!.hospital, nurse!.id, false, 'fr', 20, 0);
  expect(mine.count).toBeGreaterThanOrEqual(2);
  expect(mine.rows.some((r) => r.flags.includes('allergies'))).toBe(true);
  expect(mine.rows.some((r) => r.latest_vitals?.spo2 === 91)).toBe(true);
});

it('builds a 500-bed floor for the bed-board bench, mostly occupied, and the board reads it in one query', async () => {
  const res = await seedScaleBeds(ctx.database.db, 500);
  expect(res.beds).toBeGreaterThanOrEqual(500);
  const hospital = (
    await ctx.database.db.execute<{ id: string }>(sql`select id from hospitals where code = 'HGG'`)
  ).rows[0]!.id;
  const wards = await boardWards(ctx.database.db, hospital, {}, 'fr');
  const beds = wards.flatMap((w) => w.rooms.flatMap((r) => r.beds));
  expect(beds.length).toBe(res.beds);
  const occupied = beds.filter((b) => b.status === 'occupied');
  expect(occupied.length / beds.length).toBeGreaterThan(0.6);
  expect(occupied.every((b) => b.occupant !== null)).toBe(true);
  // A second run adds no bed.
  expect((await seedScaleBeds(ctx.database.db, 500)).beds).toBe(res.beds);
});

it('gives one record a long history (500 visits for the bench) and another 5, each visit with a consultation and an exam result; a second run adds none', async () => {
  const db = ctx.database.db;
  const res = await seedScaleRecords(db, { large: 40, small: 5 });
  expect(res.large.visits).toBe(40);
  expect(res.small.visits).toBe(5);
  const counts = async (patientId: string) =>
    (
      await db.execute<{ visits: number; consultations: number; results: number }>(sql`select
        (select count(*)::int from admissions where patient_id = ${patientId}) as visits,
        (select count(*)::int from consultations where patient_id = ${patientId} and status = 'completed') as consultations,
        (select count(*)::int from exam_orders where patient_id = ${patientId} and status = 'validated'
          and results is not null) as results`)
    ).rows[0]!;
  expect(await counts(res.large.id)).toEqual({ visits: 40, consultations: 40, results: 40 });
  expect(await counts(res.small.id)).toEqual({ visits: 5, consultations: 5, results: 5 });
  const again = await seedScaleRecords(db, { large: 40, small: 5 });
  expect([again.large.id, again.small.id]).toEqual([res.large.id, res.small.id]);
  expect(await counts(res.large.id)).toEqual({ visits: 40, consultations: 40, results: 40 });
});

it('adds nurses of the whole hospital for the sockets bench, once', async () => {
  const db = ctx.database.db;
  expect(await seedScaleNurses(db, 12)).toEqual({ hospital: 'HGG', nurses: 12 });
  expect(await seedScaleNurses(db, 12)).toEqual({ hospital: 'HGG', nurses: 12 });
  const hospital = (await db.execute<{ id: string }>(sql`select id from hospitals where code = 'HGG'`))
    .rows[0]!.id;
  const told = await db.execute<{ n: number }>(sql`select count(*)::int as n from memberships m
    join users u on u.id = m.user_id where m.hospital_id = ${hospital} and upper(m.role_code) = 'NURSE'
      and m.department_id is null and u.email like 'bench-nurse-%'`);
  expect(Number(told.rows[0]!.n)).toBe(12);
});
