import { createHash } from 'node:crypto';
import type { TDocument, TDocumentTemplate } from '@greensen/shared/contracts/documents';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import {
  call,
  completedConsultation,
  insertTestIcd10,
  startedConsultation,
} from '../../../test/consultations.js';
import { type Actor, createPatient, journeyHospital } from '../../../test/journey.js';
import { multipart } from '../../../test/multipart.js';
import { ensureMedicationReference } from '../pharmacy/medication-reference.js';
import { shippedId } from './shipped.js';

let ctx: TestContext;
let doctor: Actor;
let otherDoctor: Actor;
let headDoctor: Actor;
let admin: Actor;
let secretary: Actor;
let queue: Actor;
let nurse: Actor;
let stranger: Actor;
let urg: string;

/** The text of every page of a PDF (pdf.js, a devDependency). */
async function pdfText(bytes: Buffer): Promise<string> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: new Uint8Array(bytes), useSystemFonts: false }).promise;
  const pages: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(''));
  }
  return pages.join('\n');
}

function upload(
  actor: Actor,
  fields: Record<string, string>,
  file?: { name: string; type: string; bytes: Buffer },
) {
  const body = multipart(fields, file);
  return ctx.app.inject({
    method: 'POST',
    url: '/api/patient-documents/',
    headers: { ...actor.headers, ...body.headers },
    payload: body.payload,
  });
}

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

let hospitalId: string;
let hospitalAdmin: () => Promise<Actor>;

beforeAll(async () => {
  ctx = await createTestApp();
  await insertTestIcd10(ctx.database.db);
  await ensureMedicationReference(ctx.database.db);
  const h = await journeyHospital(ctx, { code: `DC${Math.floor(Math.random() * 1e6)}` });
  hospitalId = h.hospital.id;
  hospitalAdmin = () => h.as('ADMIN');
  urg = h.dep('URG').id;
  doctor = await h.as('DOCTOR');
  otherDoctor = await h.as('DOCTOR');
  headDoctor = await h.as('HEAD_DOCTOR');
  admin = await h.as('ADMIN');
  secretary = await h.as('SECRETARY');
  queue = await h.as('QUEUE_MANAGER');
  nurse = await h.as('NURSE');
  const other = await journeyHospital(ctx, { code: `DX${Math.floor(Math.random() * 1e6)}` });
  stranger = await other.as('DOCTOR');
}, 180_000);
afterAll(() => ctx.close());

const actors = () => ({ desk: secretary, assigner: queue, doctor });

async function completed(patientOver: Record<string, unknown> = {}) {
  const c = await startedConsultation(ctx.app, actors(), urg, 'emergency', patientOver);
  await completedConsultation(ctx.app, doctor, c.id, 'discharge', { reason: 'Fièvre', plan: 'Repos' });
  return c;
}

