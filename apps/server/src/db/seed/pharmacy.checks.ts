import type { TPrescription, ZStockAlerts } from '@greensen/shared/contracts/pharmacy';
import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import type { z } from 'zod';
import { demo as ctx } from '../../../test/demo.js';
import { demoActor } from '../../../test/factories.js';
import { PHARMACIST } from './pharmacy.js';

const actor = (email: string) => demoActor(ctx.database.db, ctx.config.jwtSecret, email);
const get = async (who: { headers: Record<string, string> }, url: string) => {
  const res = await ctx.app.inject({ method: 'GET', url, headers: who.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

it('gives the pharmacist work: prescriptions to dispense (one partly), alerts, a ledger', async () => {
  const pharmacist = await actor(PHARMACIST);
  const { results: pharmacies } = await get(pharmacist, '/api/pharmacy/pharmacies/');
  const pha = pharmacies.find((p: { code: string; member: boolean }) => p.code === 'PHA');
  expect(pha.member).toBe(true);

  const worklist = await get(pharmacist, '/api/prescriptions/?status=to_dispense');
  expect(worklist.count).toBeGreaterThanOrEqual(4);
  const statuses = worklist.results.map((r: TPrescription) => r.status);
  expect(statuses).toContain('partially_dispensed');
  expect(worklist.results.every((r: TPrescription & { can: { dispense: boolean } }) => r.can.dispense)).toBe(
    true,
  );

  const alerts: z.infer<typeof ZStockAlerts> = await get(
    pharmacist,
    `/api/pharmacy/alerts/?pharmacy=${pha.id}`,
  );
  expect(alerts.low.map((s) => s.medication.inn_en)).toContain('ceftriaxone');
  expect(alerts.out.map((s) => s.medication.inn_en)).toContain('diazepam');
  // An expired lot is in its own group, never among those expiring soon (issue 37).
  expect(alerts.expiring.map((l) => [l.lot_number, l.expired])).toEqual(
    expect.arrayContaining([['AL2406-117', false]]),
  );
  expect(alerts.expired.map((l) => [l.lot_number, l.expired])).toEqual(
    expect.arrayContaining([['AMX2307-661', true]]),
  );

  const ledger = await get(pharmacist, `/api/pharmacy/movements/?pharmacy=${pha.id}&kind=receipt`);
  expect(ledger.count).toBeGreaterThanOrEqual(20);
  const drift = await ctx.database.db.execute<{ n: number }>(sql`select count(*)::int as n from stock_lots l
    where l.on_hand <> (select coalesce(sum(quantity), 0) from stock_movements m where m.lot_id = l.id)`);
  expect(Number(drift.rows[0]!.n)).toBe(0);
});

it('a doctor sees the penicillin allergy when prescribing amoxicillin to the allergic journey patient', async () => {
  const doctor = await actor('medecin@greensen.test');
  const patient = await ctx.database.db.execute<{ id: string }>(
    sql`select id from patients where first_name = 'Éloïse' and last_name = 'Kabongo'`,
  );
  const amox = await get(doctor, '/api/medications/?search=amoxicilline');
  const capsule = amox.results[0].presentations.find((p: { form: string }) => p.form === 'capsule').id;
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/prescriptions/check/',
    headers: doctor.headers,
    payload: {
      patient: patient.rows[0]!.id,
      lines: [
        {
          presentation: capsule,
          dose: 1,
          dose_unit: 'gélule',
          route: 'oral',
          frequency: { kind: 'times_per_day', times: 3 },
          duration_days: 7,
        },
      ],
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().warnings[0]).toMatchObject({ kind: 'allergy', blocking: true });
});

it('the pharmacist sees the blocking allergy alert of the demo’s amoxicillin line with the prescriber’s reason (issue 34)', async () => {
  const pharmacist = await actor(PHARMACIST);
  const found = await ctx.database.db.execute<{ prescription_id: string; line: string }>(
    sql`select prescription_id, prescription_line_id as line from medication_safety_overrides where stage = 'prescribe' limit 1`,
  );
  const row = found.rows[0]!;
  const rx = await get(pharmacist, `/api/prescriptions/${row.prescription_id}/`);
  const alert = rx.safety.alerts.find((a: { code: string }) => a.code === 'allergy_class');
  expect(alert).toMatchObject({ severity: 'blocking', requires_reason: true, prescription_line: row.line });
  expect(alert.override.reason).toMatch(/Allergie ancienne/);
  expect(rx.safety.blocked_lines).toEqual([row.line]);
});

it('makes pharmacie@ a PHARMACIST and caisse@ a CASHIER, each on a home of their own (decision 0070)', async () => {
  for (const [email, role, kind] of [
    [PHARMACIST, 'PHARMACIST', 'pharmacist'],
    ['caisse@greensen.test', 'CASHIER', 'cashier'],
  ] as const) {
    const who = await actor(email);
    const index = await get(who, '/api/dashboard/');
    expect(index.role_group, email).toBe(kind);
    expect(index.dashboards.map((d: { kind: string }) => d.kind)).toEqual([kind]);
    const roles = await ctx.database.db.execute<{
      role_code: string;
    }>(sql`select m.role_code from memberships m
      join users u on u.id = m.user_id where u.email = ${email}`);
    expect(roles.rows.map((r) => r.role_code)).toEqual([role]);
  }
});
