import { sql } from 'drizzle-orm';
import { beforeAll, expect, it } from 'vitest';
import { demo as ctx } from '../../../test/demo.js';
import { demoActor } from '../../../test/factories.js';
import { documentTypeOf } from '../../lib/images.js';
import { demoPdf, demoPng, seedDemoDocuments } from './documents.js';

let made: { documents: number; uploads: number };
beforeAll(async () => {
  made = await seedDemoDocuments(ctx.app);
}, 180_000);

const actor = (email: string) => demoActor(ctx.database.db, ctx.config.jwtSecret, email);

it("gives HGG its adapted French medical certificate, issued documents (one cancelled) and a patient's files", async () => {
  expect(made.documents).toBeGreaterThanOrEqual(4);
  expect(made.uploads).toBe(2);
  const doctor = await actor('medecin@greensen.test');
  const models = await ctx.app.inject({
    method: 'GET',
    url: '/api/document-templates/?kind=medical_certificate&language=fr&active=true',
    headers: doctor.headers,
  });
  expect(models.json().results).toEqual([
    expect.objectContaining({ shipped: false, active: true, name: 'Certificat médical — Urgences HGG' }),
  ]);
  const docs = await ctx.app.inject({
    method: 'GET',
    url: '/api/documents/?page_size=50',
    headers: doctor.headers,
  });
  const statuses = docs.json().results.map((d: { status: string }) => d.status);
  expect(statuses.filter((s: string) => s === 'cancelled')).toHaveLength(1);
  const files = await ctx.app.inject({
    method: 'GET',
    url: '/api/patient-documents/',
    headers: doctor.headers,
  });
  expect(
    files
      .json()
      .results.map((f: { content_type: string }) => f.content_type)
      .sort(),
  ).toEqual(['application/pdf', 'image/png']);
  const n = await ctx.database.db.execute<{ n: number }>(sql`select count(*)::int as n from documents`);
  expect(Number(n.rows[0]!.n)).toBe(made.documents);
});

it('draws its files at seed time, recognised by their content', () => {
  expect(documentTypeOf(demoPng())).toBe('image/png');
  expect(documentTypeOf(demoPdf(['a']))).toBe('application/pdf');
});

it('prints exam results (with flags) and a discharge summary from the demo', async () => {
  const doctor = await actor('medecin@greensen.test');
  const exam = await ctx.database.db.execute<{ id: string }>(
    sql`select o.id from exam_orders o join hospitals h on h.id = o.hospital_id
      where h.code = 'HGG' and o.status = 'validated' and o.abnormal order by o.validated_at desc limit 1`,
  );
  const results = await ctx.app.inject({
    method: 'POST',
    url: '/api/documents/draft/',
    headers: doctor.headers,
    payload: { kind: 'exam_results_report', source: { type: 'exam', id: exam.rows[0]!.id } },
  });
  expect(results.statusCode, results.body).toBe(200);
  expect(results.json()).toMatchObject({ editable: false, paper: 'A4' });
  expect(results.json().html).toContain('<table>');
  expect(results.json().text).toMatch(/\| (Bas|Élevé|Anormal) \|/);

  const stay = await ctx.database.db.execute<{ id: string }>(
    sql`select s.id from hospitalizations s join hospitals h on h.id = s.hospital_id
      where h.code = 'HGG' and s.status = 'discharged' limit 1`,
  );
  const summary = await ctx.app.inject({
    method: 'POST',
    url: '/api/documents/',
    headers: doctor.headers,
    payload: { kind: 'discharge_summary', source: { type: 'hospitalization', id: stay.rows[0]!.id } },
  });
  expect(summary.statusCode, summary.body).toBe(201);
  expect(summary.json().text).toMatch(/Séjour :\*\* du \d\d\/\d\d\/\d{4} au \d\d\/\d\d\/\d{4} \(\d+ jour/);
  expect(summary.json().text).toContain('Retour à domicile');
});