async function issue(actor: Actor, body: Record<string, unknown>) {
  const res = await call(ctx.app, actor, 'POST', '/api/documents/', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as TDocument;
}

describe('document models', () => {
  it("lists Greensen's models of every kind in both languages", async () => {
    const res = await call(ctx.app, nurse, 'GET', '/api/document-templates/?origin=shipped&page_size=100');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().count).toBe(20);
    expect(res.json().results.every((t: TDocumentTemplate) => t.shipped && t.active && !t.can.edit)).toBe(
      true,
    );
  });

  it('lets an administrator copy, adapt and activate the French medical certificate', async () => {
    const shipped = (
      await call(ctx.app, admin, 'GET', `/api/document-templates/${shippedId('medical_certificate', 'fr')}/`)
    ).json() as TDocumentTemplate;
    const created = await call(ctx.app, admin, 'POST', '/api/document-templates/', {
      kind: 'medical_certificate',
      language: 'fr',
      paper: 'A4',
      name: 'Certificat médical (HGG)',
      body: `${shipped.body}\nCachet du service des urgences.`,
      based_on: shipped.id,
    });
    expect(created.statusCode, created.body).toBe(201);
    const model = created.json() as TDocumentTemplate;
    expect(model).toMatchObject({ shipped: false, active: false, based_on: shipped.id, version: 1 });
    const activated = await call(ctx.app, admin, 'POST', `/api/document-templates/${model.id}/activate/`);
    expect(activated.json().active).toBe(true);
    const list = await call(
      ctx.app,
      doctor,
      'GET',
      '/api/document-templates/?kind=medical_certificate&language=fr&active=true',
    );
    expect(list.json().results.map((t: TDocumentTemplate) => t.id)).toEqual([model.id]);
    // A stale save is a 409 with the current version; a shipped model cannot be changed.
    const stale = await call(ctx.app, admin, 'PATCH', `/api/document-templates/${model.id}/`, {
      version: 0,
      name: 'X',
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().version).toBe(1);
    const shippedChange = await call(ctx.app, admin, 'PATCH', `/api/document-templates/${shipped.id}/`, {
      version: 1,
      name: 'X',
    });
    expect(shippedChange.statusCode).toBe(409);
    // Back to Greensen's model.
    await call(ctx.app, admin, 'POST', `/api/document-templates/${shipped.id}/activate/`);
    const again = await call(ctx.app, admin, 'GET', `/api/document-templates/${model.id}/`);
    expect(again.json().active).toBe(false);
  });

  it('refuses a body reaching outside its variables, with the line and the reason, without echoing it', async () => {
    const res = await call(ctx.app, admin, 'POST', '/api/document-templates/', {
      kind: 'medical_certificate',
      language: 'fr',
      paper: 'A4',
      name: 'Piège',
      body: '# Titre\n{{ patient.constructor.constructor }}',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      template_line: ['2'],
      template_reason: ['unknown_variable'],
    });
    expect(res.json().body[0]).toMatch(/^Ligne 2, colonne \d+ : variable inconnue/);
    expect(res.body).not.toContain('constructor');
    const include = await call(ctx.app, admin, 'POST', '/api/document-templates/preview/', {
      kind: 'free_letter',
      language: 'en',
      paper: 'A4',
      body: "{% include '../../../../etc/passwd' %}",
    });
    expect(include.statusCode).toBe(400);
    expect(include.json().template_reason).toEqual(['forbidden_tag']);
    expect(include.body).not.toContain('passwd');
  });

  it('renders off the event loop: a preview at its limit answers limit_exceeded while health answers (issue 36)', async () => {
    const heavy = {
      kind: 'free_letter',
      language: 'fr',
      paper: 'A4',
      body: '{% for i in (1..2000) %}{% for j in (1..2000) %}xxxxxxxxxx{% endfor %}{% endfor %}',
    };
    const order: string[] = [];
    const preview = call(ctx.app, admin, 'POST', '/api/document-templates/preview/', heavy).then((res) => {
      order.push('preview');
      return res;
    });
    // While the render runs (in a worker), the server answers other requests.
    const health = await ctx.app.inject('/api/health/');
    order.push('health');
    expect(health.statusCode).toBe(200);
    const refused = await preview;
    expect(order).toEqual(['health', 'preview']);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().template_reason).toEqual(['limit_exceeded']);
  });

  it('limits checks and previews of models per person (issue 36)', async () => {
    const body = { kind: 'free_letter', language: 'fr', paper: 'A4', body: '# Lettre' };
    const someone = await hospitalAdmin();
    const answers = [];
    for (let i = 0; i < 31; i++)
      answers.push(
        (await call(ctx.app, someone, 'POST', '/api/document-templates/preview/', body)).statusCode,
      );
    expect(answers.slice(0, 30)).toEqual(Array(30).fill(200));
    expect(answers[30]).toBe(429);
    // Another person is not held back by it.
    expect((await call(ctx.app, admin, 'POST', '/api/document-templates/preview/', body)).statusCode).toBe(
      200,
    );
  });

  it('previews a body with the demo data as HTML and PDF; doctors do not manage models', async () => {
    const body = {
      kind: 'prescription',
      language: 'fr',
      paper: 'A5',
      body: '# Ordonnance\n{{ patient.full_name }}',
    };
    const html = await call(ctx.app, headDoctor, 'POST', '/api/document-templates/preview/', body);
    expect(html.json().html).toBe('<h1>Ordonnance</h1>\n<p>Zoë Łukasz-Öztürk Niño</p>');
    const pdf = await call(ctx.app, admin, 'POST', '/api/document-templates/preview/pdf/', body);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(await pdfText(pdf.rawPayload)).toContain('Zoë Łukasz-Öztürk Niño');
    expect((await call(ctx.app, doctor, 'POST', '/api/document-templates/preview/', body)).statusCode).toBe(
      403,
    );
  });
});

