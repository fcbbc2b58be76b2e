import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { authHeaders, makeUser, tokenFor } from '../../../test/factories.js';
import { admit, call, createPatient, journeyHospital } from '../../../test/journey.js';
import { ensureExamCatalogue } from '../exams/exam-catalogue.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

describe('GET /api/profile/waiting/ (issue 25)', () => {
  it('says what waits for a doctor in each of her hospitals, counting only what is hers', async () => {
    const a = await journeyHospital(ctx);
    const b = await journeyHospital(ctx);
    const user = await makeUser(ctx.database.db, {
      role: 'DOCTOR',
      hospitals: [
        { id: a.hospital.id, departmentId: a.dep('URG').id },
        { id: b.hospital.id, departmentId: b.dep('URG').id },
      ],
    });
    const token = await tokenFor(ctx.config.jwtSecret, user);
    const desk = await b.as('SECRETARY');
    const queue = await b.as('QUEUE_MANAGER');
    const colleague = await b.as('DOCTOR');
    // Two patients assigned to her in B, one to a colleague.
    for (const doctor of [user.id, user.id, colleague.id]) {
      const patient = await createPatient(ctx.app, desk);
      const visit = await admit(ctx.app, desk, patient.id, b.dep('URG').id);
      const res = await call(ctx.app, queue, 'POST', '/api/assign-patient/', { admission: visit.id, doctor });
      expect(res.statusCode, res.body).toBe(200);
    }
    // A validated abnormal result of hers not yet seen, one already acknowledged, one of the colleague's.
    await ensureExamCatalogue(ctx.database.db);
    const patient = await createPatient(ctx.app, desk);
    for (const [n, requester, acknowledged] of [
      [1, user.id, null],
      [2, user.id, new Date()],
      [3, colleague.id, null],
    ] as const) {
      await ctx.database.db.execute(sql`insert into exam_orders
          (id, hospital_id, order_number, patient_id, exam_id, status, abnormal, requested_by, acknowledged_at)
        values (gen_random_uuid(), ${b.hospital.id}, ${`W-${n}`}, ${patient.id}, (select id from exam_catalogue limit 1),
          'validated', true, ${requester}, ${acknowledged})`);
    }
    const unread = Number(
      (
        await ctx.database.db.execute<{ n: number }>(
          sql`select count(*)::int as n from notifications where recipient_id = ${user.id}
            and hospital_id = ${b.hospital.id} and not is_read`,
        )
      ).rows[0]!.n,
    );
    expect(unread).toBeGreaterThanOrEqual(2);

    // Asked from hospital A (or with no hospital at all): the counts of both, nothing else.
    for (const headers of [authHeaders(token, a.hospital.id), { authorization: `Bearer ${token}` }]) {
      const res = await ctx.app.inject({ method: 'GET', url: '/api/profile/waiting/', headers });
      expect(res.statusCode, res.body).toBe(200);
      const byHospital = Object.fromEntries(
        (res.json().results as { hospital: string }[]).map((r) => [r.hospital, r]),
      );
      expect(Object.keys(byHospital).sort()).toEqual([a.hospital.id, b.hospital.id].sort());
      expect(byHospital[a.hospital.id]).toEqual({
        hospital: a.hospital.id,
        waiting_patients: 0,
        abnormal_results: 0,
        unread_notifications: 0,
      });
      expect(byHospital[b.hospital.id]).toEqual({
        hospital: b.hospital.id,
        waiting_patients: 2,
        abnormal_results: 1,
        unread_notifications: unread,
      });
    }
    // The colleague sees only her own hospital.
    const other = await call(ctx.app, colleague, 'GET', '/api/profile/waiting/');
    expect(other.json().results).toEqual([
      {
        hospital: b.hospital.id,
        waiting_patients: 1,
        abnormal_results: 1,
        unread_notifications: expect.any(Number),
      },
    ]);
    const anonymous = await ctx.app.inject({ method: 'GET', url: '/api/profile/waiting/' });
    expect(anonymous.statusCode).toBe(401);
  });
});
