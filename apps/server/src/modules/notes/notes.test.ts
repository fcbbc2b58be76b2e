import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { authHeaders, makeHospital, makeUser, tokenFor } from '../../../test/factories.js';
import { auditEvents, notes } from '../../db/schema/index.js';

describe('notes (issue 23)', () => {
  let ctx: TestContext;
  let hospital: string;
  let other: string;
  let patient: string;
  let otherPatient: string;
  const tokens: Record<string, string> = {};
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    ctx = await createTestApp();
    hospital = (await makeHospital(ctx.app.db)).id;
    other = (await makeHospital(ctx.app.db)).id;
    for (const [name, role, at] of [
      ['doctor', 'DOCTOR', hospital],
      ['doctor2', 'DOCTOR', hospital],
      ['nurse', 'NURSE', hospital],
      ['secretary', 'SECRETARY', hospital],
      ['admin', 'ADMIN', hospital],
      ['otherDoctor', 'DOCTOR', other],
    ] as const) {
      const u = await makeUser(ctx.app.db, { role, hospitals: [{ id: at }] });
      tokens[name] = await tokenFor(ctx.config.jwtSecret, u);
      ids[name] = u.id;
    }
    const newPatient = async (who: string, at: string) => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/patients/',
        headers: authHeaders(tokens[who]!, at),
        payload: {
          first_name: 'Mireille',
          last_name: `Notes${Math.random().toString(36).slice(2, 8)}`,
          sex: 'F',
          birth_date: '1980-05-02',
          confirm_duplicate: true,
        },
      });
      expect(res.statusCode).toBe(201);
      return (res.json() as { id: string }).id;
    };
    patient = await newPatient('secretary', hospital);
    otherPatient = await newPatient('otherDoctor', other);
  });
  afterAll(() => ctx.close());

  const call = (
    who: string,
    method: 'GET' | 'POST' | 'PATCH',
    url: string,
    payload?: object,
    at = hospital,
  ) =>
    ctx.app.inject({ method, url, headers: authHeaders(tokens[who]!, at), ...(payload ? { payload } : {}) });

  it('keeps personal notes to their author: pinned first, searched by title, body and tag', async () => {
    const a = await call('doctor', 'POST', '/api/notes/', {
      title: 'Garde du week-end',
      body: 'Rappeler le **laboratoire** pour la glycémie',
      tags: ['Garde', 'labo', 'labo'],
    });
    expect(a.statusCode).toBe(201);
    expect(a.json()).toMatchObject({
      kind: 'personal',
      patient: null,
      tags: ['garde', 'labo'],
      pinned: false,
    });
    const b = await call('doctor', 'POST', '/api/notes/', { title: 'Idées protocole', pinned: true });
    expect(b.statusCode).toBe(201);
    await call('doctor2', 'POST', '/api/notes/', { title: 'Note de Didier, à lui seul' });

    const list = await call('doctor', 'GET', '/api/notes/');
    expect(list.statusCode).toBe(200);
    const titles = (list.json() as { results: { title: string }[] }).results.map((n) => n.title);
    expect(titles).toEqual(['Idées protocole', 'Garde du week-end']);

    const search = async (q: string) =>
      (
        (await call('doctor', 'GET', `/api/notes/?${q}`)).json() as {
          count: number;
          results: { id: string }[];
        }
      ).results.map((n) => n.id);
    const aId = (a.json() as { id: string }).id;
    expect(await search('search=glycemie')).toEqual([aId]); // accents ignored
    expect(await search('search=GARDE%20laboratoire')).toEqual([aId]);
    expect(await search('tag=labo')).toEqual([aId]);
    expect(await search('pinned=true')).toEqual([(b.json() as { id: string }).id]);
    expect(await search('search=%25')).toEqual([]);
    const paged = await call('doctor', 'GET', '/api/notes/?page_size=1');
    expect(paged.json()).toMatchObject({ count: 2, previous: null });
    expect((paged.json() as { next: string | null }).next).toContain('page=2');

    // Another person (even an administrator) does not see it: 404, as for a note that does not exist.
    for (const who of ['doctor2', 'admin']) {
      expect((await call(who, 'GET', `/api/notes/${aId}/`)).statusCode).toBe(404);
      expect((await call(who, 'PATCH', `/api/notes/${aId}/`, { title: 'Pris' })).statusCode).toBe(404);
      expect((await call(who, 'POST', `/api/notes/${aId}/delete/`)).statusCode).toBe(404);
    }
    // Nor in another hospital where the author is not a member; nor through the author's other hospital header.
    expect((await call('otherDoctor', 'GET', `/api/notes/${aId}/`, undefined, other)).statusCode).toBe(404);
  });

  it('lets the author change and delete (softly) a personal note; every write is audited', async () => {
    const created = await call('nurse', 'POST', '/api/notes/', { title: 'Brouillon', body: 'Un' });
    const id = (created.json() as { id: string }).id;
    const changed = await call('nurse', 'PATCH', `/api/notes/${id}/`, {
      body: 'Deux',
      pinned: true,
      tags: ['x'],
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ title: 'Brouillon', body: 'Deux', pinned: true, tags: ['x'] });
    expect((await call('nurse', 'PATCH', `/api/notes/${id}/`, { author: ids.doctor })).statusCode).toBe(400);
    expect((await call('nurse', 'POST', `/api/notes/${id}/delete/`)).statusCode).toBe(200);
    expect((await call('nurse', 'GET', `/api/notes/${id}/`)).statusCode).toBe(404);
    const [row] = await ctx.app.db.select().from(notes).where(eq(notes.id, id));
    expect(row?.deletedAt).not.toBeNull();
    const audit = await ctx.app.db
      .select({ action: auditEvents.action, patient: auditEvents.patientId })
      .from(auditEvents)
      .where(and(eq(auditEvents.resourceId, id)));
    expect(audit.map((a) => a.action).sort()).toEqual(['note.create', 'note.delete', 'note.update']);
    expect(audit.every((a) => a.patient === null)).toBe(true);
  });

  it("shows patient notes to the record's readers, never to a secretary nor another hospital", async () => {
    const created = await call('doctor', 'POST', `/api/patients/${patient}/notes/`, {
      title: 'Contexte social',
      body: '- vit seule\n- fille joignable le soir',
      tags: ['social'],
    });
    expect(created.statusCode).toBe(201);
    const note = created.json() as { id: string; kind: string; patient: { id: string } };
    expect(note).toMatchObject({ kind: 'patient', patient: { id: patient } });

    for (const who of ['doctor2', 'nurse', 'admin']) {
      const list = await call(who, 'GET', `/api/patients/${patient}/notes/`);
      expect(list.statusCode).toBe(200);
      expect((list.json() as { results: { id: string }[] }).results.map((n) => n.id)).toContain(note.id);
    }
    // A secretary may not read the clinical record: refused, and the refusal audited.
    expect((await call('secretary', 'GET', `/api/patients/${patient}/notes/`)).statusCode).toBe(403);
    expect(
      (await call('secretary', 'POST', `/api/patients/${patient}/notes/`, { title: 'x' })).statusCode,
    ).toBe(403);
    // Another hospital's patient is not found, whichever hospital is named.
    expect((await call('doctor', 'GET', `/api/patients/${otherPatient}/notes/`)).statusCode).toBe(404);
    expect(
      (await call('doctor', 'POST', `/api/patients/${otherPatient}/notes/`, { title: 'x' })).statusCode,
    ).toBe(404);
    expect(
      (await call('otherDoctor', 'GET', `/api/patients/${patient}/notes/`, undefined, other)).statusCode,
    ).toBe(404);
    expect(
      (await call('otherDoctor', 'PATCH', `/api/patient-notes/${note.id}/`, { title: 'x' }, other))
        .statusCode,
    ).toBe(404);
    // A patient note is not a personal note.
    expect((await call('doctor', 'GET', `/api/notes/${note.id}/`)).statusCode).toBe(404);
    // The list and the writes are audited with the patient.
    const audit = await ctx.app.db
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(and(eq(auditEvents.patientId, patient)));
    expect(audit.map((a) => a.action)).toEqual(
      expect.arrayContaining(['patient_note.create', 'patient_note.list']),
    );
  });

  it('lets only the author change or delete a patient note', async () => {
    const created = await call('nurse', 'POST', `/api/patients/${patient}/notes/`, { title: 'Pansement' });
    const id = (created.json() as { id: string }).id;
    const refused = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/patient-notes/${id}/`,
      headers: { ...authHeaders(tokens.doctor!, hospital), 'accept-language': 'en' },
      payload: { title: 'Autre' },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ detail: 'Only the note’s author may change or delete it.' });
    expect((await call('doctor', 'POST', `/api/patient-notes/${id}/delete/`)).statusCode).toBe(403);
    const ok = await call('nurse', 'PATCH', `/api/patient-notes/${id}/`, { pinned: true });
    expect(ok.json()).toMatchObject({ pinned: true, can: { edit: true } });
    expect((await call('nurse', 'POST', `/api/patient-notes/${id}/delete/`)).statusCode).toBe(200);
    const list = await call('doctor', 'GET', `/api/patients/${patient}/notes/`);
    expect((list.json() as { results: { id: string }[] }).results.map((n) => n.id)).not.toContain(id);
  });

  it('refuses malformed notes with field errors', async () => {
    const res = await call('doctor', 'POST', '/api/notes/', { title: '', tags: ['<b>'] });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json() as object)).toEqual(expect.arrayContaining(['title', 'tags.0']));
  });
});
