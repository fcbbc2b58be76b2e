import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_PASSWORD, makeAccount } from '../accounts.js';
import { createTestApp, type TestContext } from '../app.js';
import { TEST_DB_KIND } from '../database.js';
import { type Actor, call, createPatient, journeyHospital } from '../journey.js';
import { newIp, newRequestId, send } from './harness.js';

/**
 * The audit trail (issue 8) beyond what the matrix checks route by route: sign-in success and failure, refusals,
 * the append-only table on this engine, the audit row written in the same transaction as the change, and the
 * indexes the administrators' queries use.
 */

let ctx: TestContext;
let hospitalId: string;
let secretary: Actor;
let nurse: Actor;

beforeAll(async () => {
  ctx = await createTestApp();
  const h = await journeyHospital(ctx);
  hospitalId = h.hospital.id;
  secretary = await h.as('SECRETARY');
  nurse = await h.as('NURSE');
});
afterAll(() => ctx?.close());

interface Row {
  user_id: string | null;
  hospital_id: string | null;
  patient_id: string | null;
  action: string;
  outcome: string;
  ip: string | null;
  request_id: string | null;
  role_code: string | null;
  resource_type: string | null;
  details: Record<string, unknown> | string | null;
}

async function rowsOf(requestId: string): Promise<Row[]> {
  const res = await ctx.database.db.execute(sql`select * from audit_events where request_id = ${requestId}`);
  return res.rows as unknown as Row[];
}

const details = (r: Row) =>
  (typeof r.details === 'string' ? JSON.parse(r.details) : r.details) as Record<string, unknown>;

describe(`audit trail (${TEST_DB_KIND})`, () => {
  it('writes exactly one row per sign-in: success, wrong password, unknown address', async () => {
    const acct = await makeAccount(ctx.app);
    const cases = [
      { password: ACCOUNT_PASSWORD, email: acct.email, status: 200, outcome: 'success', user: acct.id },
      { password: 'not-the-password-1', email: acct.email, status: 401, outcome: 'failure', user: acct.id },
      {
        password: 'whatever-password-2',
        email: 'nobody-here@example.test',
        status: 401,
        outcome: 'failure',
        user: null,
      },
    ];
    for (const c of cases) {
      const requestId = newRequestId('login');
      const ip = newIp();
      const res = await send(ctx.app, {
        method: 'POST',
        url: '/api/login/',
        body: { email: c.email, password: c.password },
        requestId,
        ip,
      });
      expect(res.statusCode).toBe(c.status);
      const rows = await rowsOf(requestId);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ action: 'auth.login', outcome: c.outcome, user_id: c.user, ip });
      expect(details(rows[0]!)).toMatchObject({ email: c.email });
      // The password never reaches the audit trail.
      expect(JSON.stringify(rows[0])).not.toContain(c.password);
    }
  });

  it('writes one row per refusal of a signed-in caller (403), none for an anonymous one (401)', async () => {
    const refused = newRequestId('deny');
    const res = await send(ctx.app, {
      method: 'GET',
      url: '/api/admin/maintenance/',
      headers: nurse.headers,
      requestId: refused,
    });
    expect(res.statusCode).toBe(403);
    const rows = await rowsOf(refused);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      action: 'access.denied',
      outcome: 'denied',
      user_id: nurse.id,
      hospital_id: hospitalId,
      role_code: 'NURSE',
    });
    const anonymous = newRequestId('anon');
    expect(
      (await send(ctx.app, { method: 'GET', url: '/api/patients/', requestId: anonymous })).statusCode,
    ).toBe(401);
    expect(await rowsOf(anonymous)).toHaveLength(0);
  });

  it('refuses UPDATE, DELETE and TRUNCATE of audit rows at the database level', async () => {
    const requestId = newRequestId('keep');
    const res = await send(ctx.app, {
      method: 'GET',
      url: '/api/patients/',
      headers: secretary.headers,
      requestId,
    });
    expect(res.statusCode).toBe(200);
    const db = ctx.database.db;
    await expect(
      db.execute(sql`update audit_events set outcome = 'tampered' where request_id = ${requestId}`),
    ).rejects.toThrow();
    await expect(db.execute(sql`delete from audit_events where request_id = ${requestId}`)).rejects.toThrow();
    await expect(db.execute(sql`truncate audit_events`)).rejects.toThrow();
    const rows = await rowsOf(requestId);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.outcome).toBe('success');
  });

  it('writes the audit row in the same transaction as the change: no row, no change', async () => {
    const db = ctx.database.db;
    // A test-only trigger makes the audit insert of a registration fail (this database is the test's own).
    await db.execute(
      sql.raw(`create function test_refuse_patient_audit() returns trigger language plpgsql as $$
      begin
        if new.action = 'patient.create' then raise exception 'audit unavailable'; end if;
        return new;
      end $$`),
    );
    await db.execute(
      sql.raw(`create trigger test_refuse_patient_audit before insert on audit_events
        for each row execute function test_refuse_patient_audit()`),
    );
    try {
      const res = await call(ctx.app, secretary, 'POST', '/api/patients/', {
        first_name: 'Sans',
        last_name: 'TraceAudit',
        sex: 'F',
        birth_date: '1991-04-05',
        confirm_duplicate: true,
      });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ detail: expect.any(String) });
      const left = await db.execute(
        sql`select count(*)::int as n from patients where last_name = 'TraceAudit'`,
      );
      expect(Number((left.rows[0] as { n: number }).n)).toBe(0);
    } finally {
      await db.execute(sql.raw('drop trigger test_refuse_patient_audit on audit_events'));
      await db.execute(sql.raw('drop function test_refuse_patient_audit()'));
    }
    // And once the audit works again, so does the registration.
    await createPatient(ctx.app, secretary, { last_name: 'TraceAudit' });
  });

  it('serves the administrators’ audit queries from indexes (sequential scans disabled)', async () => {
    const plans: Record<string, string> = {};
    const explain = async (name: string, where: ReturnType<typeof sql>) => {
      await ctx.database.db.transaction(async (tx) => {
        await tx.execute(sql`set local enable_seqscan = off`);
        const res = await tx.execute(
          sql`explain select * from audit_events a where ${where} order by a.occurred_at desc, a.id desc limit 20`,
        );
        plans[name] = (res.rows as Array<Record<string, string>>).map((r) => Object.values(r)[0]).join('\n');
      });
    };
    const user = '0190a6f4-7d3c-7b3e-9c1a-2f4e5d6c7b8a';
    await explain('hospital', sql`a.hospital_id = ${hospitalId}`);
    await explain('user', sql`a.hospital_id = ${hospitalId} and a.user_id = ${user}`);
    await explain('patient', sql`a.hospital_id = ${hospitalId} and a.patient_id = ${user}`);
    await explain('action', sql`a.hospital_id = ${hospitalId} and a.action = 'patient.read'`);
    await explain(
      'resource',
      sql`a.hospital_id = ${hospitalId} and a.resource_type = 'patient' and a.resource_id = ${user}`,
    );
    expect(plans.hospital).toMatch(/audit_hospital_time_idx/);
    expect(plans.user).toMatch(/audit_(user|hospital)_time_idx/);
    expect(plans.patient).toMatch(/audit_(patient|hospital)_time_idx/);
    // Migration 0008: the action and resource filters have their own indexes.
    expect(plans.action).toMatch(/audit_hospital_action_time_idx/);
    expect(plans.resource).toMatch(/audit_hospital_resource_idx/);
  });
});
