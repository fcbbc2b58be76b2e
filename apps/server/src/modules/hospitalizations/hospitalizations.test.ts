import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import {
  call,
  completedConsultation,
  insertTestIcd10,
  startedConsultation,
} from '../../../test/consultations.js';
import { type Actor, admit, createPatient, journeyHospital } from '../../../test/journey.js';

let ctx: TestContext;
let h: Awaited<ReturnType<typeof journeyHospital>>;
let admin: Actor;
let desk: Actor;
let doctor: Actor;
let head: Actor;
let nurse: Actor;
let medNurse: Actor;
let medDoctor: Actor;
let midwife: Actor;

type Detail = {
  id: string;
  status: string;
  patient: { id: string; full_name: string; deceased_at?: string | null };
  department: { code: string };
  place: { bed: { id: string; label: string }; ward: { id: string } } | null;
  provisional_diagnosis: { code: string; label: string } | null;
  bed_moves: { place: { bed: { id: string } }; ended_at: string | null }[];
  discharge: { mode: string; death_cause: { code: string } | null } | null;
  days: number;
  can: Record<string, boolean>;
};

beforeAll(async () => {
  ctx = await createTestApp();
  await insertTestIcd10(ctx.database.db);
  h = await journeyHospital(ctx);
  admin = await h.as('ADMIN');
  desk = await h.as('SECRETARY');
  doctor = await h.as('DOCTOR', 'URG');
  head = await h.as('HEAD_DOCTOR', 'URG');
  nurse = await h.as('NURSE', 'URG');
  medNurse = await h.as('NURSE', 'MED');
  medDoctor = await h.as('DOCTOR', 'MED');
  midwife = await h.as('SAGE_FEMME', 'MAT');
});
afterAll(() => ctx.close());

let wardSerial = 0;
/** A ward of `department` with one room of `beds` beds; returns the bed ids in order. */
async function ward(department = 'URG', beds = ['A', 'B'], over: Record<string, unknown> = {}) {
  wardSerial += 1;
  const created = await call(ctx.app, admin, 'POST', '/api/wards/', {
    department: h.dep(department).id,
    name: `Unité ${department} ${wardSerial}`,
    code: `${department}-${wardSerial}`,
    ...over,
  });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().id as string;
  const room = await call(ctx.app, admin, 'POST', `/api/wards/${id}/rooms/`, { name: `${wardSerial}`, beds });
  expect(room.statusCode, room.body).toBe(201);
  return {
    id,
    beds: (room.json().room_list[0].beds as { id: string }[]).map((b) => b.id),
  };
}

/** A patient admitted (waiting for a bed) by the emergency doctor. */
async function pendingStay(over: Record<string, unknown> = {}, patientOver: Record<string, unknown> = {}) {
  const patient = await createPatient(ctx.app, desk, patientOver);
  const visit = await admit(ctx.app, desk, patient.id, h.dep('URG').id);
  const res = await call(ctx.app, doctor, 'POST', '/api/hospitalizations/', {
    admission: visit.id,
    department: h.dep('URG').id,
    reason: 'Paludisme grave',
    provisional_icd_code: 'b50.9',
    expected_days: 3,
    ...over,
  });
  expect(res.statusCode, res.body).toBe(201);
  return { ...(res.json() as Detail), admission: visit.id };
}

const bedStatus = async (id: string) =>
  (
    await ctx.database.db.execute<{ status: string }>(
      sql`select status::text as status from beds where id = ${id}`,
    )
  ).rows[0]!.status;

const boardAudits = async () =>
  Number(
    (
      await ctx.database.db.execute<{ n: number }>(
        sql`select count(*)::int as n from audit_events where action = 'hospitalization.board'`,
      )
    ).rows[0]!.n,
  );

async function notificationsOf(user: string, type: string) {
  const res = await ctx.database.db.execute<{ data: { action: string; hospitalization?: string } }>(
    sql`select data from notifications where recipient_id = ${user} and notification_type = ${type}`,
  );
  return res.rows.map((r) => r.data);
}

