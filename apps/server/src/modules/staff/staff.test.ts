import type { TStaffDetail, TStaffInvitation, TStaffList } from '@greensen/shared/contracts/staff';
import { userDashboardGroup } from '@greensen/shared/domain/roles';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, lastLink, login, loginPair, makeAccount, uniqueEmail } from '../../../test/accounts.js';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { authHeaders, makeUser, tokenFor } from '../../../test/factories.js';
import { type Actor, createPatient, call as journeyCall, journeyHospital } from '../../../test/journey.js';
import { listenLocal, openSocket, waitUntil } from '../../../test/ws-client.js';
import { users } from '../../db/schema/index.js';

let ctx: TestContext;
let h: Awaited<ReturnType<typeof journeyHospital>>;
let other: Awaited<ReturnType<typeof journeyHospital>>;
let admin: Actor;
let nurse: Actor;
let otherAdmin: Actor;

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const call = (actor: Actor, method: Method, url: string, payload?: unknown, lang?: 'fr' | 'en') =>
  ctx.app.inject({
    method,
    url,
    headers: { ...actor.headers, ...(lang ? { 'accept-language': lang } : {}) },
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });

async function invite(actor: Actor, body: Record<string, unknown>) {
  const res = await call(actor, 'POST', '/api/admin/staff/', {
    first_name: 'Awa',
    last_name: 'Ndiaye',
    email: uniqueEmail('invite'),
    role_code: 'NURSE',
    ...body,
  });
  expect(res.statusCode, res.body).toBe(201);
  const invitation = res.json() as TStaffInvitation;
  // The person as the hospital sees them now (found by the address the administrator typed).
  const found = (
    (
      await call(actor, 'GET', `/api/admin/staff/?search=${encodeURIComponent(invitation.email)}`)
    ).json() as TStaffList
  ).results[0]!;
  const detail = (await call(actor, 'GET', `/api/admin/staff/${found.id}/`)).json() as TStaffDetail;
  return { ...invitation, ...detail, invitation: invitation.id };
}

/** The token of the last invitation mailed to `email`. */
const invitationToken = async (email: string) => {
  const { path } = await lastLink(ctx.app, email);
  expect(path).toMatch(/^\/invitation\/[A-Za-z0-9_-]+$/);
  return path.split('/').pop()!;
};

const acceptInvitation = (token: string, newPassword?: string) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/auth/invitations/accept/',
    payload: { token, ...(newPassword ? { new_password: newPassword } : {}) },
  });

/** A person invited by `actor` who accepted (choosing a password): a member of the hospital. */
async function acceptedMember(actor: Actor, body: Record<string, unknown>) {
  const invited = await invite(actor, body);
  const accepted = await acceptInvitation(await invitationToken(invited.email), 'ocean-marble-kettle-51');
  expect(accepted.statusCode, accepted.body).toBe(200);
  return (await call(actor, 'GET', `/api/admin/staff/${invited.id}/`)).json() as TStaffDetail;
}

