import type { TAuditEvent, TAuditList } from '@greensen/shared/contracts/audit';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { type Actor, call, createPatient, journeyHospital } from '../../../test/journey.js';
import { auditEvents, users } from '../../db/schema/index.js';
import { PatientsService } from '../patients/patients.service.js';
import { auditBatches } from './audit.repository.js';

let ctx: TestContext;
let admin: Actor;
let nurse: Actor;
let secretary: Actor;
let otherAdmin: Actor;
let hospitalId: string;
let patient: { id: string; record_number: string };
let otherPatient: { id: string };

const list = async (actor: Actor, query = '') => {
  const res = await call(ctx.app, actor, 'GET', `/api/admin/audit/${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as TAuditList;
};

beforeAll(async () => {
  ctx = await createTestApp();
  const h = await journeyHospital(ctx);
  hospitalId = h.hospital.id;
  admin = await h.as('ADMIN');
  nurse = await h.as('NURSE');
  secretary = await h.as('SECRETARY');
  const other = await journeyHospital(ctx);
  otherAdmin = await other.as('ADMIN');
  const otherSecretary = await other.as('SECRETARY');

  patient = await createPatient(ctx.app, secretary);
  expect((await call(ctx.app, nurse, 'GET', `/api/patients/${patient.id}/`)).statusCode).toBe(200);
  // A refusal: a nurse on the administrators' route.
  expect((await call(ctx.app, nurse, 'GET', '/api/admin/maintenance/')).statusCode).toBe(403);
  otherPatient = await createPatient(ctx.app, otherSecretary);
  expect((await call(ctx.app, otherSecretary, 'GET', `/api/patients/${otherPatient.id}/`)).statusCode).toBe(
    200,
  );
});
afterAll(() => ctx?.close());

describe('audit trail API', () => {
  it("shows an administrator their hospital's rows, newest first, with who, role, patient and outcome", async () => {
    const page = await list(admin);
    expect(page.count).toBeGreaterThanOrEqual(3);
    expect(page.results.every((r) => r.hospital === hospitalId)).toBe(true);
    const times = page.results.map((r) => r.occurred_at);
    expect([...times].sort().reverse()).toEqual(times);
    const read = page.results.find((r) => r.action === 'patient.read') as TAuditEvent;
    expect(read).toMatchObject({
      user: { id: nurse.id, full_name: expect.any(String), email: expect.any(String) },
      role_code: 'NURSE',
      patient: { id: patient.id, record_number: patient.record_number, full_name: expect.any(String) },
      resource_type: 'patient',
      resource_id: patient.id,
      outcome: 'success',
      ip: expect.any(String),
      request_id: expect.any(String),
    });
    const refusal = page.results.find((r) => r.action === 'access.denied') as TAuditEvent;
    expect(refusal).toMatchObject({ user: { id: nurse.id }, outcome: 'denied', resource_type: 'route' });
    expect(refusal.resource_id).toBe('GET /api/admin/maintenance/');
  });

  it("never shows another hospital's rows, nor names another hospital's patient", async () => {
    const mine = await list(admin, `?patient=${otherPatient.id}`);
    expect(mine.count).toBe(0);
    const theirs = await list(otherAdmin);
    expect(theirs.results.some((r) => r.patient?.id === otherPatient.id)).toBe(true);
    expect(theirs.results.some((r) => r.patient?.id === patient.id || r.user?.id === nurse.id)).toBe(false);
  });

  it('filters by user, patient, action (or family), outcome, resource and time', async () => {
    const byUser = await list(admin, `?user=${nurse.id}`);
    expect(byUser.count).toBeGreaterThanOrEqual(2);
    expect(byUser.results.every((r) => r.user?.id === nurse.id)).toBe(true);

    const byPatient = await list(admin, `?patient=${patient.id}`);
    expect(new Set(byPatient.results.map((r) => r.action))).toEqual(
      new Set(['patient.create', 'patient.read']),
    );

    const exact = await list(admin, '?action=patient.read');
    expect(exact.results.map((r) => r.action)).toEqual(['patient.read']);
    const family = await list(admin, '?action=patient.*');
    expect(family.results.length).toBeGreaterThanOrEqual(2);
    expect(family.results.every((r) => r.action.startsWith('patient.'))).toBe(true);

    const denied = await list(admin, '?outcome=denied');
    expect(denied.results.length).toBeGreaterThanOrEqual(1);
    expect(denied.results.every((r) => r.outcome === 'denied')).toBe(true);

    const resource = await list(admin, `?resource=patient&resource_id=${patient.id}`);
    expect(resource.results.every((r) => r.resource_type === 'patient' && r.resource_id === patient.id)).toBe(
      true,
    );
    expect(resource.count).toBe(2);

    const future = new Date(Date.now() + 60_000).toISOString();
    expect((await list(admin, `?from=${encodeURIComponent(future)}`)).count).toBe(0);
    const all = await list(admin, `?to=${encodeURIComponent(future)}`);
    expect(all.count).toBeGreaterThanOrEqual(4);
  });

  it('paginates with count, next and previous', async () => {
    const first = await list(admin, '?page_size=2');
    expect(first.results).toHaveLength(2);
    expect(first.next).toMatch(/page=2/);
    expect(first.previous).toBeNull();
    const second = await list(admin, '?page_size=2&page=2');
    expect(second.previous).toMatch(/page=1/);
    expect(second.results.map((r) => r.id)).not.toContain(first.results[0]!.id);
  });

  it('is audited itself', async () => {
    const before = (await list(admin, '?action=audit.search')).count;
    const after = (await list(admin, '?action=audit.search')).count;
    expect(after).toBe(before + 1);
    const [last] = (await list(admin, '?action=audit.search')).results;
    expect(last).toMatchObject({ user: { id: admin.id }, role_code: 'ADMIN', resource_type: 'audit' });
  });

  it('refuses every other role (403) and anonymous callers (401)', async () => {
    for (const actor of [nurse, secretary]) {
      const res = await call(ctx.app, actor, 'GET', '/api/admin/audit/');
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ detail: expect.any(String) });
    }
    const anon = await ctx.app.inject({ url: '/api/admin/audit/', headers: { 'hospital-id': hospitalId } });
    expect(anon.statusCode).toBe(401);
  });

  it('answers 400 with field errors for filters off their formats', async () => {
    const res = await call(
      ctx.app,
      admin,
      'GET',
      '/api/admin/audit/?outcome=maybe&action=x%3B%20drop&from=yesterday&user=nobody&page_size=1000',
    );
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json()).sort()).toEqual(['action', 'from', 'outcome', 'page_size', 'user']);
  });

  it('names who acted: the user, or the system with the job, the user it acted for and the rule', async () => {
    const [read] = (await list(admin, `?action=patient.read&patient=${patient.id}`)).results;
    expect(read?.actor).toEqual({ kind: 'user', id: nurse.id, full_name: expect.any(String) });

    // A service called outside any request, from a job's system context (issue 14): same rules, same audit.
    ctx.app.jobs.define({
      name: 'test.patient_phone_fix',
      payload: z.object({ patient: z.uuid() }),
      rule: 'patients.phone_normalization',
      run: async ({ patient: id }, job) => {
        await new PatientsService(ctx.app).update(job.ctx, id, { phone: '+221770000000' });
      },
    });
    await ctx.app.jobs.enqueue(
      'test.patient_phone_fix',
      { patient: patient.id },
      { hospitalId, onBehalfOf: secretary.id },
    );
    await ctx.app.jobs.runDue();
    const update = await vi.waitFor(async () => {
      const [row] = (await list(admin, `?action=patient.update&patient=${patient.id}`)).results;
      expect(row).toBeDefined();
      return row as TAuditEvent;
    });
    expect(update).toMatchObject({
      user: null,
      role_code: null,
      hospital: hospitalId,
      patient: { id: patient.id },
      actor: {
        kind: 'system',
        source: 'test.patient_phone_fix',
        on_behalf_of: { id: secretary.id, full_name: expect.any(String) },
        rule: 'patients.phone_normalization',
      },
    });
    const shown = await call(ctx.app, secretary, 'GET', `/api/patients/${patient.id}/`);
    expect(shown.json().phone).toBe('+221770000000');
  });

  it('exports the filtered rows as CSV, every batch, newest first, with formula cells neutralised', async () => {
    // A hostile name (typed into the person's profile): the export must keep it as text.
    await ctx.app.db
      .update(users)
      .set({ firstName: '=HYPERLINK("http://evil.test")', lastName: '@SUM(A1)' })
      .where(eq(users.id, nurse.id));
    for (let i = 0; i < 3; i++)
      expect((await call(ctx.app, nurse, 'GET', `/api/patients/${patient.id}/`)).statusCode).toBe(200);
    const csv = await call(
      ctx.app,
      admin,
      'GET',
      `/api/admin/audit/export/?patient=${patient.id}&action=patient.read`,
    );
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="audit-.+\.csv"$/);
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe(
      '"occurred_at","actor","user_email","role_code","action","outcome","resource_type","resource_id",' +
        '"patient_record_number","patient_name","ip","request_id"',
    );
    const page = await list(admin, `?patient=${patient.id}&action=patient.read&page_size=100`);
    expect(lines).toHaveLength(page.count + 1);
    expect(lines[1]).toContain(`"${page.results[0]!.occurred_at}"`);
    expect(
      lines.slice(1).every((l) => l.includes('"patient.read"') && l.includes(patient.record_number)),
    ).toBe(true);

    const hostile = await call(ctx.app, admin, 'GET', `/api/admin/audit/export/?user=${nurse.id}`);
    expect(hostile.body).toContain(`"'=HYPERLINK(""http://evil.test"") @SUM(A1)"`);
    expect(hostile.body).not.toMatch(/(^|,)"?=HYPERLINK/m);
    // The export is itself audited, and refused to everybody else.
    expect((await list(admin, '?action=audit.export')).count).toBeGreaterThanOrEqual(2);
    expect((await call(ctx.app, nurse, 'GET', '/api/admin/audit/export/')).statusCode).toBe(403);
  });

  it('walks past rows of the same instant without losing or repeating any (keyset on time and id)', async () => {
    // Rows written in one transaction share its instant (now()).
    await ctx.app.db.transaction(async (tx) => {
      for (let i = 0; i < 5; i++)
        await tx.insert(auditEvents).values({ hospitalId, action: 'test.same_instant', details: { i } });
    });
    const walk = async (batch: number) => {
      const ids: string[] = [];
      for await (const rows of auditBatches(ctx.app.db, hospitalId, {}, 10_000, batch))
        ids.push(...rows.map((r) => r.id));
      return ids;
    };
    const byTwo = await walk(2);
    const atOnce = await walk(10_000);
    expect(byTwo).toEqual(atOnce);
    expect(new Set(byTwo).size).toBe(byTwo.length);
    const same = (await list(admin, '?action=test.same_instant')).results.map((r) => r.id);
    expect(same).toHaveLength(5);
    expect(same.every((id) => byTwo.includes(id))).toBe(true);
    // The cap stops the walk.
    expect(
      await (async () => {
        let n = 0;
        for await (const rows of auditBatches(ctx.app.db, hospitalId, {}, 3, 2)) n += rows.length;
        return n;
      })(),
    ).toBe(3);
  });
});
