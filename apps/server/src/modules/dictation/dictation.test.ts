import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { authHeaders, makeHospital, makeUser, tokenFor } from '../../../test/factories.js';
import { auditEvents, patientDocuments } from '../../db/schema/index.js';
import { audioTypeOf } from './audio.js';

/** A few bytes that start like a WebM recording (EBML header). */
const WEBM = Buffer.concat([
  Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81]),
  Buffer.alloc(64, 1),
]);

function multipart(fields: Record<string, string>, audio: Buffer | null, name = 'audio') {
  const boundary = 'greensendictation';
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  if (audio)
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="dictee.webm"\r\nContent-Type: audio/webm\r\n\r\n`,
      ),
      audio,
      Buffer.from('\r\n'),
    );
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), type: `multipart/form-data; boundary=${boundary}` };
}

/** A speech-to-text service in the test: records what it receives; answers `{text}`, or fails when told to. */
function fakeService() {
  const received: { type: string | undefined; language: string | null; bytes: number }[] = [];
  let failing = false;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      received.push({
        type: req.headers['content-type'],
        language: url.searchParams.get('language'),
        bytes: Buffer.concat(chunks).length,
      });
      if (failing) {
        res.writeHead(503).end('busy');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ text: ' Patient apyrétique, abdomen souple. ' }));
    });
  });
  return {
    server,
    received,
    fail(v: boolean) {
      failing = v;
    },
    async start() {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/transcribe`;
    },
  };
}