const list = async (actor: Actor, query = '') => {
  const res = await call(actor, 'GET', `/api/admin/staff/${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as TStaffList;
};

/** A member of `h` who can sign in (password known), with a session opened by login. */
async function signedInMember(role = 'NURSE', hospitals = [{ id: '' }]) {
  const account = await makeAccount(ctx.app, {
    role,
    hospitals: hospitals.map((x) => ({ id: x.id || h.hospital.id, departmentId: h.dep('URG').id })),
  });
  const pair = await loginPair(ctx.app, account.email);
  return { ...account, ...pair };
}

beforeAll(async () => {
  ctx = await createTestApp();
  h = await journeyHospital(ctx);
  other = await journeyHospital(ctx);
  admin = await h.as('ADMIN');
  nurse = await h.as('NURSE');
  otherAdmin = await other.as('ADMIN');
});
afterAll(() => ctx?.close());

describe('staff list', () => {
  it('lists the hospital’s people with their active roles, searched by name or email without accents', async () => {
    const person = await invite(admin, {
      first_name: 'Hélène',
      last_name: 'Mukendi',
      email: uniqueEmail('helene'),
      role_code: 'HEAD_DOCTOR',
      department: h.dep('MED').id,
    });
    expect(person).toMatchObject({ status: 'invited', mailed: 'invitation', full_name: 'Hélène Mukendi' });
    const accepted = await acceptInvitation(await invitationToken(person.email), 'ocean-marble-kettle-51');
    expect(accepted.statusCode, accepted.body).toBe(200);
    for (const search of ['helene muk', 'MUKENDI', person.email.slice(0, 12)]) {
      const found = await list(admin, `?search=${encodeURIComponent(search)}`);
      expect(found.results.map((p) => p.id)).toContain(person.id);
    }
    const found = await list(admin, '?search=mukendi');
    expect(found.results.find((p) => p.id === person.id)?.roles).toEqual([
      {
        role_code: 'HEAD_DOCTOR',
        department: { id: h.dep('MED').id, code: 'MED', name: expect.any(String) },
      },
    ]);
    expect((await list(admin, '?search=zzz-personne')).count).toBe(0);
  });

  it('filters by role, department, active and last sign-in, and pages', async () => {
    const midwife = await acceptedMember(admin, { role_code: 'SAGE_FEMME', department: h.dep('MAT').id });
    const byRole = await list(admin, '?role=SAGE_FEMME&page_size=100');
    expect(byRole.results.map((p) => p.id)).toContain(midwife.id);
    expect(byRole.results.every((p) => p.roles.some((r) => r.role_code === 'SAGE_FEMME'))).toBe(true);
    const byDepartment = await list(admin, `?department=${h.dep('MAT').id}&page_size=100`);
    expect(byDepartment.results.map((p) => p.id)).toContain(midwife.id);
    expect(
      (await list(admin, `?department=${h.dep('URG').id}&page_size=100`)).results.map((p) => p.id),
    ).not.toContain(midwife.id);
    // Never signed in; then signed in today.
    const never = await list(admin, '?last_login=never&page_size=100');
    expect(never.results.map((p) => p.id)).toContain(midwife.id);
    const member = await signedInMember();
    expect((await list(admin, '?last_login=within_7d&page_size=100')).results.map((p) => p.id)).toContain(
      member.id,
    );
    expect((await list(admin, '?last_login=over_30d&page_size=100')).results.map((p) => p.id)).not.toContain(
      member.id,
    );
    // Deactivated people leave the active list and show in the inactive one.
    expect((await call(admin, 'POST', `/api/admin/staff/${midwife.id}/deactivate/`)).statusCode).toBe(200);
    expect((await list(admin, '?active=true&page_size=100')).results.map((p) => p.id)).not.toContain(
      midwife.id,
    );
    const inactive = await list(admin, '?active=false&page_size=100');
    expect(inactive.results.find((p) => p.id === midwife.id)).toMatchObject({
      status: 'inactive',
      roles: [],
    });

    const first = await list(admin, '?page_size=2');
    expect(first.results).toHaveLength(2);
    expect(first.next).toMatch(/page=2/);
    const second = await list(admin, '?page_size=2&page=2');
    expect(second.results.map((p) => p.id)).not.toContain(first.results[0]!.id);
  });

  it('answers 400 with French or English field errors for filters off their formats', async () => {
    const url = '/api/admin/staff/?role=CHEF&department=x&last_login=yesterday&ordering=age';
    const fr = await call(admin, 'GET', url, undefined, 'fr');
    expect(fr.statusCode).toBe(400);
    expect(Object.keys(fr.json()).sort()).toEqual(['department', 'last_login', 'ordering', 'role']);
    expect(fr.json().role).toEqual([
      'Rôle inconnu : choisissez un rôle de la liste (par exemple « NURSE »).',
    ]);
    const en = await call(admin, 'GET', url, undefined, 'en');
    expect(en.json().role).toEqual(['Unknown role: pick a role from the list (for example "NURSE").']);
  });
});

describe('invitations', () => {
  it('mails a link where a new person chooses a password and accepts; they sign in on their first role there', async () => {
    const email = uniqueEmail('nurse');
    const invited = await invite(admin, { email, role_code: 'NURSE', department: h.dep('URG').id });
    expect(invited).toMatchObject({ status: 'invited', mailed: 'invitation', roles: [] });
    const { mail } = await lastLink(ctx.app, email);
    expect(mail.subject).toContain(h.hospital.name);
    const token = await invitationToken(email);
    // Before following it, nobody can sign in with the account.
    expect((await login(ctx.app, email, 'whatever-the-password')).statusCode).toBe(401);
    const view = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/invitations/check/',
      payload: { token },
    });
    expect(view.json()).toEqual({
      hospital: h.hospital.name,
      role_code: 'NURSE',
      email,
      needs_password: true,
    });
    const noPassword = await acceptInvitation(token);
    expect(noPassword.statusCode).toBe(400);
    expect(Object.keys(noPassword.json())).toEqual(['new_password']);
    expect((await acceptInvitation(token, 'ocean-marble-kettle-51')).statusCode).toBe(200);
    const signedIn = await loginPair(ctx.app, email, 'ocean-marble-kettle-51');
    const user = signedIn.user as { active_roles: { role_code: string; hospital: string }[] };
    expect(user.active_roles).toEqual([
      { role_code: 'NURSE', hospital: h.hospital.id, department: h.dep('URG').id },
    ]);
    expect(userDashboardGroup(user)).toBe('nurse');
    const detail = await call(admin, 'GET', `/api/admin/staff/${invited.id}/`);
    expect(detail.json()).toMatchObject({ status: 'active', last_login_at: expect.any(String) });
    // The link works once.
    expect((await acceptInvitation(token, 'another-marble-kettle-52')).statusCode).toBe(400);
  });

  it('answers the same whether the address has an account or not, and attaches nobody without consent (issue 36)', async () => {
    // A head doctor of the other hospital only, who has signed in.
    const theirs = await makeAccount(ctx.app, {
      role: 'HEAD_DOCTOR',
      hospitals: [{ id: other.hospital.id }],
    });
    await ctx.app.db
      .update(users)
      .set({ firstName: 'Joseph', lastName: 'Kabasele' })
      .where(eq(users.id, theirs.id));
    await loginPair(ctx.app, theirs.email);
    const typed = { first_name: 'Jo', last_name: 'K', role_code: 'DOCTOR' };
    const known = await call(admin, 'POST', '/api/admin/staff/', { ...typed, email: theirs.email });
    const unknown = await call(admin, 'POST', '/api/admin/staff/', {
      ...typed,
      email: uniqueEmail('nobody'),
    });
    expect([known.statusCode, unknown.statusCode]).toEqual([201, 201]);
    const shape = (body: Record<string, unknown>) => ({ ...body, id: 'x', email: 'x', detail: 'x' });
    expect(shape(known.json())).toEqual(shape(unknown.json()));
    expect(known.json()).toMatchObject({ first_name: 'Jo', last_name: 'K', mailed: 'invitation' });
    expect(known.body).not.toMatch(/Joseph|Kabasele|last_login|status/);
    // The hospital sees what its administrator typed, never the account's own facts, until the person accepts.
    const found = await list(admin, `?search=${encodeURIComponent(theirs.email)}`);
    expect(found.results).toEqual([
      expect.objectContaining({
        id: theirs.id,
        full_name: 'Jo K',
        status: 'invited',
        last_login_at: null,
        roles: [],
      }),
    ]);
    expect((await list(admin, '?search=kabasele')).count).toBe(0);
    // Not attached: this hospital refuses him until he accepts.
    const his = await loginPair(ctx.app, theirs.email);
    const here = { ...bearer(his.access), 'hospital-id': h.hospital.id };
    expect((await ctx.app.inject({ url: '/api/patients/', headers: here })).statusCode).toBe(403);
    // The audit trail the administrators read says nothing of the account either.
    const audit = await ctx.app.db.execute<{ details: Record<string, unknown> }>(
      sql`select details from audit_events where action = 'staff.invite' and resource_id = ${theirs.id}`,
    );
    expect(Object.keys(audit.rows[0]!.details).sort()).toEqual(['department', 'email', 'role_code']);
    // He accepts (no password asked: he has one); then he works here too, as himself.
    const token = await invitationToken(theirs.email);
    const view = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/invitations/check/',
      payload: { token },
    });
    expect(view.json()).toMatchObject({ needs_password: false });
    expect((await acceptInvitation(token)).statusCode).toBe(200);
    expect((await ctx.app.inject({ url: '/api/patients/', headers: here })).statusCode).toBe(200);
    const now = (await call(admin, 'GET', `/api/admin/staff/${theirs.id}/`)).json() as TStaffDetail;
    expect(now).toMatchObject({
      full_name: 'Joseph Kabasele',
      status: 'active',
      roles: [{ role_code: 'DOCTOR' }],
    });
    expect(JSON.stringify(now)).not.toContain(other.hospital.id);
    // Inviting them again: already on the staff.
    const twice = await call(admin, 'POST', '/api/admin/staff/', { ...typed, email: theirs.email });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().email).toEqual([expect.stringContaining('déjà')]);
  });

  it('refuses an unknown role, a bad email, and another hospital’s department (400, in the request’s language)', async () => {
    const res = await call(
      admin,
      'POST',
      '/api/admin/staff/',
      { email: 'pas-une-adresse', first_name: '', last_name: 'X', role_code: 'SUPERUSER' },
      'en',
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      email: ['Enter a valid email address.'],
      first_name: ['This field is required.'],
      role_code: ['Unknown role: pick a role from the list (for example "NURSE").'],
    });
    const foreign = await call(admin, 'POST', '/api/admin/staff/', {
      email: uniqueEmail(),
      first_name: 'A',
      last_name: 'B',
      role_code: 'NURSE',
      department: other.dep('URG').id,
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json()).toEqual({ department: ["Ce service n'existe pas dans l'hôpital."] });
  });
});

describe('memberships', () => {
  it('gives a person several roles, refuses the same one twice, and ends one', async () => {
    const pending = await invite(admin, { role_code: 'NURSE', department: h.dep('URG').id });
    // Not accepted yet: no more roles for them (409), whatever the account.
    const early = await call(admin, 'POST', `/api/admin/staff/${pending.id}/memberships/`, {
      role_code: 'QUEUE_MANAGER',
    });
    expect(early.statusCode).toBe(409);
    const person = await acceptedMember(admin, { role_code: 'NURSE', department: h.dep('URG').id });
    const added = await call(admin, 'POST', `/api/admin/staff/${person.id}/memberships/`, {
      role_code: 'QUEUE_MANAGER',
      department: h.dep('MED').id,
    });
    expect(added.statusCode, added.body).toBe(201);
    const detail = added.json() as TStaffDetail;
    expect(detail.roles.map((r) => r.role_code)).toEqual(['NURSE', 'QUEUE_MANAGER']);
    const same = await call(admin, 'POST', `/api/admin/staff/${person.id}/memberships/`, {
      role_code: 'QUEUE_MANAGER',
      department: h.dep('MED').id,
    });
    expect(same.statusCode).toBe(400);
    expect(Object.keys(same.json())).toEqual(['role_code']);
    const nurseMembership = detail.memberships.find((m) => m.role_code === 'NURSE')!;
    const removed = await call(
      admin,
      'DELETE',
      `/api/admin/staff/${person.id}/memberships/${nurseMembership.id}/`,
    );
    expect(removed.statusCode).toBe(200);
    expect((removed.json() as TStaffDetail).roles.map((r) => r.role_code)).toEqual(['QUEUE_MANAGER']);
    expect(
      (removed.json() as TStaffDetail).memberships.find((m) => m.id === nurseMembership.id)?.is_active,
    ).toBe(false);
    // Given back: the same membership comes back.
    const back = await call(admin, 'POST', `/api/admin/staff/${person.id}/memberships/`, {
      role_code: 'NURSE',
      department: h.dep('URG').id,
    });
    expect((back.json() as TStaffDetail).memberships.filter((m) => m.role_code === 'NURSE')).toEqual([
      expect.objectContaining({ id: nurseMembership.id, is_active: true }),
    ]);
  });

  it('takes effect on the person’s next request: a role removed is refused at once', async () => {
    const member = await signedInMember('ADMIN');
    const headers = { ...bearer(member.access), 'hospital-id': h.hospital.id };
    expect((await ctx.app.inject({ url: '/api/admin/staff/', headers })).statusCode).toBe(200);
    const detail = (await call(admin, 'GET', `/api/admin/staff/${member.id}/`)).json() as TStaffDetail;
    await call(admin, 'DELETE', `/api/admin/staff/${member.id}/memberships/${detail.memberships[0]!.id}/`);
    expect((await ctx.app.inject({ url: '/api/admin/staff/', headers })).statusCode).toBe(403);
  });
});

describe('deactivation', () => {
  it('ends every session of a signed-in person at once: next request 401, refresh refused, socket closed', async () => {
    const member = await signedInMember();
    const base = await listenLocal(ctx.app);
    const ticket = await ctx.app.inject({
      method: 'POST',
      url: '/api/notifications/ws-ticket/',
      headers: bearer(member.access),
    });
    const socket = await openSocket(base, (ticket.json() as { ticket: string }).ticket);
    await waitUntil(() => ctx.app.realtime.socketCount(member.id) === 1);

    const res = await call(admin, 'POST', `/api/admin/staff/${member.id}/deactivate/`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'inactive', roles: [] });
    expect((await socket.closed).code).toBe(4401);
    const next = await ctx.app.inject({ url: '/api/profile/', headers: bearer(member.access) });
    expect(next.statusCode).toBe(401);
    const refresh = await ctx.app.inject({
      method: 'POST',
      url: '/api/token/refresh/',
      payload: { refresh: member.refresh },
    });
    expect(refresh.statusCode).toBe(401);
    // No other hospital: the account itself is disabled, signing in is refused.
    expect((await login(ctx.app, member.email)).statusCode).toBe(401);

    const back = await call(admin, 'POST', `/api/admin/staff/${member.id}/reactivate/`);
    expect(back.json()).toMatchObject({ status: 'active', roles: [{ role_code: 'NURSE' }] });
    expect((await login(ctx.app, member.email)).statusCode).toBe(200);
  });

  it('ends one hospital’s membership only: the other hospital, the sessions and the account go on (issue 36)', async () => {
    const both = await signedInMember('DOCTOR', [{ id: '' }, { id: other.hospital.id }]);
    // The other hospital's administrator deactivates him there, again and again.
    for (let i = 0; i < 2; i++) {
      const res = await call(otherAdmin, 'POST', `/api/admin/staff/${both.id}/deactivate/`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ status: 'inactive', roles: [] });
    }
    const at = (hospital: string) => ({ ...bearer(both.access), 'hospital-id': hospital });
    // The same session still works here; there, refused.
    expect((await ctx.app.inject({ url: '/api/patients/', headers: at(h.hospital.id) })).statusCode).toBe(
      200,
    );
    expect((await ctx.app.inject({ url: '/api/patients/', headers: at(other.hospital.id) })).statusCode).toBe(
      403,
    );
    const refresh = await ctx.app.inject({
      method: 'POST',
      url: '/api/token/refresh/',
      payload: { refresh: both.refresh },
    });
    expect(refresh.statusCode).toBe(200);
    expect((await login(ctx.app, both.email)).statusCode).toBe(200);
    expect((await call(admin, 'GET', `/api/admin/staff/${both.id}/`)).json()).toMatchObject({
      status: 'active',
    });
  });

  it('leaves the person’s password, PIN and account to an administrator of all their hospitals, or to them (issue 36)', async () => {
    const both = await signedInMember('DOCTOR', [{ id: '' }, { id: other.hospital.id }]);
    for (const path of ['reset-pin', 'password-reset']) {
      const fr = await call(otherAdmin, 'POST', `/api/admin/staff/${both.id}/${path}/`, undefined, 'fr');
      expect(fr.statusCode, path).toBe(403);
      expect(fr.json().detail).toMatch(/autre hôpital/);
      const en = await call(otherAdmin, 'POST', `/api/admin/staff/${both.id}/${path}/`, undefined, 'en');
      expect(en.json().detail).toMatch(/another hospital/);
    }
    // An administrator of both hospitals may; the person may for themself.
    const adminOfBoth = await signedInMember('ADMIN', [{ id: '' }, { id: other.hospital.id }]);
    const headers = { ...bearer(adminOfBoth.access), 'hospital-id': other.hospital.id };
    const pin = await ctx.app.inject({
      method: 'POST',
      url: `/api/admin/staff/${both.id}/reset-pin/`,
      headers,
    });
    expect(pin.statusCode, pin.body).toBe(200);
    // Only they deactivate the account itself: every session ends.
    const off = await ctx.app.inject({
      method: 'POST',
      url: `/api/admin/staff/${both.id}/deactivate/`,
      headers,
    });
    expect(off.statusCode, off.body).toBe(200);
    expect((await ctx.app.inject({ url: '/api/profile/', headers: bearer(both.access) })).statusCode).toBe(
      401,
    );
  });

  it('resets the PIN lock and mails a password reset (a new invitation when none was ever chosen)', async () => {
    const member = await signedInMember();
    await ctx.app.db
      .update(users)
      .set({ pinHash: 'x', failedUnlockAttempts: 3 })
      .where(eq(users.id, member.id));
    const pin = await call(admin, 'POST', `/api/admin/staff/${member.id}/reset-pin/`);
    expect(pin.json()).toMatchObject({ has_pin: false, failed_unlock_attempts: 0 });

    const reset = await call(admin, 'POST', `/api/admin/staff/${member.id}/password-reset/`);
    expect(reset.json()).toMatchObject({ mailed: 'reset', detail: expect.any(String) });
    expect((await lastLink(ctx.app, member.email)).path).toMatch(/^\/reset-password\//);

    // Not accepted yet: the invitation again (a new link; the old one stops), never a PIN reset.
    const invited = await invite(admin, {});
    const first = await invitationToken(invited.email);
    const again = await call(admin, 'POST', `/api/admin/staff/${invited.id}/password-reset/`);
    expect(again.json()).toMatchObject({ mailed: 'invitation' });
    const second = await invitationToken(invited.email);
    expect(second).not.toBe(first);
    expect((await acceptInvitation(first, 'ocean-marble-kettle-51')).statusCode).toBe(400);
    expect((await call(admin, 'POST', `/api/admin/staff/${invited.id}/reset-pin/`)).statusCode).toBe(409);
    // Deactivated: the invitation is cancelled, its link dead.
    await call(admin, 'POST', `/api/admin/staff/${invited.id}/deactivate/`);
    expect((await acceptInvitation(second, 'ocean-marble-kettle-51')).statusCode).toBe(400);
    expect((await call(admin, 'GET', `/api/admin/staff/${invited.id}/`)).json()).toMatchObject({
      status: 'inactive',
    });
  });
});

describe('guard rails', () => {
  it('never leaves a hospital without an active administrator (409), and never lets one deactivate themselves', async () => {
    const lone = await journeyHospital(ctx);
    const a = await lone.as('ADMIN');
    const self = await call(a, 'POST', `/api/admin/staff/${a.id}/deactivate/`);
    expect(self.statusCode).toBe(409);
    const mine = (await call(a, 'GET', `/api/admin/staff/${a.id}/`)).json() as TStaffDetail;
    const removeOwn = await call(
      a,
      'DELETE',
      `/api/admin/staff/${a.id}/memberships/${mine.memberships[0]!.id}/`,
    );
    expect(removeOwn.statusCode).toBe(409);
    expect(removeOwn.json()).toEqual({
      detail: "C'est le dernier administrateur actif de l'hôpital : nommez-en un autre d'abord.",
    });

    // An invited administrator who has not accepted yet does not count.
    const invited = await invite(a, { role_code: 'HOSPITAL_ADMIN' });
    expect(
      (await call(a, 'DELETE', `/api/admin/staff/${a.id}/memberships/${mine.memberships[0]!.id}/`))
        .statusCode,
    ).toBe(409);
    const accepted = await acceptInvitation(await invitationToken(invited.email), 'ocean-marble-kettle-51');
    expect(accepted.statusCode, accepted.body).toBe(200);
    // Two administrators: one may go, the second may not.
    const [version] = await ctx.app.db
      .select({ v: users.tokenVersion })
      .from(users)
      .where(eq(users.id, invited.id));
    const token = await tokenFor(ctx.config.jwtSecret, { id: invited.id, tokenVersion: version!.v });
    const b: Actor = { id: invited.id, headers: authHeaders(token, lone.hospital.id) };
    expect((await call(b, 'POST', `/api/admin/staff/${a.id}/deactivate/`)).statusCode).toBe(200);
    const bDetail = (await call(b, 'GET', `/api/admin/staff/${b.id}/`)).json() as TStaffDetail;
    expect(
      (await call(b, 'DELETE', `/api/admin/staff/${b.id}/memberships/${bDetail.memberships[0]!.id}/`))
        .statusCode,
    ).toBe(409);
  });

  it('refuses every staff route to non-administrators (403) and hides another hospital’s people (404)', async () => {
    const target = await invite(admin, {});
    const routes: [Method, string, unknown?][] = [
      ['GET', '/api/admin/staff/'],
      [
        'POST',
        '/api/admin/staff/',
        { email: uniqueEmail(), first_name: 'A', last_name: 'B', role_code: 'ADMIN' },
      ],
      ['GET', `/api/admin/staff/${target.id}/`],
      ['POST', `/api/admin/staff/${target.id}/memberships/`, { role_code: 'ADMIN' }],
      ['DELETE', `/api/admin/staff/${target.id}/memberships/${target.memberships[0]!.id}/`],
      ['POST', `/api/admin/staff/${target.id}/deactivate/`],
      ['POST', `/api/admin/staff/${target.id}/reactivate/`],
      ['POST', `/api/admin/staff/${target.id}/reset-pin/`],
      ['POST', `/api/admin/staff/${target.id}/password-reset/`],
    ];
    const headDoctor = await h.as('HEAD_DOCTOR');
    for (const actor of [nurse, headDoctor])
      for (const [method, url, body] of routes)
        expect((await call(actor, method, url, body)).statusCode, `${method} ${url}`).toBe(403);
    // The administrator of the other hospital, in their hospital: not found, and absent from their list.
    for (const [method, url, body] of routes.slice(2))
      expect((await call(otherAdmin, method, url, body)).statusCode, `${method} ${url}`).toBe(404);
    expect((await list(otherAdmin, `?search=${encodeURIComponent(target.email)}`)).count).toBe(0);
    // …and with this hospital's Hospital-ID: not a member, 403.
    const foreign = await journeyCall(
      ctx.app,
      { id: otherAdmin.id, headers: { ...otherAdmin.headers, 'hospital-id': h.hospital.id } },
      'GET',
      '/api/admin/staff/',
    );
    expect(foreign.statusCode).toBe(403);
    expect((await call(admin, 'GET', `/api/admin/staff/${target.id}/`)).json().memberships).toHaveLength(1);
  });
});

describe('patient access log', () => {
  it('shows administrators and head doctors who opened a record; nobody else, nothing of another hospital', async () => {
    const secretary = await h.as('SECRETARY');
    const patient = await createPatient(ctx.app, secretary);
    expect((await call(nurse, 'GET', `/api/patients/${patient.id}/`)).statusCode).toBe(200);
    const headDoctor = await h.as('HEAD_DOCTOR');
    for (const reader of [admin, headDoctor]) {
      const res = await call(reader, 'GET', `/api/patients/${patient.id}/access-log/`);
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json() as { results: { user: { id: string } | null; action: string }[] };
      expect(page.results).toEqual([
        expect.objectContaining({
          user: { id: nurse.id, full_name: expect.any(String) },
          action: 'patient.read',
        }),
      ]);
    }
    expect((await call(nurse, 'GET', `/api/patients/${patient.id}/access-log/`)).statusCode).toBe(403);
    expect((await call(otherAdmin, 'GET', `/api/patients/${patient.id}/access-log/`)).statusCode).toBe(404);
    // Not a member: never in anybody's list of staff either way.
    const stranger = await makeUser(ctx.app.db, {});
    expect((await call(admin, 'GET', `/api/admin/staff/${stranger.id}/`)).statusCode).toBe(404);
  });
});
