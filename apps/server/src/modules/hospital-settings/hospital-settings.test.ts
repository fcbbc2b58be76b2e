import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { authHeaders, makeHospital, makeUser, tokenFor } from '../../../test/factories.js';
import { auditEvents } from '../../db/schema/index.js';

describe('hospital-wide settings', () => {
  let ctx: TestContext;
  let hospital: string;
  let other: string;
  const tokens: Record<string, string> = {};
  beforeAll(async () => {
    // Production without extra modules: the settings belong to no module and work there too.
    ctx = await createTestApp({ appEnv: 'production' });
    hospital = (await makeHospital(ctx.app.db)).id;
    other = (await makeHospital(ctx.app.db)).id;
    for (const [name, role, at] of [
      ['admin', 'ADMIN', hospital],
      ['nurse', 'NURSE', hospital],
      ['otherAdmin', 'ADMIN', other],
    ] as const) {
      const u = await makeUser(ctx.app.db, { role, hospitals: [{ id: at }] });
      tokens[name] = await tokenFor(ctx.config.jwtSecret, u);
      tokens[`${name}Id`] = u.id;
    }
  });
  afterAll(() => ctx.close());

  const read = (who: string, at = hospital) =>
    ctx.app.inject({ url: '/api/hospital/settings/', headers: authHeaders(tokens[who]!, at) });
  const patch = (who: string, payload: object, at = hospital, lang = 'fr') =>
    ctx.app.inject({
      method: 'PATCH',
      url: '/api/hospital/settings/',
      headers: { ...authHeaders(tokens[who]!, at), 'accept-language': lang },
      payload,
    });

  it('gives every member the defaults until an administrator changes them; the change is audited', async () => {
    const before = await read('nurse');
    expect(before.statusCode).toBe(200);
    expect(before.json()).toMatchObject({
      consultation_minutes: 20,
      notification_sound: true,
      working_hours: { mon: { open: '08:00', close: '17:00' }, sun: null },
      updated_at: null,
      updated_by: null,
    });

    const hours = {
      mon: { open: '07:30', close: '18:00' },
      tue: { open: '07:30', close: '18:00' },
      wed: { open: '07:30', close: '18:00' },
      thu: { open: '07:30', close: '18:00' },
      fri: { open: '07:30', close: '16:00' },
      sat: null,
      sun: null,
    };
    const res = await patch('admin', { consultation_minutes: 30, working_hours: hours });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      consultation_minutes: 30,
      working_hours: hours,
      notification_sound: true,
      updated_by: { id: tokens.adminId },
    });
    // A second change keeps the first one's fields.
    expect((await patch('admin', { notification_sound: false })).json()).toMatchObject({
      consultation_minutes: 30,
      notification_sound: false,
    });
    expect((await read('nurse')).json()).toMatchObject({
      consultation_minutes: 30,
      notification_sound: false,
    });
    // Another hospital keeps its own.
    expect((await read('otherAdmin', other)).json()).toMatchObject({
      consultation_minutes: 20,
      updated_at: null,
    });

    const trail = await ctx.app.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.action, 'hospital_settings.update'));
    expect(trail.map((a) => [a.hospitalId, a.userId, a.details])).toEqual([
      [hospital, tokens.adminId, { changes: { consultation_minutes: 30, working_hours: hours } }],
      [hospital, tokens.adminId, { changes: { notification_sound: false } }],
    ]);
  });

  it("lets only the hospital's administrators change them", async () => {
    expect((await patch('nurse', { consultation_minutes: 25 })).statusCode).toBe(403);
    // An administrator of another hospital, naming this one: not a member.
    expect((await patch('otherAdmin', { consultation_minutes: 25 })).statusCode).toBe(403);
    expect((await read('otherAdmin')).statusCode).toBe(403);
    const anonymous = await ctx.app.inject({
      url: '/api/hospital/settings/',
      headers: { 'hospital-id': hospital },
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('checks the values, with field errors in French and English', async () => {
    const fr = await patch('admin', {
      consultation_minutes: 3,
      working_hours: {
        mon: { open: '17:00', close: '08:00' },
        tue: { open: '8h', close: '12:00' },
        wed: null,
        thu: null,
        fri: null,
        sat: null,
        sun: null,
      },
    });
    expect(fr.statusCode).toBe(400);
    expect(fr.json()).toEqual({
      consultation_minutes: ['Une durée entière de 5 à 120 minutes.'],
      'working_hours.mon.close': ["L'heure de fermeture doit être après l'heure d'ouverture."],
      'working_hours.tue.open': ['Heure attendue au format HH:MM (par exemple « 08:30 »).'],
    });
    const en = await patch('admin', { consultation_minutes: 121.5 }, hospital, 'en');
    expect(en.json()).toEqual({ consultation_minutes: ['A whole number of minutes from 5 to 120.'] });
    // A day missing or a field the API does not know: refused, not dropped.
    expect((await patch('admin', { working_hours: { mon: null } })).statusCode).toBe(400);
    expect((await patch('admin', { theme: 'dark' })).statusCode).toBe(400);
  });

  it('sets the nursing shift times (issue 20): 2 to 4 times in order', async () => {
    const ok = await patch('admin', { shift_times: ['06:30', '14:30', '22:00'] });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().shift_times).toEqual(['06:30', '14:30', '22:00']);
    const unordered = await patch('admin', { shift_times: ['19:00', '07:00'] });
    expect(unordered.json()).toEqual({
      shift_times: ['Les heures de relève doivent se suivre dans la journée.'],
    });
    const one = await patch('admin', { shift_times: ['07:00'] });
    expect(one.json()).toEqual({ shift_times: ['De 2 à 4 heures de relève.'] });
    expect((await patch('admin', { shift_times: ['07:00', '19:00'] })).statusCode).toBe(200);
  });

  it('keeps both of two simultaneous changes of different fields', async () => {
    const [a, b] = await Promise.all([
      patch('admin', { consultation_minutes: 45 }),
      patch('admin', { notification_sound: true }),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect((await read('nurse')).json()).toMatchObject({
      consultation_minutes: 45,
      notification_sound: true,
    });
  });
});