describe('dictation (issue 23)', () => {
  const service = fakeService();
  let withService: TestContext;
  let without: TestContext;
  const setup = async (ctx: TestContext) => {
    const hospital = (await makeHospital(ctx.app.db)).id;
    const other = (await makeHospital(ctx.app.db)).id;
    const doctor = await makeUser(ctx.app.db, { role: 'DOCTOR', hospitals: [{ id: hospital }] });
    const nurse = await makeUser(ctx.app.db, { role: 'NURSE', hospitals: [{ id: hospital }] });
    const admin = await makeUser(ctx.app.db, { role: 'ADMIN', hospitals: [{ id: hospital }] });
    const otherDoctor = await makeUser(ctx.app.db, { role: 'DOCTOR', hospitals: [{ id: other }] });
    const t = {
      doctor: await tokenFor(ctx.config.jwtSecret, doctor),
      nurse: await tokenFor(ctx.config.jwtSecret, nurse),
      admin: await tokenFor(ctx.config.jwtSecret, admin),
      otherDoctor: await tokenFor(ctx.config.jwtSecret, otherDoctor),
    };
    const p = await ctx.app.inject({
      method: 'POST',
      url: '/api/patients/',
      headers: authHeaders(t.doctor, hospital),
      payload: {
        first_name: 'Jean',
        last_name: 'Dicte',
        sex: 'M',
        birth_date: '1970-01-01',
        confirm_duplicate: true,
      },
    });
    return { hospital, other, t, patient: (p.json() as { id: string }).id, doctorId: doctor.id };
  };
  let a: Awaited<ReturnType<typeof setup>>;
  let b: Awaited<ReturnType<typeof setup>>;

  beforeAll(async () => {
    const url = await service.start();
    withService = await createTestApp({ transcriptionUrl: url });
    without = await createTestApp();
    a = await setup(withService);
    b = await setup(without);
  });
  afterAll(async () => {
    await withService.close();
    await without.close();
    await new Promise((resolve) => service.server.close(resolve));
  });

  const send = (
    ctx: TestContext,
    token: string,
    hospital: string,
    fields: Record<string, string>,
    audio = WEBM,
  ) => {
    const body = multipart(fields, audio);
    return ctx.app.inject({
      method: 'POST',
      url: '/api/dictation/transcriptions/',
      headers: { ...authHeaders(token, hospital), 'content-type': body.type },
      payload: body.payload,
    });
  };

  it('recognises recordings by their content only', () => {
    expect(audioTypeOf(WEBM)).toBe('audio/webm');
    expect(audioTypeOf(Buffer.from('OggS\0\0\0\0'))).toBe('audio/ogg');
    expect(audioTypeOf(Buffer.from('RIFF\0\0\0\0WAVEfmt '))).toBe('audio/wav');
    expect(audioTypeOf(Buffer.from('\0\0\0\x20ftypM4A \0\0\0\0', 'latin1'))).toBe('audio/mp4');
    expect(audioTypeOf(Buffer.from('\0\0\0\x20ftypheic\0\0\0\0', 'latin1'))).toBeNull();
    expect(audioTypeOf(Buffer.from('<script>'))).toBeNull();
  });

  it('sends the audio to the hospital’s transcription service and returns its text', async () => {
    const res = await send(withService, a.t.doctor, a.hospital, { language: 'en', patient: a.patient });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'transcribed',
      text: 'Patient apyrétique, abdomen souple.',
      recording: null,
    });
    expect(service.received.at(-1)).toEqual({ type: 'audio/webm', language: 'en', bytes: WEBM.length });
    const config = await withService.app.inject({
      url: '/api/dictation/config/',
      headers: authHeaders(a.t.nurse, a.hospital),
    });
    expect(config.json()).toMatchObject({ browser_enabled: true, server_transcription: true });
  });

  it('keeps the recording as a patient document when the service fails, listed for its author only', async () => {
    service.fail(true);
    try {
      const res = await send(withService, a.t.doctor, a.hospital, {
        patient: a.patient,
        context: 'Consultation — examen clinique',
      });
      expect(res.statusCode).toBe(200);
      const result = res.json() as { status: string; recording: string };
      expect(result.status).toBe('stored');
      const mine = await withService.app.inject({
        url: '/api/dictation/recordings/',
        headers: authHeaders(a.t.doctor, a.hospital),
      });
      const list = mine.json() as {
        count: number;
        results: { id: string; document: string; context: string }[];
      };
      expect(list.results.map((r) => r.id)).toEqual([result.recording]);
      expect(list.results[0]!.context).toBe('Consultation — examen clinique');
      const [doc] = await withService.app.db
        .select()
        .from(patientDocuments)
        .where(eq(patientDocuments.id, list.results[0]!.document));
      expect(doc).toMatchObject({ category: 'dictation', contentType: 'audio/webm', patientId: a.patient });
      // Someone else's list does not show it; they cannot mark it typed.
      const theirs = await withService.app.inject({
        url: '/api/dictation/recordings/',
        headers: authHeaders(a.t.nurse, a.hospital),
      });
      expect((theirs.json() as { count: number }).count).toBe(0);
      const steal = await withService.app.inject({
        method: 'POST',
        url: `/api/dictation/recordings/${result.recording}/typed/`,
        headers: authHeaders(a.t.nurse, a.hospital),
      });
      expect(steal.statusCode).toBe(404);
      const typed = await withService.app.inject({
        method: 'POST',
        url: `/api/dictation/recordings/${result.recording}/typed/`,
        headers: authHeaders(a.t.doctor, a.hospital),
      });
      expect(typed.statusCode).toBe(200);
      expect((typed.json() as { typed_at: string | null }).typed_at).not.toBeNull();
      const after = await withService.app.inject({
        url: '/api/dictation/recordings/',
        headers: authHeaders(a.t.doctor, a.hospital),
      });
      expect((after.json() as { count: number }).count).toBe(0);
      const audit = await withService.app.db
        .select({ action: auditEvents.action })
        .from(auditEvents)
        .where(eq(auditEvents.patientId, a.patient));
      expect(audit.map((r) => r.action)).toEqual(
        expect.arrayContaining(['patient_document.upload', 'dictation_recording.typed']),
      );
    } finally {
      service.fail(false);
    }
  });

  it('without a service: keeps the audio with a patient, says unavailable without one', async () => {
    const stored = await send(without, b.t.nurse, b.hospital, { patient: b.patient });
    expect(stored.json()).toMatchObject({ status: 'stored', text: null });
    const none = await send(without, b.t.nurse, b.hospital, {});
    expect(none.json()).toEqual({ status: 'unavailable', text: null, recording: null });
    const config = await without.app.inject({
      url: '/api/dictation/config/',
      headers: authHeaders(b.t.nurse, b.hospital),
    });
    expect(config.json()).toMatchObject({ server_transcription: false });
  });

  it('refuses what is not audio, another hospital’s patient, and too large a recording', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000', 'hex');
    const notAudio = await send(without, b.t.doctor, b.hospital, { patient: b.patient }, png);
    expect(notAudio.statusCode).toBe(400);
    expect(Object.keys(notAudio.json() as object)).toContain('audio');
    const foreign = await send(without, b.t.doctor, b.hospital, { patient: a.patient });
    expect(foreign.statusCode).toBe(400);
    expect(Object.keys(foreign.json() as object)).toContain('patient');
    const big = Buffer.concat([WEBM, Buffer.alloc(8 * 1024 * 1024)]);
    const tooLarge = await send(without, b.t.doctor, b.hospital, { patient: b.patient }, big);
    expect(tooLarge.statusCode).toBe(413);
    const missing = await without.app.inject({
      method: 'POST',
      url: '/api/dictation/transcriptions/',
      headers: authHeaders(b.t.doctor, b.hospital),
      payload: { audio: 'x' },
    });
    expect(missing.statusCode).toBe(400);
  });

  it('lets an administrator switch off browser recognition for the hospital', async () => {
    const off = await without.app.inject({
      method: 'PATCH',
      url: '/api/hospital/settings/',
      headers: authHeaders(b.t.admin, b.hospital),
      payload: { dictation_browser_enabled: false },
    });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ dictation_browser_enabled: false });
    const config = await without.app.inject({
      url: '/api/dictation/config/',
      headers: authHeaders(b.t.doctor, b.hospital),
    });
    expect(config.json()).toMatchObject({ browser_enabled: false });
    const nurse = await without.app.inject({
      method: 'PATCH',
      url: '/api/hospital/settings/',
      headers: authHeaders(b.t.nurse, b.hospital),
      payload: { dictation_browser_enabled: true },
    });
    expect(nurse.statusCode).toBe(403);
  });
});
