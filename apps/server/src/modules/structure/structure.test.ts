import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { call } from '../../../test/consultations.js';
import { type Actor, journeyHospital } from '../../../test/journey.js';

let ctx: TestContext;
let h: Awaited<ReturnType<typeof journeyHospital>>;
let admin: Actor;
let nurse: Actor;
let otherAdmin: Actor;

beforeAll(async () => {
  ctx = await createTestApp();
  h = await journeyHospital(ctx);
  admin = await h.as('ADMIN');
  nurse = await h.as('NURSE', 'URG');
  otherAdmin = await (await journeyHospital(ctx, { code: 'AUT' })).as('ADMIN');
});
afterAll(() => ctx.close());

type WardDetail = {
  id: string;
  rooms: number;
  beds: { total: number; free: number; occupied: number; cleaning: number; out_of_service: number };
  room_list: {
    id: string;
    name: string;
    beds: { id: string; label: string; status: string; is_active: boolean }[];
  }[];
};

async function newWard(code: string) {
  const res = await call(ctx.app, admin, 'POST', '/api/wards/', {
    department: h.dep('MED').id,
    name: `Médecine ${code}`,
    code,
    category: 'standard',
    sex_restriction: 'F',
    min_age: 16,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as WardDetail;
}

describe('hospital structure', () => {
  it('creates a department with a head who is a member, and refuses codes and heads that do not fit', async () => {
    const created = await call(ctx.app, admin, 'POST', '/api/departments/', {
      name: 'Facturation',
      code: 'fac',
      kind: 'billing',
      head: admin.id,
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      code: 'FAC',
      kind: 'billing',
      is_active: true,
      head: { id: admin.id },
    });
    const again = await call(ctx.app, admin, 'POST', '/api/departments/', {
      name: 'X',
      code: 'FAC',
      kind: 'clinical',
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toEqual(['Ce code est déjà utilisé dans l’hôpital.']);
    const stranger = await call(ctx.app, admin, 'POST', '/api/departments/', {
      name: 'Y',
      code: 'YY',
      kind: 'clinical',
      head: otherAdmin.id,
    });
    expect(stranger.statusCode).toBe(400);
    expect(stranger.json().head).toEqual(["Le chef de service doit être un membre actif de l'hôpital."]);
    const list = await call(ctx.app, nurse, 'GET', '/api/departments/?page_size=100');
    expect(list.json().results.find((d: { code: string }) => d.code === 'FAC')).toMatchObject({
      head: { id: admin.id },
    });
  });

  it('builds a ward, a room with beds A–D at once, and counts beds by status', async () => {
    const ward = await newWard('MED-X');
    expect(ward).toMatchObject({ rooms: 0, beds: { total: 0 }, room_list: [] });
    const withRoom = await call(ctx.app, admin, 'POST', `/api/wards/${ward.id}/rooms/`, {
      name: '12',
      beds: ['A', 'B', 'C', 'D'],
    });
    expect(withRoom.statusCode, withRoom.body).toBe(201);
    const detail = withRoom.json() as WardDetail;
    expect(detail.room_list).toHaveLength(1);
    expect(detail.room_list[0]!.beds.map((b) => b.label)).toEqual(['A', 'B', 'C', 'D']);
    expect(detail).toMatchObject({ rooms: 1, beds: { total: 4, free: 4 } });
    // The same room twice, or a bed label twice in a room, is a 400 on the field.
    const sameRoom = await call(ctx.app, admin, 'POST', `/api/wards/${ward.id}/rooms/`, {
      name: '12',
      beds: ['A'],
    });
    expect(sameRoom.statusCode).toBe(400);
    const room = detail.room_list[0]!;
    const sameBed = await call(ctx.app, admin, 'POST', `/api/rooms/${room.id}/beds/`, { labels: ['b'] });
    expect(sameBed.statusCode).toBe(400);
    const more = await call(ctx.app, admin, 'POST', `/api/rooms/${room.id}/beds/`, { labels: ['E'] });
    expect((more.json() as WardDetail).beds.total).toBe(5);
    // Out of service needs a reason; cleaning does not.
    const bed = room.beds[1]!;
    const noReason = await call(ctx.app, admin, 'PATCH', `/api/beds/${bed.id}/`, {
      status: 'out_of_service',
    });
    expect(noReason.statusCode).toBe(400);
    const broken = await call(ctx.app, admin, 'PATCH', `/api/beds/${bed.id}/`, {
      status: 'out_of_service',
      status_reason: 'Sommier cassé',
    });
    expect(broken.statusCode, broken.body).toBe(200);
    await call(ctx.app, admin, 'PATCH', `/api/beds/${room.beds[2]!.id}/`, { status: 'cleaning' });
    const list = await call(ctx.app, nurse, 'GET', `/api/wards/?department=${h.dep('MED').id}`);
    expect(list.json().results.find((w: { id: string }) => w.id === ward.id)).toMatchObject({
      beds: { total: 5, free: 3, cleaning: 1, out_of_service: 1, occupied: 0 },
    });
  });

  it('never removes a bed from under a patient: occupied beds, rooms and wards stay (409), and so says the database', async () => {
    const ward = await newWard('MED-Y');
    const withRoom = (
      await call(ctx.app, admin, 'POST', `/api/wards/${ward.id}/rooms/`, { name: '3', beds: ['1', '2'] })
    ).json() as WardDetail;
    const room = withRoom.room_list[0]!;
    const bed = room.beds[0]!;
    // A patient lies in bed 1 (the inpatient module will set it; here directly).
    await ctx.database.db.execute(sql`update beds set status = 'occupied' where id = ${bed.id}`);
    for (const [path, body, key] of [
      [`/api/beds/${bed.id}/`, { status: 'out_of_service', status_reason: 'Travaux' }, 'bed_occupied'],
      [`/api/beds/${bed.id}/`, { is_active: false }, 'bed_occupied'],
      [`/api/beds/${bed.id}/`, { status: 'free' }, 'bed_occupied'],
      [`/api/rooms/${room.id}/`, { is_active: false }, 'room_occupied'],
      [`/api/wards/${ward.id}/`, { is_active: false }, 'ward_occupied'],
    ] as const) {
      const res = await call(ctx.app, admin, 'PATCH', path, body);
      expect(res.statusCode, `${path} ${JSON.stringify(body)} ${key}`).toBe(409);
    }
    await expect(
      ctx.database.db.execute(sql`update beds set is_active = false where id = ${bed.id}`),
    ).rejects.toThrow();
    // The other bed of the room can go out of service.
    const other = await call(ctx.app, admin, 'PATCH', `/api/beds/${room.beds[1]!.id}/`, { is_active: false });
    expect(other.statusCode).toBe(200);
    // Once the patient has left, the ward can be deactivated; it leaves the default list, not the database.
    await ctx.database.db.execute(sql`update beds set status = 'cleaning' where id = ${bed.id}`);
    const closed = await call(ctx.app, admin, 'PATCH', `/api/wards/${ward.id}/`, { is_active: false });
    expect(closed.statusCode, closed.body).toBe(200);
    const active = await call(ctx.app, admin, 'GET', '/api/wards/?page_size=100');
    expect(active.json().results.map((w: { id: string }) => w.id)).not.toContain(ward.id);
    const all = await call(ctx.app, admin, 'GET', '/api/wards/?page_size=100&include_inactive=true');
    expect(all.json().results.map((w: { id: string }) => w.id)).toContain(ward.id);
  });

  it('never leaves a bed both occupied and deactivated when a stay and a deactivation race', async () => {
    const ward = await newWard('MED-Z');
    const room = (
      (
        await call(ctx.app, admin, 'POST', `/api/wards/${ward.id}/rooms/`, { name: '7', beds: ['1'] })
      ).json() as WardDetail
    ).room_list[0]!;
    const bed = room.beds[0]!;
    // The inpatient module's write (a patient takes the bed) against the administrator's deactivation, at once.
    const [occupy, deactivate] = await Promise.allSettled([
      ctx.database.db.execute(sql`update beds set status = 'occupied' where id = ${bed.id}`),
      call(ctx.app, admin, 'PATCH', `/api/beds/${bed.id}/`, { is_active: false }),
    ]);
    const rows = await ctx.database.db.execute<{ status: string; is_active: boolean }>(
      sql`select status::text as status, is_active from beds where id = ${bed.id}`,
    );
    const final = rows.rows[0]!;
    expect(final.status === 'occupied' && !final.is_active, JSON.stringify(final)).toBe(false);
    // Exactly one of the two won.
    const occupied = occupy.status === 'fulfilled' && final.status === 'occupied';
    const deactivated =
      deactivate.status === 'fulfilled' && deactivate.value.statusCode === 200 && !final.is_active;
    expect(occupied !== deactivated).toBe(true);
  });

  it('keeps a department with active wards active, and refuses a ward in a department of another hospital', async () => {
    const res = await call(ctx.app, admin, 'PATCH', `/api/departments/${h.dep('MED').id}/`, {
      is_active: false,
    });
    expect(res.statusCode).toBe(409);
    const foreign = await journeyHospital(ctx, { code: 'ETR' });
    const ward = await call(ctx.app, admin, 'POST', '/api/wards/', {
      department: foreign.dep('MED').id,
      name: 'Ailleurs',
      code: 'ETR-1',
    });
    expect(ward.statusCode).toBe(400);
    expect(ward.json().department).toEqual(["Ce service n'existe pas dans l'hôpital."]);
  });

  it('lets every member read the wards and only administrators change them', async () => {
    expect((await call(ctx.app, nurse, 'GET', '/api/wards/')).statusCode).toBe(200);
    const refused = await call(ctx.app, nurse, 'POST', '/api/wards/', {
      department: h.dep('MED').id,
      name: 'Non',
      code: 'NON',
    });
    expect(refused.statusCode).toBe(403);
  });
});

describe('hospitals', () => {
  it("creates a hospital whose creator administers it, edits the current one's details, never its code", async () => {
    const created = await call(ctx.app, admin, 'POST', '/api/hospitals/', {
      name: 'Centre de santé de Kintambo',
      code: 'csk',
      time_zone: 'Africa/Kinshasa',
      currency: 'cdf',
      triage_scale: 'SATS',
      phones: ['+243 81 555 00 00'],
    });
    expect(created.statusCode, created.body).toBe(201);
    const hospital = created.json();
    expect(hospital).toMatchObject({
      code: 'CSK',
      currency: 'CDF',
      triage_scale: 'SATS',
      languages: ['fr', 'en'],
    });
    // The creator works there now, as its administrator.
    const there = { ...admin, headers: { ...admin.headers, 'hospital-id': hospital.id } };
    const read = await call(ctx.app, there, 'GET', `/api/hospitals/${hospital.id}/`);
    expect(read.statusCode, read.body).toBe(200);
    const edited = await call(ctx.app, there, 'PATCH', `/api/hospitals/${hospital.id}/`, {
      print_header: 'République démocratique du Congo — Ministère de la Santé',
    });
    expect(edited.json()).toMatchObject({ code: 'CSK', print_header: expect.stringContaining('Ministère') });
    // The code is set once: record and invoice numbers carry it.
    const recode = await call(ctx.app, there, 'PATCH', `/api/hospitals/${hospital.id}/`, { code: 'XXX' });
    expect(recode.statusCode).toBe(400);
    // Unknown time zones and currencies are refused on their field.
    const wrong = await call(ctx.app, there, 'PATCH', `/api/hospitals/${hospital.id}/`, {
      time_zone: 'Mars/Olympus',
      currency: 'EURO',
    });
    expect(wrong.statusCode).toBe(400);
    expect(Object.keys(wrong.json()).sort()).toEqual(['currency', 'time_zone']);
    // Another hospital's details: not found from here.
    expect((await call(ctx.app, admin, 'GET', `/api/hospitals/${hospital.id}/`)).statusCode).toBe(404);
  });

  it('lets an administrator deactivate a hospital only when another active one is left to work in', async () => {
    const own = await journeyHospital(ctx, { code: 'SEU' });
    const lonely = await own.as('ADMIN');
    const h2 = own.hospital.id;
    const res = await call(ctx.app, lonely, 'PATCH', `/api/hospitals/${h2}/`, { is_active: false });
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toBe(
      "C'est le seul hôpital actif que vous administrez : il ne peut pas être désactivé.",
    );
  });
});

describe('the hospital logo', () => {
  const PNG =
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

  it('takes a PNG recognised by its content, shows it to every member, and refuses the rest', async () => {
    const url = `/api/hospitals/${h.hospital.id}/logo/`;
    expect((await call(ctx.app, nurse, 'GET', url)).statusCode).toBe(404);
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    ).toString('base64');
    const refused = await call(ctx.app, admin, 'PUT', url, { data: svg });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().data).toEqual([
      "Ce fichier n'est pas une image PNG, JPEG ou WebP (les SVG ne sont pas acceptés).",
    ]);
    const big = Buffer.concat([Buffer.from(PNG, 'base64'), Buffer.alloc(520 * 1024)]).toString('base64');
    expect((await call(ctx.app, admin, 'PUT', url, { data: big })).statusCode).toBe(400);
    expect((await call(ctx.app, nurse, 'PUT', url, { data: PNG })).statusCode).toBe(403);
    const saved = await call(ctx.app, admin, 'PUT', url, { data: PNG });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ content_type: 'image/png', data: PNG, size: 70 });
    const shown = await call(ctx.app, nurse, 'GET', url);
    expect(shown.json().data).toBe(PNG);
    const hospital = await call(ctx.app, nurse, 'GET', `/api/hospitals/${h.hospital.id}/`);
    expect(hospital.json().has_logo).toBe(true);
    expect((await call(ctx.app, admin, 'DELETE', url)).statusCode).toBe(204);
    expect((await call(ctx.app, nurse, 'GET', url)).statusCode).toBe(404);
    // Another hospital's administrator: that hospital is not theirs (not found from where they work).
    expect((await call(ctx.app, otherAdmin, 'PUT', url, { data: PNG })).statusCode).toBe(404);
  });

  it('decodes the image fully: a file that only starts like a PNG, JPEG or WebP is refused (issue 36)', async () => {
    const url = `/api/hospitals/${h.hospital.id}/logo/`;
    const png = Buffer.from(PNG, 'base64');
    const fakes = [
      // The PNG signature, then nothing an image decoder can read.
      Buffer.concat([png.subarray(0, 8), Buffer.from('not an image at all, only its first bytes')]),
      // A real PNG cut in the middle of its data.
      png.subarray(0, png.length - 20),
      Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1, 2, 3, 4, 5]),
      Buffer.from('RIFF\u0000\u0000\u0000\u0000WEBPVP8 garbage'),
    ];
    for (const bytes of fakes) {
      const res = await call(ctx.app, admin, 'PUT', url, { data: bytes.toString('base64') });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().data).toEqual([
        "Le fichier n'a pas pu être lu : choisissez une image PNG, JPEG ou WebP.",
      ]);
    }
    expect((await call(ctx.app, admin, 'GET', url)).statusCode).toBe(404);
    expect((await call(ctx.app, admin, 'PUT', url, { data: PNG })).statusCode).toBe(200);
    expect((await call(ctx.app, admin, 'DELETE', url)).statusCode).toBe(204);
  });
});