describe('admission to a stay', () => {
  it('opens a stay waiting for a bed when a consultation ends with "hospitalize"', async () => {
    const c = await startedConsultation(ctx.app, { desk, assigner: head, doctor }, h.dep('URG').id);
    await completedConsultation(ctx.app, doctor, c.id, 'hospitalize', { outcome_notes: 'Paludisme grave' });
    const board = await call(ctx.app, nurse, 'GET', '/api/hospitalizations/board/');
    expect(board.statusCode, board.body).toBe(200);
    const pending = board.json().pending.find((s: Detail) => s.patient.id === c.patient) as Detail;
    expect(pending).toMatchObject({
      status: 'pending_bed',
      place: null,
      department: { code: 'URG' },
      provisional_diagnosis: { code: 'B50.9' },
      reason: 'Paludisme grave',
    });
    expect((await notificationsOf(nurse.id, 'hospitalization')).map((d) => d.hospitalization)).toContain(
      pending.id,
    );
    // The visit is hospitalized; a second stay for the same patient is refused.
    const again = await call(ctx.app, doctor, 'POST', '/api/hospitalizations/', {
      admission: c.admission,
      department: h.dep('URG').id,
      reason: 'Doublon',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().detail).toBe('Ce patient est déjà hospitalisé.');
  });

  it('admits from an open visit, checks the fields, and is refused to those who may not admit', async () => {
    const stay = await pendingStay();
    expect(stay).toMatchObject({ status: 'pending_bed', expected_days: 3, days: 1 });
    const visit = await call(ctx.app, desk, 'GET', `/api/admissions/${stay.admission}/`);
    expect(visit.json().status).toBe('hospitalized');
    const patient = await createPatient(ctx.app, desk);
    const v = await admit(ctx.app, desk, patient.id, h.dep('URG').id);
    const bad = await call(ctx.app, doctor, 'POST', '/api/hospitalizations/', {
      admission: v.id,
      department: h.dep('URG').id,
      reason: 'x',
      provisional_icd_code: 'Z99.99',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().provisional_icd_code).toEqual(["Ce code CIM-10 n'existe pas dans le catalogue."]);
    const nurseTry = await call(ctx.app, nurse, 'POST', '/api/hospitalizations/', {
      admission: v.id,
      department: h.dep('URG').id,
      reason: 'x',
    });
    expect(nurseTry.statusCode).toBe(403);
  });
});

describe('beds', () => {
  it('puts a patient in a bed, tells the ward nurses and the doctor, and shows them on the board', async () => {
    const w = await ward('URG');
    const stay = await pendingStay();
    const res = await call(ctx.app, nurse, 'POST', `/api/hospitalizations/${stay.id}/bed/`, {
      bed: w.beds[0],
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      status: 'admitted',
      place: { bed: { id: w.beds[0] }, ward: { id: w.id } },
    });
    expect(await bedStatus(w.beds[0]!)).toBe('occupied');
    // The doctor hears of it; the nurse who did it does not; a nurse of another department does not.
    expect((await notificationsOf(doctor.id, 'bed_assignment')).map((d) => d.hospitalization)).toContain(
      stay.id,
    );
    expect((await notificationsOf(nurse.id, 'bed_assignment')).map((d) => d.hospitalization)).not.toContain(
      stay.id,
    );
    expect(
      (await notificationsOf(medNurse.id, 'bed_assignment')).map((d) => d.hospitalization),
    ).not.toContain(stay.id);
    const board = (await call(ctx.app, desk, 'GET', `/api/hospitalizations/board/?ward=${w.id}`)).json();
    expect(board.wards).toHaveLength(1);
    expect(board.wards[0].beds).toMatchObject({ total: 2, occupied: 1, free: 1 });
    const bed = board.wards[0].rooms[0].beds[0];
    expect(bed.occupant).toMatchObject({
      hospitalization: stay.id,
      days: 1,
      main_diagnosis: { code: 'B50.9' },
    });
  });

  it('keeps the board until something it shows changes, here or behind the app, and audits every read', async () => {
    const w = await ward('URG', ['A', 'B']);
    const stay = await pendingStay();
    const url = `/api/hospitalizations/board/?ward=${w.id}`;
    const read = async () => (await call(ctx.app, nurse, 'GET', url)).json();
    const cache = ctx.app.boardCache;
    expect(cache.active).toBe(true);
    const before = { hits: cache.hits, audits: await boardAudits() };
    const first = await read();
    expect(first.wards[0].beds).toMatchObject({ occupied: 0, free: 2 });
    expect(await read()).toEqual(first);
    expect(cache.hits - before.hits).toBe(1);
    expect((await boardAudits()) - before.audits).toBe(2);
    // A write through the API: its answer waits for the notice, so the next read shows it.
    const placed = await call(ctx.app, nurse, 'POST', `/api/hospitalizations/${stay.id}/bed/`, {
      bed: w.beds[1],
    });
    expect(placed.statusCode, placed.body).toBe(201);
    expect((await read()).wards[0].rooms[0].beds[1].occupant.hospitalization).toBe(stay.id);
    // A change made directly in the database (another instance, a script) arrives as a notice.
    await ctx.database.db.execute(
      sql`update patients set last_name = 'Renommée' where id = ${stay.patient.id}`,
    );
    await cache.sync();
    expect((await read()).wards[0].rooms[0].beds[1].occupant.patient.full_name).toContain('Renommée');
    // Languages are kept apart.
    const label = (board: {
      wards: { rooms: { beds: { occupant: { main_diagnosis: { label: string } } }[] }[] }[];
    }) => board.wards[0]!.rooms[0]!.beds[1]!.occupant.main_diagnosis.label;
    const en = (await call(ctx.app, nurse, 'GET', url, undefined, { 'accept-language': 'en' })).json();
    expect(label(en)).toBe('Plasmodium falciparum malaria, unspecified');
    expect(label(await read())).toBe('Paludisme à Plasmodium falciparum, sans précision');
  });

  it('gives one bed to one of two patients assigned to it at the same moment (201 and 409)', async () => {
    const w = await ward('URG', ['A']);
    const [a, b] = [await pendingStay(), await pendingStay()];
    const answers = await Promise.all([
      call(ctx.app, nurse, 'POST', `/api/hospitalizations/${a.id}/bed/`, { bed: w.beds[0] }),
      call(ctx.app, doctor, 'POST', `/api/hospitalizations/${b.id}/bed/`, { bed: w.beds[0] }),
    ]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    const lost = answers.find((r) => r.statusCode === 409)!;
    expect(lost.json().detail).toBe(
      'Ce lit vient d’être attribué à un autre patient. Choisissez un autre lit.',
    );
    const open = await ctx.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from bed_assignments where bed_id = ${w.beds[0]} and ended_at is null`,
    );
    expect(Number(open.rows[0]!.n)).toBe(1);
  });

  it('puts one patient in one bed when two beds are assigned to them at the same moment', async () => {
    const w = await ward('URG', ['A', 'B']);
    const stay = await pendingStay();
    const answers = await Promise.all(
      w.beds.map((bed) => call(ctx.app, nurse, 'POST', `/api/hospitalizations/${stay.id}/bed/`, { bed })),
    );
    // Either one wins and the other is a move (the stay locks first), or one is refused: never two beds.
    const open = await ctx.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from bed_assignments where hospitalization_id = ${stay.id} and ended_at is null`,
    );
    expect(Number(open.rows[0]!.n)).toBe(1);
    expect(answers.some((r) => r.statusCode === 201)).toBe(true);
    const occupied = await ctx.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from beds where id in (${sql.join(
        w.beds.map((b) => sql`${b}`),
        sql`, `,
      )}) and status = 'occupied'`,
    );
    expect(Number(occupied.rows[0]!.n)).toBe(1);
  });

  it('the database itself refuses a second occupant and a second bed', async () => {
    const w = await ward('URG', ['A', 'B']);
    const stay = await pendingStay();
    await call(ctx.app, nurse, 'POST', `/api/hospitalizations/${stay.id}/bed/`, { bed: w.beds[0] });
    const other = await pendingStay();
    await expect(
      ctx.database.db.execute(
        sql`insert into bed_assignments (id, hospital_id, hospitalization_id, bed_id)
          values (gen_random_uuid(), ${h.hospital.id}, ${other.id}, ${w.beds[0]})`,
      ),
    ).rejects.toThrow();
    await expect(
      ctx.database.db.execute(
        sql`insert into bed_assignments (id, hospital_id, hospitalization_id, bed_id)
          values (gen_random_uuid(), ${h.hospital.id}, ${stay.id}, ${w.beds[1]})`,
      ),
    ).rejects.toThrow();
  });

  it('moves a patient (the old bed goes to cleaning, then free) and keeps the timeline', async () => {
    const w = await ward('URG', ['A', 'B']);
    const stay = await pendingStay();
    await call(ctx.app, nurse, 'POST', `/api/hospitalizations/${stay.id}/bed/`, { bed: w.beds[0] });
    const moved = await call(ctx.app, nurse, 'POST', `/api/hospitalizations/${stay.id}/bed/`, {
      bed: w.beds[1],
    });
    expect(moved.statusCode, moved.body).toBe(201);
    const detail = moved.json() as Detail;
    expect(detail.bed_moves.map((m) => [m.place.bed.id, m.ended_at === null])).toEqual([
      [w.beds[0], false],
      [w.beds[1], true],
    ]);
    expect(await bedStatus(w.beds[0]!)).toBe('cleaning');
    const cleaned = await call(ctx.app, nurse, 'POST', `/api/hospitalizations/beds/${w.beds[0]}/status/`, {
      status: 'free',
    });
    expect(cleaned.statusCode, cleaned.body).toBe(200);
    expect(cleaned.json()).toMatchObject({ status: 'free', occupant: null });
    const occupied = await call(ctx.app, nurse, 'POST', `/api/hospitalizations/beds/${w.beds[1]}/status/`, {
      status: 'cleaning',
    });
    expect(occupied.statusCode).toBe(409);
    const same = await call(ctx.app, nurse, 'POST', `/api/hospitalizations/${stay.id}/bed/`, {
      bed: w.beds[1],
    });
    expect(same.statusCode).toBe(409);
  });

  it("keeps a ward's sex and age rules, and a bed of another hospital is unknown", async () => {
    const women = await ward('URG', ['A'], { sex_restriction: 'F' });
    const man = await pendingStay({}, { sex: 'M' });
    const res = await call(ctx.app, nurse, 'POST', `/api/hospitalizations/${man.id}/bed/`, {
      bed: women.beds[0],
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toMatch(/^L'unité .+ n'accueille que des femmes\.$/);
    const children = await ward('URG', ['A'], { max_age: 15 });
    const adult = await pendingStay();
    const old = await call(ctx.app, nurse, 'POST', `/api/hospitalizations/${adult.id}/bed/`, {
      bed: children.beds[0],
    });
    expect(old.statusCode).toBe(409);
    const foreign = await journeyHospital(ctx);
    const fAdmin = await foreign.as('ADMIN');
    const fw = await call(ctx.app, fAdmin, 'POST', '/api/wards/', {
      department: foreign.dep('URG').id,
      name: 'Ailleurs',
      code: 'AIL',
    });
    const fRoom = await call(ctx.app, fAdmin, 'POST', `/api/wards/${fw.json().id}/rooms/`, {
      name: '1',
      beds: ['A'],
    });
    const fBed = fRoom.json().room_list[0].beds[0].id;
    const cross = await call(ctx.app, nurse, 'POST', `/api/hospitalizations/${adult.id}/bed/`, { bed: fBed });
    expect(cross.statusCode).toBe(400);
    // And the other hospital's stay is not found at all.
    const fStay = await call(ctx.app, await foreign.as('NURSE'), 'GET', `/api/hospitalizations/${adult.id}/`);
    expect(fStay.statusCode).toBe(404);
  });
});

describe('notes, discharge and death', () => {
  it('signs notes, then after the discharge accepts only addenda; the bed goes to cleaning', async () => {
    const w = await ward('URG', ['A']);
    const stay = await pendingStay();
    await call(ctx.app, nurse, 'POST', `/api/hospitalizations/${stay.id}/bed/`, { bed: w.beds[0] });
    const note = await call(ctx.app, doctor, 'POST', `/api/hospitalizations/${stay.id}/notes/`, {
      text: 'J1 : fébrile, artésunate IV.',
    });
    expect(note.statusCode, note.body).toBe(201);
    const byNurse = await call(ctx.app, nurse, 'POST', `/api/hospitalizations/${stay.id}/notes/`, {
      text: 'x',
    });
    expect(byNurse.statusCode).toBe(403);
    const out = await call(ctx.app, doctor, 'POST', `/api/hospitalizations/${stay.id}/discharge/`, {
      mode: 'home',
      diagnoses: ['B50.9'],
      summary: 'Évolution favorable.',
      treatments: 'Artéméther-luméfantrine 3 jours',
    });
    expect(out.statusCode, out.body).toBe(200);
    expect(out.json()).toMatchObject({
      status: 'discharged',
      place: null,
      discharge: { mode: 'home', diagnoses: [{ code: 'B50.9' }] },
      can: { edit: false, discharge: false, assign_bed: false },
    });
    expect(await bedStatus(w.beds[0]!)).toBe('cleaning');
    const late = await call(ctx.app, doctor, 'POST', `/api/hospitalizations/${stay.id}/notes/`, {
      text: 'Oubli',
    });
    expect(late.statusCode).toBe(409);
    const addendum = await call(ctx.app, doctor, 'POST', `/api/hospitalizations/${stay.id}/notes/`, {
      text: 'Précision : poids 62 kg.',
      addendum_of: note.json().id,
    });
    expect(addendum.statusCode, addendum.body).toBe(201);
    const notes = (await call(ctx.app, nurse, 'GET', `/api/hospitalizations/${stay.id}/notes/`)).json();
    expect(notes.results).toHaveLength(1);
    expect(notes.results[0].addenda.map((a: { text: string }) => a.text)).toEqual([
      'Précision : poids 62 kg.',
    ]);
    const twice = await call(ctx.app, doctor, 'POST', `/api/hospitalizations/${stay.id}/discharge/`, {
      mode: 'home',
      diagnoses: ['B50.9'],
      summary: 'x',
    });
    expect(twice.statusCode).toBe(409);
    const patch = await call(ctx.app, doctor, 'PATCH', `/api/hospitalizations/${stay.id}/`, {
      expected_days: 4,
    });
    expect(patch.statusCode).toBe(409);
  });

  it('records a death with its time and cause, shown on the patient, who cannot be admitted again', async () => {
    const stay = await pendingStay();
    const missing = await call(ctx.app, doctor, 'POST', `/api/hospitalizations/${stay.id}/discharge/`, {
      mode: 'deceased',
      summary: 'Décès.',
    });
    expect(missing.statusCode).toBe(400);
    expect(Object.keys(missing.json())).toEqual(expect.arrayContaining(['death_at', 'death_cause_icd_code']));
    const at = new Date().toISOString();
    const res = await call(ctx.app, doctor, 'POST', `/api/hospitalizations/${stay.id}/discharge/`, {
      mode: 'deceased',
      summary: 'Paludisme grave, décès malgré la réanimation.',
      death_at: at,
      death_cause_icd_code: 'B50.9',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'deceased', discharge: { death_cause: { code: 'B50.9' } } });
    expect(new Date(res.json().patient.deceased_at).toISOString()).toBe(at);
    const record = await call(ctx.app, desk, 'GET', `/api/patients/${stay.patient.id}/`);
    expect(new Date(record.json().deceased_at).toISOString()).toBe(at);
    const v = await admit(ctx.app, desk, stay.patient.id, h.dep('URG').id);
    const again = await call(ctx.app, doctor, 'POST', '/api/hospitalizations/', {
      admission: v.id,
      department: h.dep('URG').id,
      reason: 'x',
    });
    expect(again.statusCode).toBe(409);
  });
});

describe('transfers', () => {
  it('internal: requested, refused to those outside the receiving department, accepted, completed into a bed', async () => {
    const from = await ward('URG', ['A']);
    const to = await ward('MED', ['A']);
    const stay = await pendingStay();
    await call(ctx.app, nurse, 'POST', `/api/hospitalizations/${stay.id}/bed/`, { bed: from.beds[0] });
    const req = await call(ctx.app, doctor, 'POST', '/api/transfers/', {
      hospitalization: stay.id,
      kind: 'internal',
      to_department: h.dep('MED').id,
      to_ward: to.id,
      reason: 'Avis de médecine interne',
    });
    expect(req.statusCode, req.body).toBe(201);
    const t = req.json();
    expect(t).toMatchObject({ status: 'requested', to_department: { code: 'MED' }, incoming: false });
    const second = await call(ctx.app, doctor, 'POST', '/api/transfers/', {
      hospitalization: stay.id,
      kind: 'internal',
      to_department: h.dep('MED').id,
      reason: 'Doublon',
    });
    expect(second.statusCode).toBe(409);
    // Each side sees the steps it may take: the requester may cancel, the receiving department decide.
    expect(t.can).toEqual({ accept: false, reject: false, complete: false, cancel: true });
    const seen = (await call(ctx.app, medDoctor, 'GET', `/api/transfers/${t.id}/`)).json();
    expect(seen.can).toEqual({ accept: true, reject: true, complete: false, cancel: true });
    const outsider = await call(ctx.app, midwife, 'POST', `/api/transfers/${t.id}/accept/`, {});
    expect(outsider.statusCode).toBe(403);
    const byUrg = await call(ctx.app, doctor, 'POST', `/api/transfers/${t.id}/accept/`, {});
    expect(byUrg.statusCode).toBe(403);
    const early = await call(ctx.app, nurse, 'POST', `/api/transfers/${t.id}/complete/`, { bed: to.beds[0] });
    expect(early.statusCode).toBe(409);
    const accepted = await call(ctx.app, medDoctor, 'POST', `/api/transfers/${t.id}/accept/`, {});
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({ status: 'accepted', decided_by: { id: medDoctor.id } });
    const forNurse = (await call(ctx.app, nurse, 'GET', `/api/transfers/${t.id}/`)).json();
    expect(forNurse.can).toEqual({ accept: false, reject: false, complete: true, cancel: false });
    expect((await notificationsOf(doctor.id, 'transfer')).map((d) => d.action)).toContain(
      'transfer_accepted',
    );
    const wrongBed = await call(ctx.app, nurse, 'POST', `/api/transfers/${t.id}/complete/`, {
      bed: from.beds[0],
    });
    expect(wrongBed.statusCode).toBe(400);
    const done = await call(ctx.app, nurse, 'POST', `/api/transfers/${t.id}/complete/`, { bed: to.beds[0] });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().status).toBe('completed');
    const after = (await call(ctx.app, nurse, 'GET', `/api/hospitalizations/${stay.id}/`)).json() as Detail;
    expect(after).toMatchObject({
      status: 'admitted',
      department: { code: 'MED' },
      place: { ward: { id: to.id } },
    });
    expect(await bedStatus(from.beds[0]!)).toBe('cleaning');
    expect((await notificationsOf(medNurse.id, 'bed_assignment')).map((d) => d.hospitalization)).toContain(
      stay.id,
    );
  });

  it('external to another hospital of the installation: it receives and answers; the sender completes', async () => {
    const other = await journeyHospital(ctx);
    const otherHead = await other.as('HEAD_DOCTOR', 'URG');
    const stay = await pendingStay();
    const facilities = (await call(ctx.app, doctor, 'GET', '/api/transfers/facilities/')).json();
    expect(facilities.results.map((f: { id: string }) => f.id)).toContain(other.hospital.id);
    expect(facilities.results.map((f: { id: string }) => f.id)).not.toContain(h.hospital.id);
    const noSummary = await call(ctx.app, doctor, 'POST', '/api/transfers/', {
      hospitalization: stay.id,
      kind: 'external',
      to_hospital: other.hospital.id,
      reason: 'Plateau technique',
    });
    expect(noSummary.statusCode).toBe(400);
    const req = await call(ctx.app, doctor, 'POST', '/api/transfers/', {
      hospitalization: stay.id,
      kind: 'external',
      to_hospital: other.hospital.id,
      reason: 'Plateau technique',
      summary: 'Paludisme grave avec insuffisance rénale : dialyse nécessaire.',
      treatments: 'Artésunate IV',
    });
    expect(req.statusCode, req.body).toBe(201);
    const t = req.json();
    expect((await notificationsOf(otherHead.id, 'transfer')).map((d) => d.action)).toContain(
      'transfer_requested',
    );
    const inbox = (await call(ctx.app, otherHead, 'GET', '/api/transfers/?direction=incoming')).json();
    expect(inbox.results.map((x: { id: string; incoming: boolean }) => [x.id, x.incoming])).toContainEqual([
      t.id,
      true,
    ]);
    const byStranger = await call(
      ctx.app,
      await (await journeyHospital(ctx)).as('HEAD_DOCTOR'),
      'GET',
      `/api/transfers/${t.id}/`,
    );
    expect(byStranger.statusCode).toBe(404);
    const senderAccepts = await call(ctx.app, head, 'POST', `/api/transfers/${t.id}/accept/`, {});
    expect(senderAccepts.statusCode).toBe(403);
    const accepted = await call(ctx.app, otherHead, 'POST', `/api/transfers/${t.id}/accept/`, {});
    expect(accepted.statusCode, accepted.body).toBe(200);
    const receiverCompletes = await call(ctx.app, otherHead, 'POST', `/api/transfers/${t.id}/complete/`, {});
    expect(receiverCompletes.statusCode).toBe(403);
    const done = await call(ctx.app, nurse, 'POST', `/api/transfers/${t.id}/complete/`, {});
    expect(done.statusCode, done.body).toBe(200);
    const after = (await call(ctx.app, nurse, 'GET', `/api/hospitalizations/${stay.id}/`)).json() as Detail;
    expect(after).toMatchObject({ status: 'transferred_out', discharge: { mode: 'transferred' } });
  });

  it('rejects with a reason, and a cancelled transfer frees the stay for another', async () => {
    const stay = await pendingStay();
    const req = await call(ctx.app, doctor, 'POST', '/api/transfers/', {
      hospitalization: stay.id,
      kind: 'internal',
      to_department: h.dep('MED').id,
      reason: 'Avis',
    });
    const rejected = await call(ctx.app, head, 'POST', `/api/transfers/${req.json().id}/reject/`, {
      reason: 'Pas de lit avant lundi',
    });
    expect(rejected.json()).toMatchObject({ status: 'rejected', reject_reason: 'Pas de lit avant lundi' });
    const again = await call(ctx.app, doctor, 'POST', '/api/transfers/', {
      hospitalization: stay.id,
      kind: 'external',
      facility_name: 'CHU de Kinshasa',
      reason: 'Avis spécialisé',
      summary: 'Résumé',
    });
    expect(again.statusCode, again.body).toBe(201);
    const cancelled = await call(ctx.app, doctor, 'POST', `/api/transfers/${again.json().id}/cancel/`, {});
    expect(cancelled.json().status).toBe('cancelled');
    const discharge = await call(ctx.app, doctor, 'POST', `/api/hospitalizations/${stay.id}/discharge/`, {
      mode: 'against_advice',
      diagnoses: ['B50.9'],
      summary: 'Sortie contre avis médical, signée.',
    });
    expect(discharge.statusCode, discharge.body).toBe(200);
  });
});

describe('the nurse and the census', () => {
  it("lists a nurse's patients of her department's wards with their latest vitals; not another nurse's", async () => {
    const w = await ward('MED', ['A']);
    const patient = await createPatient(ctx.app, desk, { allergies: ['Pénicilline'] });
    const visit = await admit(ctx.app, desk, patient.id, h.dep('MED').id);
    const triage = await call(ctx.app, medNurse, 'POST', '/api/triage/', {
      admission: visit.id,
      vitals: { temperature: 39.2, heart_rate: 110, spo2: 95 },
      chief_complaint: 'Fièvre',
      level: '2',
      override_reason: 'Jugement clinique',
    });
    expect(triage.statusCode, triage.body).toBe(201);
    const stay = await call(ctx.app, medDoctor, 'POST', '/api/hospitalizations/', {
      admission: visit.id,
      department: h.dep('MED').id,
      reason: 'Pneumonie',
    });
    await call(ctx.app, medNurse, 'POST', `/api/hospitalizations/${stay.json().id}/bed/`, { bed: w.beds[0] });
    const mine = await call(ctx.app, medNurse, 'GET', `/api/nurses/${medNurse.id}/patients/`);
    expect(mine.statusCode, mine.body).toBe(200);
    const row = mine.json().results.find((r: { id: string }) => r.id === stay.json().id);
    expect(row).toMatchObject({
      latest_vitals: { temperature: 39.2, heart_rate: 110 },
      flags: ['allergies'],
    });
    const urgNurse = (await call(ctx.app, nurse, 'GET', `/api/nurses/${nurse.id}/patients/`)).json();
    expect(urgNurse.results.map((r: { id: string }) => r.id)).not.toContain(stay.json().id);
    const other = await call(ctx.app, nurse, 'GET', `/api/nurses/${medNurse.id}/patients/`);
    expect(other.statusCode).toBe(403);
    const byHead = await call(ctx.app, head, 'GET', `/api/nurses/${medNurse.id}/patients/`);
    expect(byHead.statusCode).toBe(200);
    // The count is the same on every page, past the last one too (it rides on the page's statement).
    const total = mine.json().count as number;
    expect(total).toBeGreaterThanOrEqual(1);
    for (const page of [`page_size=1&page=${total}`, `page_size=1&page=${total + 1}`]) {
      const res = await call(ctx.app, medNurse, 'GET', `/api/nurses/${medNurse.id}/patients/?${page}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().count).toBe(total);
    }
    // The head doctor is no nurse: her own list does not exist.
    expect((await call(ctx.app, head, 'GET', `/api/nurses/${head.id}/patients/`)).statusCode).toBe(404);
  });

  it('counts beds by state with occupancy rates, and the census uses indexes', async () => {
    const census = await call(ctx.app, desk, 'GET', '/api/hospitalizations/census/');
    expect(census.statusCode).toBe(200);
    const body = census.json();
    const sum = body.wards.reduce((n: number, w: { beds: { occupied: number } }) => n + w.beds.occupied, 0);
    expect(body.totals.occupied).toBe(sum);
    const occupied = await ctx.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from beds where hospital_id = ${h.hospital.id} and status = 'occupied' and is_active`,
    );
    expect(body.totals.occupied).toBe(Number(occupied.rows[0]!.n));
    const t = body.totals;
    expect(t.occupancy_rate).toBeCloseTo(t.occupied / (t.total - t.out_of_service), 3);
    expect(t.pending).toBeGreaterThan(0);
    // With sequential scans off, the board's and the census's lookups go through indexes.
    const plan = await ctx.database.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      const res = await tx.execute(
        sql`explain select s.id from hospitalizations s where s.hospital_id = ${h.hospital.id} and s.status = 'pending_bed'`,
      );
      const byBed = await tx.execute(
        sql`explain select s.id from hospitalizations s where s.bed_id = ${h.hospital.id}`,
      );
      return [...res.rows, ...byBed.rows].map((r) => String(Object.values(r)[0])).join('\n');
    });
    expect(plan).toContain('hospitalizations_hospital_status_idx');
    expect(plan).toContain('hospitalizations_bed_uq');
  });
});
