import type { TAppointment, TSlot } from '@greensen/shared/contracts/appointments';
import { weekdayOf } from '@greensen/shared/domain/appointments';
import { addDays, zonedDate, zonedInstant } from '@greensen/shared/domain/care';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { type Actor, call, createPatient, journeyHospital } from '../../../test/journey.js';
import { sendDueReminders } from './reminders.js';
import { OutboxSmsSender } from './sms.js';

const ZONE = 'Africa/Kinshasa';
let t = Date.now();
let ctx: TestContext;
let h: Awaited<ReturnType<typeof journeyHospital>>;
let admin: Actor;
let desk: Actor;
let queue: Actor;
let doctor: Actor;
let doctor2: Actor;
let head: Actor;
let nurse: Actor;
let other: Awaited<ReturnType<typeof journeyHospital>>;
let otherDesk: Actor;

/** The day the tests' clock stands on (a Tuesday, 09:00 in Kinshasa), and the next days. */
let today: string;
const at = (day: string, time: string) => zonedInstant(day, time, ZONE).toISOString();

beforeAll(async () => {
  // The clock: next Tuesday 09:00 in Kinshasa (never today, so that every slot of that day is bookable).
  let day = addDays(zonedDate(new Date(), ZONE), 1);
  while (weekdayOf(day) !== 'tue') day = addDays(day, 1);
  today = day;
  t = zonedInstant(day, '09:00', ZONE).getTime();
  ctx = await createTestApp({}, { deps: { clock: () => new Date(t) } });
  h = await journeyHospital(ctx, { code: `AP${Math.floor(Math.random() * 1e6)}` });
  admin = await h.as('ADMIN');
  desk = await h.as('SECRETARY');
  queue = await h.as('QUEUE_MANAGER');
  doctor = await h.as('DOCTOR', 'MED');
  doctor2 = await h.as('DOCTOR', 'MED');
  head = await h.as('HEAD_DOCTOR', 'MED');
  nurse = await h.as('NURSE', 'MED');
  other = await journeyHospital(ctx, { code: `AQ${Math.floor(Math.random() * 1e6)}` });
  otherDesk = await other.as('SECRETARY');
}, 90_000);
afterAll(() => ctx.close());