describe('issued documents', () => {
  it('issues an edited certificate as a PDF that prints the same bytes, verified publicly until cancelled', async () => {
    const c = await completed({ first_name: 'Şükrü', last_name: 'Łęcki-Ñúñez' });
    const draft = await call(ctx.app, doctor, 'POST', '/api/documents/draft/', {
      kind: 'medical_certificate',
      source: { type: 'consultation', id: c.id },
    });
    expect(draft.statusCode, draft.body).toBe(200);
    expect(draft.json()).toMatchObject({ editable: true, paper: 'A4' });
    expect(draft.json().text).toContain('Şükrü Łęcki-Ñúñez');
    const doc = await issue(doctor, {
      kind: 'medical_certificate',
      source: { type: 'consultation', id: c.id },
      text: `${draft.json().text}\nRepos de **trois** jours.`,
    });
    expect(doc.number).toMatch(/^CM-DC\d+-\d{4}-000001$/);
    expect(doc.html).toContain('Repos de <strong>trois</strong> jours.');
    const first = await call(ctx.app, doctor, 'GET', `/api/documents/${doc.id}/pdf/`);
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-disposition']).toMatch(/^attachment; filename="CM-/);
    expect(first.headers['x-content-type-options']).toBe('nosniff');
    const second = await call(ctx.app, doctor, 'GET', `/api/documents/${doc.id}/pdf/?disposition=inline`);
    expect(second.headers['content-disposition']).toMatch(/^inline;/);
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(createHash('sha256').update(first.rawPayload).digest('hex')).toBe(doc.sha256);
    const text = await pdfText(first.rawPayload);
    for (const expected of [
      'Certificat médical',
      'Şükrü Łęcki-Ñúñez',
      'Repos de trois jours.',
      doc.number,
      doc.verification_code,
      'Page 1 / 1',
    ])
      expect(text).toContain(expected);

    const token = doc.verification_path.split('/').pop()!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const verified = await ctx.app.inject({ method: 'GET', url: `/api/verify/${token}/` });
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toMatchObject({
      kind: 'medical_certificate',
      number: doc.number,
      status: 'valid',
    });
    expect(verified.json().issuer).toMatch(/^Dr\. /);
    // Authenticity, and the patient's initials and year of birth to match the paper to its bearer (issue 37):
    // nothing more of the patient, no medical content.
    expect(verified.body).not.toContain('Şükrü');
    expect(verified.body).not.toContain('Łęcki');
    expect(verified.body).not.toContain('Repos');
    expect(verified.json().patient).toEqual({ initials: 'Ş. Ł.-Ñ.', birth_year: expect.any(Number) });
    expect(Object.keys(verified.json()).sort()).toEqual(
      [
        'cancelled_at',
        'hospital',
        'issued_at',
        'issued_on',
        'issuer',
        'kind',
        'number',
        'patient',
        'status',
        'verification_code',
      ].sort(),
    );

    const notAuthor = await call(ctx.app, otherDoctor, 'POST', `/api/documents/${doc.id}/cancel/`, {
      reason: 'Erreur',
    });
    expect(notAuthor.statusCode).toBe(403);
    const cancelled = await call(ctx.app, doctor, 'POST', `/api/documents/${doc.id}/cancel/`, {
      reason: 'Erreur de patient',
    });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toMatchObject({ status: 'cancelled', cancel_reason: 'Erreur de patient' });
    const twice = await call(ctx.app, headDoctor, 'POST', `/api/documents/${doc.id}/cancel/`, {
      reason: 'Encore',
    });
    expect(twice.statusCode).toBe(409);
    const after = await ctx.app.inject({ method: 'GET', url: `/api/verify/${token}/` });
    expect(after.json()).toMatchObject({ status: 'cancelled' });
    expect(after.json().cancelled_at).not.toBeNull();
    // Cancelling keeps the file as it was.
    const third = await call(ctx.app, doctor, 'GET', `/api/documents/${doc.id}/pdf/`);
    expect(third.rawPayload.equals(first.rawPayload)).toBe(true);
    const audit = await ctx.database.db.execute<{ action: string }>(
      sql`select action from audit_events where resource_id = ${doc.id} order by occurred_at, id`,
    );
    expect(audit.rows.map((r) => r.action)).toEqual([
      'document.issue',
      'document.download',
      'document.download',
      'document.cancel',
      'document.download',
    ]);
  });

  it('prints a signed prescription as generated (A5, no edit); refuses kinds and sources that do not match', async () => {
    const c = await startedConsultation(ctx.app, actors(), urg);
    const med = (await call(ctx.app, doctor, 'GET', '/api/medications/?atc=N02BE01&page_size=5')).json()
      .results[0];
    const presentation = med.presentations.find((p: { form: string }) => p.form === 'tablet').id;
    const rx = await call(ctx.app, doctor, 'POST', '/api/prescriptions/', {
      patient: c.patient,
      consultation: c.id,
      lines: [
        {
          presentation,
          dose: 1,
          dose_unit: 'comprimé',
          route: 'oral',
          frequency: { kind: 'times_per_day', times: 3 },
          duration_days: 3,
        },
      ],
    });
    expect(rx.statusCode, rx.body).toBe(201);
    const source = { type: 'prescription', id: rx.json().id };
    const draft = await call(ctx.app, doctor, 'POST', '/api/documents/draft/', {
      kind: 'prescription',
      source,
    });
    expect(draft.statusCode).toBe(400); // a draft prescription is not printed
    const signed = await call(ctx.app, doctor, 'POST', `/api/prescriptions/${rx.json().id}/sign/`, {
      version: 1,
    });
    expect(signed.statusCode, signed.body).toBe(200);
    const edited = await call(ctx.app, doctor, 'POST', '/api/documents/', {
      kind: 'prescription',
      source,
      text: 'Autre',
    });
    expect(edited.statusCode).toBe(400);
    expect(edited.json().text).toBeDefined();
    const doc = await issue(doctor, { kind: 'prescription', source });
    expect(doc.paper).toBe('A5');
    const pdf = await call(ctx.app, doctor, 'GET', `/api/documents/${doc.id}/pdf/`);
    expect(await pdfText(pdf.rawPayload)).toContain('Paracétamol 500 mg (comprimé) — 1 comprimé, voie orale');
    const wrongSource = await call(ctx.app, doctor, 'POST', '/api/documents/draft/', {
      kind: 'consultation_report',
      source,
    });
    expect(wrongSource.statusCode).toBe(400);
    const secretaryIssue = await call(ctx.app, secretary, 'POST', '/api/documents/draft/', {
      kind: 'prescription',
      source,
    });
    expect(secretaryIssue.statusCode).toBe(403);
    const invoice = await call(ctx.app, admin, 'POST', '/api/documents/draft/', {
      kind: 'invoice',
      source: { type: 'patient', id: c.patient },
    });
    expect(invoice.statusCode).toBe(400); // models only until billing exists
  });

  it('prints a French prescription with its unit in words and its dose in French numbers (issue 37)', async () => {
    const c = await startedConsultation(ctx.app, actors(), urg);
    const med = (await call(ctx.app, doctor, 'GET', '/api/medications/?atc=J01CA04&page_size=5')).json()
      .results[0];
    const presentation = med.presentations.find(
      (p: { form: string; strength: string }) => p.form === 'capsule' && p.strength === '500 mg',
    ).id;
    const rx = await call(ctx.app, doctor, 'POST', '/api/prescriptions/', {
      patient: c.patient,
      consultation: c.id,
      lines: [
        {
          presentation,
          dose: 1.5,
          dose_unit: 'capsule',
          route: 'oral',
          frequency: { kind: 'times_per_day', times: 2 },
          duration_days: 5,
        },
      ],
    });
    expect(rx.statusCode, rx.body).toBe(201);
    const signed = await call(ctx.app, doctor, 'POST', `/api/prescriptions/${rx.json().id}/sign/`, {
      version: 1,
    });
    expect(signed.statusCode, signed.body).toBe(200);
    const source = { type: 'prescription', id: rx.json().id };
    const draft = await call(ctx.app, doctor, 'POST', '/api/documents/draft/', {
      kind: 'prescription',
      source,
      language: 'fr',
    });
    expect(draft.statusCode, draft.body).toBe(200);
    const text: string = draft.json().text;
    expect(text).toMatch(/1,5 gélules?/);
    expect(text).not.toContain('capsule');
    expect(text).not.toContain('1.5');
    const doc = await issue(doctor, { kind: 'prescription', source, language: 'fr' });
    const pdf = await pdfText(
      (await call(ctx.app, doctor, 'GET', `/api/documents/${doc.id}/pdf/`)).rawPayload,
    );
    expect(pdf).toMatch(/1,5 gélules?/);
    expect(pdf).not.toContain('capsule');
  });

  it('issues a document without the logo when the stored logo cannot be drawn, and logs why (issue 36)', async () => {
    const patient = await createPatient(ctx.app, secretary);
    // A corrupt logo put straight into the storage (as before issue 36, when only the first bytes were checked).
    const corrupt = Buffer.concat([PNG.subarray(0, 8), Buffer.from('only the first bytes of a PNG')]);
    await ctx.database.db.execute(sql`insert into hospital_logos (hospital_id, content_type, data, size, updated_at)
      values (${hospitalId}, 'image/png', ${corrupt.toString('base64')}, ${corrupt.length}, now())
      on conflict (hospital_id) do update set content_type = excluded.content_type, data = excluded.data,
        size = excluded.size`);
    const logged: unknown[] = [];
    const spy = vi.spyOn(ctx.app.log, 'error').mockImplementation(((...args: unknown[]) => {
      logged.push(args);
    }) as never);
    try {
      const res = await call(ctx.app, doctor, 'POST', '/api/documents/', {
        kind: 'medical_certificate',
        source: { type: 'patient', id: patient.id },
      });
      expect(res.statusCode, res.body).toBe(201);
      const pdf = await call(ctx.app, doctor, 'GET', `/api/documents/${res.json().id}/pdf/`);
      expect(pdf.statusCode).toBe(200);
      expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
      expect(JSON.stringify(logged)).toContain('logo');
    } finally {
      spy.mockRestore();
      await ctx.database.db.execute(sql`delete from hospital_logos where hospital_id = ${hospitalId}`);
    }
  });

  it('keeps documents to their hospital (404) and clinical ones from secretaries (403)', async () => {
    const c = await completed();
    const doc = await issue(doctor, {
      kind: 'consultation_report',
      source: { type: 'consultation', id: c.id },
    });
    expect((await call(ctx.app, stranger, 'GET', `/api/documents/${doc.id}/`)).statusCode).toBe(404);
    expect((await call(ctx.app, stranger, 'GET', `/api/documents/${doc.id}/pdf/`)).statusCode).toBe(404);
    expect((await call(ctx.app, secretary, 'GET', `/api/documents/${doc.id}/`)).statusCode).toBe(403);
    const list = await call(ctx.app, secretary, 'GET', `/api/documents/?patient=${c.patient}`);
    expect(list.json().count).toBe(0);
    const mine = await call(
      ctx.app,
      nurse,
      'GET',
      `/api/documents/?patient=${c.patient}&kind=consultation_report`,
    );
    expect(mine.json().results.map((d: TDocument) => d.id)).toEqual([doc.id]);
    const unknown = await ctx.app.inject({ method: 'GET', url: `/api/verify/${'A'.repeat(22)}/` });
    expect(unknown.statusCode).toBe(404);
    // A consultation of another hospital is no source.
    const theirs = await call(ctx.app, stranger, 'POST', '/api/documents/draft/', {
      kind: 'consultation_report',
      source: { type: 'consultation', id: c.id },
    });
    expect(theirs.statusCode).toBe(404);
  });

  it('numbers concurrent issues without gap or duplicate, and an issued document never changes', async () => {
    const patient = await createPatient(ctx.app, secretary);
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        call(ctx.app, doctor, 'POST', '/api/documents/', {
          kind: 'sick_leave_certificate',
          source: { type: 'patient', id: patient.id },
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(6).fill(201));
    const numbers = answers
      .map((a) => Number((a.json() as TDocument).number.slice(-6)))
      .sort((a, b) => a - b);
    expect(numbers).toEqual([1, 2, 3, 4, 5, 6]);
    const id = answers[0]!.json().id as string;
    await expect(
      ctx.database.db.execute(sql`update documents set body = 'forged' where id = ${id}`),
    ).rejects.toThrow();
    await expect(ctx.database.db.execute(sql`delete from documents where id = ${id}`)).rejects.toThrow();
  });
});

describe('patient documents', () => {
  it('adds a photo, shows it inline, downloads it, refuses a disguised file and another hospital', async () => {
    const patient = await createPatient(ctx.app, secretary);
    const added = await upload(
      secretary,
      {
        patient: patient.id,
        category: 'id_document',
        document_date: '2026-11-20',
        description: "Carte d'identité",
      },
      { name: 'carte identité.png', type: 'image/png', bytes: PNG },
    );
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json()).toMatchObject({
      content_type: 'image/png',
      file_name: 'carte identité.png',
      viewable: true,
    });
    const id = added.json().id as string;
    const inline = await call(ctx.app, nurse, 'GET', `/api/patient-documents/${id}/file/?disposition=inline`);
    expect(inline.headers['content-type']).toBe('image/png');
    expect(inline.headers['content-disposition']).toMatch(/^inline; filename="carte identit_\.png"/);
    expect(inline.headers['x-content-type-options']).toBe('nosniff');
    expect(inline.rawPayload.equals(PNG)).toBe(true);

    const disguised = await upload(
      secretary,
      { patient: patient.id, category: 'other' },
      { name: 'photo.png', type: 'image/png', bytes: Buffer.from('<svg onload="alert(1)"></svg>') },
    );
    expect(disguised.statusCode).toBe(400);
    expect(disguised.json().file).toBeDefined();
    const html = await upload(
      secretary,
      { patient: patient.id, category: 'other' },
      { name: 'scan.jpg', type: 'image/jpeg', bytes: Buffer.from('<html><script>alert(1)</script></html>') },
    );
    expect(html.statusCode).toBe(400);

    expect((await call(ctx.app, stranger, 'GET', `/api/patient-documents/${id}/`)).statusCode).toBe(404);
    expect((await call(ctx.app, stranger, 'GET', `/api/patient-documents/${id}/file/`)).statusCode).toBe(404);
    const theirPatient = await upload(
      stranger,
      { patient: patient.id, category: 'other' },
      { name: 'a.png', type: 'image/png', bytes: PNG },
    );
    expect(theirPatient.statusCode).toBe(400);

    const list = await call(ctx.app, doctor, 'GET', `/api/patient-documents/?patient=${patient.id}`);
    expect(list.json().count).toBe(1);
    const notMine = await call(ctx.app, nurse, 'POST', `/api/patient-documents/${id}/delete/`, {
      reason: 'Doublon',
    });
    expect(notMine.statusCode).toBe(403);
    const deleted = await call(ctx.app, secretary, 'POST', `/api/patient-documents/${id}/delete/`, {
      reason: 'Doublon',
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect((await call(ctx.app, doctor, 'GET', `/api/patient-documents/${id}/`)).statusCode).toBe(404);
    const audit = await ctx.database.db.execute<{ action: string }>(
      sql`select action from audit_events where resource_id = ${id} order by occurred_at, id`,
    );
    expect(audit.rows.map((r) => r.action)).toEqual([
      'patient_document.upload',
      'patient_document.view',
      'patient_document.delete',
    ]);
  });

  it('stores a PDF uploaded as poly.html under the extension of its detected type (issue 36)', async () => {
    const patient = await createPatient(ctx.app, secretary);
    const pdf = Buffer.from('%PDF-1.4\n<html><script>alert(1)</script></html>\n%%EOF\n');
    const added = await upload(
      secretary,
      { patient: patient.id, category: 'other' },
      { name: 'poly.html', type: 'text/html', bytes: pdf },
    );
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json()).toMatchObject({ content_type: 'application/pdf', file_name: 'poly.pdf' });
    const file = await call(ctx.app, doctor, 'GET', `/api/patient-documents/${added.json().id}/file/`);
    expect(file.headers['content-disposition']).toMatch(/^attachment; filename="poly\.pdf"/);
    // A name without an extension, or with the right one in another spelling, takes or keeps the type's.
    const bare = await upload(
      secretary,
      { patient: patient.id, category: 'other' },
      { name: 'scan', type: 'application/octet-stream', bytes: pdf },
    );
    expect(bare.json().file_name).toBe('scan.pdf');
    const jpeg = await upload(
      secretary,
      { patient: patient.id, category: 'other' },
      { name: 'photo.PNG.exe', type: 'image/png', bytes: PNG },
    );
    expect(jpeg.json().file_name).toBe('photo.PNG.png');
  });

  it("refuses a file above the hospital's limit", async () => {
    const patient = await createPatient(ctx.app, secretary);
    const set = await call(ctx.app, admin, 'PATCH', '/api/hospital/settings/', { upload_max_mb: 1 });
    expect(set.statusCode, set.body).toBe(200);
    const big = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(1024 * 1024 + 10, 0x20)]);
    const res = await upload(
      secretary,
      { patient: patient.id, category: 'previous_results' },
      { name: 'big.pdf', type: 'application/pdf', bytes: big },
    );
    expect(res.statusCode).toBe(413);
    const small = await upload(
      secretary,
      { patient: patient.id, category: 'previous_results' },
      { name: 'small.pdf', type: 'application/octet-stream', bytes: Buffer.from('%PDF-1.4\n%%EOF\n') },
    );
    expect(small.statusCode, small.body).toBe(201);
    expect(small.json().content_type).toBe('application/pdf');
    await call(ctx.app, admin, 'PATCH', '/api/hospital/settings/', { upload_max_mb: 10 });
  });
});

describe('the public verification page', () => {
  it('is rate-limited per address (30 a minute), with the usual 429 answer', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      const res = await ctx.app.inject({
        method: 'GET',
        url: `/api/verify/${'B'.repeat(22)}/`,
        remoteAddress: '10.19.0.19',
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 30)).toEqual(Array(30).fill(404));
    expect(statuses[30]).toBe(429);
    const other = await ctx.app.inject({
      method: 'GET',
      url: `/api/verify/${'B'.repeat(22)}/`,
      remoteAddress: '10.19.0.20',
    });
    expect(other.statusCode).toBe(404);
  });
});