async function schedule(provider: string, over: Record<string, unknown> = {}, by = head) {
  const res = await call(ctx.app, by, 'POST', '/api/appointments/schedules/', {
    provider,
    department: h.dep('MED').id,
    sessions: [
      { weekday: 'tue', start: '08:00', end: '12:00' },
      { weekday: 'wed', start: '08:00', end: '12:00' },
    ],
    slot_minutes: 20,
    capacity: 1,
    types: ['new', 'follow_up'],
    valid_from: addDays(today, -7),
    ...over,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string };
}

async function book(by: Actor, provider: string, start: string, over: Record<string, unknown> = {}) {
  const patient = (over.patient as string | undefined) ?? (await createPatient(ctx.app, desk)).id;
  return call(ctx.app, by, 'POST', '/api/appointments/', {
    patient,
    provider,
    department: h.dep('MED').id,
    start,
    appointment_type: 'follow_up',
    reason: 'Contrôle tension',
    ...over,
  });
}

describe('schedules and slots', () => {
  let sched: string;
  beforeAll(async () => {
    sched = (await schedule(doctor.id, { capacity: 2 })).id;
  });

  it('lets head doctors and administrators manage schedules, not doctors or secretaries', async () => {
    for (const who of [doctor, desk]) {
      const res = await call(ctx.app, who, 'POST', '/api/appointments/schedules/', {
        provider: doctor2.id,
        department: h.dep('MED').id,
        sessions: [{ weekday: 'mon', start: '08:00', end: '09:00' }],
        slot_minutes: 20,
        capacity: 1,
        types: ['new'],
        valid_from: today,
      });
      expect(res.statusCode).toBe(403);
    }
    // A second schedule of the same provider over the same hours is refused.
    const overlap = await call(ctx.app, admin, 'POST', '/api/appointments/schedules/', {
      provider: doctor.id,
      department: h.dep('MED').id,
      sessions: [{ weekday: 'tue', start: '11:00', end: '13:00' }],
      slot_minutes: 20,
      capacity: 1,
      types: ['new'],
      valid_from: today,
    });
    expect(overlap.statusCode).toBe(409);
    // A secretary is not a provider.
    const notProvider = await call(ctx.app, admin, 'POST', '/api/appointments/schedules/', {
      provider: desk.id,
      department: h.dep('MED').id,
      sessions: [{ weekday: 'mon', start: '08:00', end: '09:00' }],
      slot_minutes: 20,
      capacity: 1,
      types: ['new'],
      valid_from: today,
    });
    expect(notProvider.statusCode).toBe(400);
    expect(notProvider.json()).toHaveProperty('provider');
    const read = await call(ctx.app, doctor, 'GET', `/api/appointments/schedules/${sched}/`);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ capacity: 2, slot_minutes: 20, provider: { id: doctor.id } });
    const foreign = await call(ctx.app, otherDesk, 'GET', `/api/appointments/schedules/${sched}/`);
    expect(foreign.statusCode).toBe(404);
  });

  it('finds free slots of a department, skipping past slots, holidays and leave', async () => {
    const res = await call(
      ctx.app,
      desk,
      'GET',
      `/api/appointments/slots/?department=${h.dep('MED').id}&from=${today}&to=${addDays(today, 1)}&provider=${doctor.id}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const slots = res.json().results as TSlot[];
    // Today from 09:20 (09:00 is now), 12 slots tomorrow.
    expect(slots[0]?.start).toBe(at(today, '09:20'));
    expect(slots.filter((s) => s.start >= at(addDays(today, 1), '00:00'))).toHaveLength(12);
    expect(slots[0]).toMatchObject({ capacity: 2, booked: 0, free: 2, provider: { id: doctor.id } });

    const holiday = await call(ctx.app, admin, 'POST', '/api/appointments/holidays/', {
      date: addDays(today, 7),
      name: 'Fête',
    });
    expect(holiday.statusCode, holiday.body).toBe(201);
    const leave = await call(ctx.app, doctor, 'POST', '/api/appointments/exceptions/', {
      provider: doctor.id,
      start_date: addDays(today, 8),
      end_date: addDays(today, 8),
      kind: 'training',
    });
    expect(leave.statusCode, leave.body).toBe(201);
    const nextWeek = await call(
      ctx.app,
      desk,
      'GET',
      `/api/appointments/slots/?provider=${doctor.id}&from=${addDays(today, 7)}&to=${addDays(today, 8)}`,
    );
    expect(nextWeek.json().results).toEqual([]);
    // A doctor records leave for themself only.
    const forOther = await call(ctx.app, doctor, 'POST', '/api/appointments/exceptions/', {
      provider: doctor2.id,
      start_date: addDays(today, 8),
      end_date: addDays(today, 8),
      kind: 'leave',
    });
    expect(forOther.statusCode).toBe(403);
    const first = await call(
      ctx.app,
      desk,
      'GET',
      `/api/appointments/slots/?department=${h.dep('MED').id}&from=${today}&to=${addDays(today, 30)}&first_available=true`,
    );
    expect(first.statusCode).toBe(200);
    const providers = (first.json().results as TSlot[]).map((s) => s.provider.id);
    expect(new Set(providers).size).toBe(providers.length);
    const tooLong = await call(
      ctx.app,
      desk,
      'GET',
      `/api/appointments/slots/?department=${h.dep('MED').id}&from=${today}&to=${addDays(today, 90)}`,
    );
    expect(tooLong.statusCode).toBe(400);
  });

  it('offers midwives and nurses without a schedule to schedule managers, and gives them schedules', async () => {
    const midwife = await h.as('SAGE_FEMME', 'MAT');
    const clinicNurse = await h.as('NURSE', 'MED');
    const otherMidwife = await other.as('SAGE_FEMME', 'MAT');
    const url = '/api/appointments/providers/?unscheduled=true';
    const listed = await call(ctx.app, admin, 'GET', url);
    expect(listed.statusCode, listed.body).toBe(200);
    const results = listed.json().results as { id: string; departments: { id: string }[] }[];
    const ids = results.map((p) => p.id);
    expect(ids).toEqual(expect.arrayContaining([midwife.id, clinicNurse.id, doctor2.id, head.id]));
    // Not a provider, not a member of this hospital.
    expect(ids).not.toContain(desk.id);
    expect(ids).not.toContain(admin.id);
    expect(ids).not.toContain(otherMidwife.id);
    expect(results.find((p) => p.id === midwife.id)?.departments).toEqual([]);
    expect(results.find((p) => p.id === doctor.id)?.departments.map((d) => d.id)).toEqual([h.dep('MED').id]);
    // The plain list stays "providers with a schedule"; the full one is for schedule managers only.
    const plain = await call(ctx.app, desk, 'GET', '/api/appointments/providers/');
    expect((plain.json().results as { id: string }[]).map((p) => p.id)).not.toContain(midwife.id);
    for (const who of [desk, doctor, nurse])
      expect((await call(ctx.app, who, 'GET', url)).statusCode).toBe(403);
    expect((await call(ctx.app, head, 'GET', url)).statusCode).toBe(200);

    // An antenatal clinic of the midwife in maternity, a vaccination clinic of the nurse: both accepted.
    await schedule(
      midwife.id,
      {
        department: h.dep('MAT').id,
        sessions: [{ weekday: 'thu', start: '08:00', end: '10:00' }],
        types: ['antenatal'],
      },
      admin,
    );
    await schedule(clinicNurse.id, {
      sessions: [{ weekday: 'fri', start: '08:00', end: '10:00' }],
      types: ['vaccination'],
    });
    const after = await call(ctx.app, desk, 'GET', '/api/appointments/providers/');
    expect((after.json().results as { id: string }[]).map((p) => p.id)).toEqual(
      expect.arrayContaining([midwife.id, clinicNurse.id]),
    );
    const slots = await call(
      ctx.app,
      desk,
      'GET',
      `/api/appointments/slots/?provider=${midwife.id}&from=${today}&to=${addDays(today, 6)}&type=antenatal`,
    );
    expect(slots.statusCode, slots.body).toBe(200);
    expect(slots.json().results).toHaveLength(6);
  });
});

describe('booking', () => {
  let provider: Actor;
  beforeAll(async () => {
    provider = await h.as('DOCTOR', 'MED');
    await schedule(provider.id);
  });

  it('books a slot, counts it, and refuses a past slot or a time that is not a slot', async () => {
    const res = await book(desk, provider.id, at(addDays(today, 1), '10:00'));
    expect(res.statusCode, res.body).toBe(201);
    const a = res.json() as TAppointment;
    expect(a).toMatchObject({ status: 'booked', overbooked: false, booked_by: { id: desk.id } });
    expect(a.end).toBe(at(addDays(today, 1), '10:20'));
    const slots = await call(
      ctx.app,
      desk,
      'GET',
      `/api/appointments/slots/?provider=${provider.id}&from=${addDays(today, 1)}&to=${addDays(today, 1)}&free_only=false`,
    );
    const slot = (slots.json().results as TSlot[]).find((s) => s.start === a.start);
    expect(slot).toMatchObject({ booked: 1, free: 0 });
    expect((await book(desk, provider.id, at(today, '08:20'))).statusCode).toBe(400);
    const notSlot = await book(desk, provider.id, at(addDays(today, 1), '10:05'));
    expect(notSlot.statusCode).toBe(400);
    expect(notSlot.json()).toHaveProperty('start');
    const wrongType = await book(desk, provider.id, at(addDays(today, 1), '10:40'), {
      appointment_type: 'vaccination',
    });
    expect(wrongType.statusCode).toBe(400);
    // The provider is told (appointment notification).
    const n = await ctx.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from notifications where recipient_id = ${provider.id}
        and notification_type = 'appointment'`,
    );
    expect(Number(n.rows[0]?.n)).toBeGreaterThanOrEqual(1);
  });

  it('books what the schedule screens set: an extra session of one date, not an absence, again once it is removed', async () => {
    const p3 = await h.as('DOCTOR', 'MED');
    await schedule(p3.id);
    // An extra session: a schedule valid on one Thursday only (the weekly one has Tuesdays and Wednesdays).
    const thursday = addDays(today, 23);
    const extra = await schedule(p3.id, {
      sessions: [{ weekday: 'thu', start: '14:00', end: '15:00' }],
      valid_from: thursday,
      valid_until: thursday,
    });
    const slotsOf = async (from: string, to: string) =>
      (
        await call(ctx.app, desk, 'GET', `/api/appointments/slots/?provider=${p3.id}&from=${from}&to=${to}`)
      ).json().results as TSlot[];
    const extraSlots = await slotsOf(thursday, addDays(thursday, 7));
    expect(extraSlots.filter((x) => x.schedule === extra.id).map((x) => x.start)).toEqual([
      at(thursday, '14:00'),
      at(thursday, '14:20'),
      at(thursday, '14:40'),
    ]);
    expect((await book(desk, p3.id, at(thursday, '14:20'))).statusCode).toBe(201);

    // An absence on a Tuesday: no slot, and booking one is refused; removed, the day is bookable again.
    const tuesday = addDays(today, 21);
    const leave = await call(ctx.app, head, 'POST', '/api/appointments/exceptions/', {
      provider: p3.id,
      start_date: tuesday,
      end_date: tuesday,
      kind: 'leave',
    });
    expect(leave.statusCode, leave.body).toBe(201);
    expect(await slotsOf(tuesday, tuesday)).toEqual([]);
    expect((await book(desk, p3.id, at(tuesday, '09:00'))).statusCode).toBe(400);
    const removed = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/appointments/exceptions/${leave.json().id}/`,
      headers: head.headers,
    });
    expect(removed.statusCode).toBe(204);
    expect(await slotsOf(tuesday, tuesday)).toHaveLength(12);
    expect((await book(desk, p3.id, at(tuesday, '09:00'))).statusCode).toBe(201);
  });

  it('gives the last place to one of concurrent bookings: one 201, the others 409 (database constraint)', async () => {
    const start = at(addDays(today, 1), '11:00');
    const patients = await Promise.all([1, 2, 3, 4].map(() => createPatient(ctx.app, desk)));
    const answers = await Promise.all(
      patients.map((p, i) => book([desk, queue, nurse, doctor][i]!, provider.id, start, { patient: p.id })),
    );
    const codes = answers.map((r) => r.statusCode).sort();
    expect(codes, answers.map((r) => r.body).join('\n')).toEqual([201, 409, 409, 409]);
    const refused = answers.find((r) => r.statusCode === 409)!;
    expect(refused.json().detail).toMatch(/complet/);
    const counter = await ctx.database.db.execute<{ booked: number }>(
      sql`select booked from appointment_slots where provider_id = ${provider.id} and start_at = ${start}::timestamptz`,
    );
    expect(Number(counter.rows[0]?.booked)).toBe(1);
  });

  it('lets only a head doctor overbook, explicitly, recorded and audited', async () => {
    const start = at(addDays(today, 1), '11:20');
    expect((await book(desk, provider.id, start)).statusCode).toBe(201);
    expect((await book(desk, provider.id, start)).statusCode).toBe(409);
    expect((await book(doctor, provider.id, start, { overbook: true })).statusCode).toBe(403);
    const over = await book(head, provider.id, start, { overbook: true });
    expect(over.statusCode, over.body).toBe(201);
    expect(over.json()).toMatchObject({ overbooked: true, overbooked_by: { id: head.id } });
    const audit = await ctx.database.db.execute<{ details: { overbooked: boolean } }>(
      sql`select details from audit_events where action = 'appointment.create' and resource_id = ${over.json().id}`,
    );
    expect(audit.rows[0]?.details.overbooked).toBe(true);
  });

  it('moves an appointment keeping its history, frees the old place, and cancels with a reason', async () => {
    const first = await book(desk, provider.id, at(addDays(today, 8), '08:00'));
    expect(first.statusCode, first.body).toBe(201);
    const id = first.json().id as string;
    const moved = await call(ctx.app, desk, 'POST', `/api/appointments/${id}/reschedule/`, {
      start: at(addDays(today, 8), '08:40'),
      reason: 'Demande du patient',
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ start: at(addDays(today, 8), '08:40'), reschedule_count: 1 });
    // The old slot is free again: another patient takes it.
    expect((await book(desk, provider.id, at(addDays(today, 8), '08:00'))).statusCode).toBe(201);
    const detail = await call(ctx.app, doctor, 'GET', `/api/appointments/${id}/`);
    expect(detail.json().history).toEqual([
      expect.objectContaining({
        from_start: at(addDays(today, 8), '08:00'),
        to_start: at(addDays(today, 8), '08:40'),
        reason: 'Demande du patient',
        moved_by: expect.objectContaining({ id: desk.id }),
      }),
    ]);
    const noReason = await call(ctx.app, desk, 'POST', `/api/appointments/${id}/cancel/`, {});
    expect(noReason.statusCode).toBe(400);
    const cancelled = await call(ctx.app, desk, 'POST', `/api/appointments/${id}/cancel/`, {
      reason: 'Patient hospitalisé ailleurs',
    });
    expect(cancelled.json()).toMatchObject({
      status: 'cancelled',
      cancel_reason: 'Patient hospitalisé ailleurs',
    });
    expect((await call(ctx.app, desk, 'POST', `/api/appointments/${id}/confirm/`, {})).statusCode).toBe(409);
    expect((await book(desk, provider.id, at(addDays(today, 8), '08:40'))).statusCode).toBe(201);
    // Another hospital's secretary does not find it.
    expect((await call(ctx.app, otherDesk, 'GET', `/api/appointments/${id}/`)).statusCode).toBe(404);
  });

  it('records a no-show only once the time has come', async () => {
    const res = await book(desk, provider.id, at(today, '09:40'));
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().id as string;
    expect((await call(ctx.app, desk, 'POST', `/api/appointments/${id}/no-show/`, {})).statusCode).toBe(409);
    t += 60 * 60_000;
    try {
      const noShow = await call(ctx.app, desk, 'POST', `/api/appointments/${id}/no-show/`, {});
      expect(noShow.statusCode, noShow.body).toBe(200);
      expect(noShow.json()).toMatchObject({ status: 'no_show' });
    } finally {
      t -= 60 * 60_000;
    }
  });

  it('answers 409 with the affected bookings when a schedule change leaves them out, then cancels them', async () => {
    const p = await h.as('SAGE_FEMME', 'MED');
    const s = await schedule(p.id, { types: ['antenatal'] });
    const b = await book(desk, p.id, at(addDays(today, 1), '11:40'), { appointment_type: 'antenatal' });
    expect(b.statusCode, b.body).toBe(201);
    const change = { sessions: [{ weekday: 'tue', start: '08:00', end: '10:00' }] };
    const refused = await call(ctx.app, head, 'PATCH', `/api/appointments/schedules/${s.id}/`, change);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'bookings_affected',
      affected: [expect.objectContaining({ id: b.json().id, start: at(addDays(today, 1), '11:40') })],
    });
    const noReason = await call(ctx.app, head, 'PATCH', `/api/appointments/schedules/${s.id}/`, {
      ...change,
      on_bookings: 'cancel',
    });
    expect(noReason.statusCode).toBe(400);
    const done = await call(ctx.app, head, 'PATCH', `/api/appointments/schedules/${s.id}/`, {
      ...change,
      on_bookings: 'cancel',
      cancel_reason: 'Sage-femme en formation le mercredi',
    });
    expect(done.statusCode, done.body).toBe(200);
    const after = await call(ctx.app, desk, 'GET', `/api/appointments/${b.json().id}/`);
    expect(after.json()).toMatchObject({
      status: 'cancelled',
      cancel_reason: 'Sage-femme en formation le mercredi',
    });
    const told = await ctx.database.db.execute<{ notification_type: string }>(
      sql`select notification_type from notifications where recipient_id = ${p.id}`,
    );
    expect(told.rows.map((r) => r.notification_type)).toEqual(
      expect.arrayContaining(['schedule', 'appointment']),
    );
  });
});

describe('check-in, today and the feed', () => {
  let provider: Actor;
  let appointment: string;
  let record: string;
  beforeAll(async () => {
    provider = await h.as('DOCTOR', 'MED');
    await schedule(provider.id, { capacity: 3 });
    const patient = await createPatient(ctx.app, desk, { first_name: 'Amandine', last_name: 'Secret' });
    record = patient.record_number;
    const res = await book(desk, provider.id, at(today, '10:00'), { patient: patient.id });
    expect(res.statusCode, res.body).toBe(201);
    appointment = res.json().id;
  });

  it('shows the provider their appointments of today', async () => {
    const res = await call(ctx.app, provider, 'GET', '/api/appointments/today/');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      date: today,
      results: [expect.objectContaining({ id: appointment })],
    });
  });

  it("checks the patient in at the desk: the visit opens in the department, linked, in the doctor's queue", async () => {
    expect(
      (await call(ctx.app, doctor, 'POST', `/api/appointments/${appointment}/check-in/`, {})).statusCode,
    ).toBe(403);
    const res = await call(ctx.app, desk, 'POST', `/api/appointments/${appointment}/check-in/`, {});
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.appointment).toMatchObject({ status: 'checked_in', admission: { id: body.admission.id } });
    // The booking named the doctor: the visit is assigned to them, in their queue, and they are told.
    expect(body.admission).toMatchObject({ status: 'assigned', department: { id: h.dep('MED').id } });
    const queueList = await call(
      ctx.app,
      queue,
      'GET',
      `/api/admissions/?department=${h.dep('MED').id}&status=assigned&page_size=100`,
    );
    expect(queueList.json().results.map((a: { id: string }) => a.id)).toContain(body.admission.id);
    const doctorQueue = await call(ctx.app, provider, 'GET', `/api/doctors/${provider.id}/execution-queue/`);
    expect(doctorQueue.statusCode, doctorQueue.body).toBe(200);
    expect(doctorQueue.json().results.map((e: { admission_id: string }) => e.admission_id)).toContain(
      body.admission.id,
    );
    const told = await ctx.database.db.execute<{ type: string }>(
      sql`select notification_type as type from notifications where recipient_id = ${provider.id}
        and data->>'admission_id' = ${body.admission.id}`,
    );
    expect(told.rows.map((r) => r.type)).toContain('execution_assigned');
    const today_ = await call(ctx.app, provider, 'GET', '/api/appointments/today/');
    expect(today_.json().results[0]).toMatchObject({
      status: 'checked_in',
      admission: { status: 'assigned' },
    });
    expect(
      (await call(ctx.app, desk, 'POST', `/api/appointments/${appointment}/check-in/`, {})).statusCode,
    ).toBe(409);
    const done = await call(ctx.app, provider, 'POST', `/api/appointments/${appointment}/complete/`, {});
    expect(done.json()).toMatchObject({ status: 'completed' });
  });

  it('serves a revocable iCalendar feed with record numbers and no patient names', async () => {
    const link = await call(ctx.app, provider, 'POST', '/api/appointments/ics-link/', {});
    expect(link.statusCode, link.body).toBe(201);
    const url = link.json().url as string;
    const stored = await ctx.database.db.execute<{ token_hash: string }>(
      sql`select token_hash from ics_links where user_id = ${provider.id} and revoked_at is null`,
    );
    expect(url).not.toContain(stored.rows[0]!.token_hash);
    const feed = await ctx.app.inject({ method: 'GET', url });
    expect(feed.statusCode, feed.body).toBe(200);
    expect(feed.headers['content-type']).toMatch(/^text\/calendar/);
    expect(feed.body).toContain('BEGIN:VCALENDAR');
    expect(feed.body).toContain(record);
    expect(feed.body).not.toContain('Amandine');
    expect(feed.body).not.toContain('Secret');
    // Rotating the link stops the old one.
    const rotated = await call(ctx.app, provider, 'POST', '/api/appointments/ics-link/', {});
    expect((await ctx.app.inject({ method: 'GET', url })).statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'GET', url: rotated.json().url })).statusCode).toBe(200);
    const revoked = await ctx.app.inject({
      method: 'DELETE',
      url: '/api/appointments/ics-link/',
      headers: provider.headers,
    });
    expect(revoked.statusCode).toBe(204);
    expect((await ctx.app.inject({ method: 'GET', url: rotated.json().url })).statusCode).toBe(404);
  });

  it('rotates the feed link on a password change, whatever the path (issue 36)', async () => {
    const person = await h.as('DOCTOR', 'MED');
    const url = (await call(ctx.app, person, 'POST', '/api/appointments/ics-link/', {})).json().url as string;
    expect((await ctx.app.inject({ method: 'GET', url })).statusCode).toBe(200);
    // Held by the database: a change of the password hash by any path (change, reset, invitation) revokes it.
    await ctx.database.db.execute(sql`update users set password_hash = 'changed' where id = ${person.id}`);
    expect((await ctx.app.inject({ method: 'GET', url })).statusCode).toBe(404);
    const state = await call(ctx.app, person, 'GET', '/api/appointments/ics-link/');
    expect(state.json().active).toBe(false);
  });

  it('does not bring the feed link back when a deactivated provider is reactivated (issue 36)', async () => {
    const person = await h.as('DOCTOR', 'MED');
    const url = (await call(ctx.app, person, 'POST', '/api/appointments/ics-link/', {})).json().url as string;
    expect((await ctx.app.inject({ method: 'GET', url })).statusCode).toBe(200);
    const off = await call(ctx.app, admin, 'POST', `/api/admin/staff/${person.id}/deactivate/`);
    expect(off.statusCode, off.body).toBe(200);
    expect((await ctx.app.inject({ method: 'GET', url })).statusCode).toBe(404);
    const on = await call(ctx.app, admin, 'POST', `/api/admin/staff/${person.id}/reactivate/`);
    expect(on.statusCode, on.body).toBe(200);
    expect((await ctx.app.inject({ method: 'GET', url })).statusCode).toBe(404);
    const live = await ctx.database.db.execute<{ n: number }>(
      sql`select count(*)::int as n from ics_links where user_id = ${person.id} and revoked_at is null`,
    );
    expect(live.rows[0]!.n).toBe(0);
  });
});

describe('reminders', () => {
  it('sends tomorrow’s reminders once, at the hospital’s hour, in the patient’s language', async () => {
    const provider = await h.as('DOCTOR', 'MED');
    await schedule(provider.id);
    const en = await createPatient(ctx.app, desk);
    const fr = await createPatient(ctx.app, desk);
    // The patient's email and language are part of the patient record (PATCH /api/patients/{id}/).
    const patched = await call(ctx.app, desk, 'PATCH', `/api/patients/${en.id}/`, {
      email: 'patient.en@example.test',
      phone: '+243 81 000 0001',
      preferred_language: 'en',
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({ email: 'patient.en@example.test', preferred_language: 'en' });
    expect(
      (await call(ctx.app, desk, 'PATCH', `/api/patients/${fr.id}/`, { phone: '+243 81 000 0002' }))
        .statusCode,
    ).toBe(200);
    const tomorrow = addDays(today, 1);
    expect((await book(desk, provider.id, at(tomorrow, '08:00'), { patient: en.id })).statusCode).toBe(201);
    expect((await book(desk, provider.id, at(tomorrow, '08:20'), { patient: fr.id })).statusCode).toBe(201);
    const sms = new OutboxSmsSender();
    // Before the reminder hour (18:00): nothing.
    await sendDueReminders(ctx.app, sms, new Date(at(today, '17:00')));
    const count = async () =>
      ctx.database.db.execute<{ to_number: string; body: string; language: string }>(
        sql`select to_number, body, language from sms_outbox where hospital_id = ${h.hospital.id}
          and to_number in ('+243810000001', '+243810000002') order by to_number`,
      );
    expect((await count()).rows).toHaveLength(0);
    await sendDueReminders(ctx.app, sms, new Date(at(today, '18:05')));
    await sendDueReminders(ctx.app, sms, new Date(at(today, '18:20')));
    const texts = (await count()).rows;
    expect(texts.map((r) => [r.to_number, r.language])).toEqual([
      ['+243810000001', 'en'],
      ['+243810000002', 'fr'],
    ]);
    expect(texts[0]!.body).toMatch(/^Reminder: appointment/);
    expect(texts[1]!.body).toMatch(/^Rappel : RDV/);
    expect(texts[1]!.body).not.toContain('tension');
    const mail = await ctx.database.db.execute<{ subject: string; text_body: string }>(
      sql`select subject, text_body from mail_outbox where to_address = 'patient.en@example.test'`,
    );
    expect(mail.rows).toHaveLength(1);
    expect(mail.rows[0]!.subject).toMatch(/^Reminder: your appointment/);
    expect(mail.rows[0]!.text_body).not.toContain('Contrôle');
  });
});
