import { randomBytes } from 'node:crypto';
import type {
  TMembershipCreate,
  TStaffDetail,
  TStaffInvitation,
  TStaffInvitationView,
  TStaffInvite,
  TStaffMailed,
} from '@greensen/shared/contracts/staff';
import type { FastifyInstance } from 'fastify';
import type { Tx } from '../../db/client.js';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { badRequest, conflict, forbidden, isUniqueViolation, notFound } from '../../lib/errors.js';
import { translate } from '../../lib/i18n.js';
import type { MailMessage } from '../../lib/mail.js';
import { hashSecret } from '../../lib/passwords.js';
import { membershipInvitationMail, resetMail } from '../auth/auth.mails.js';
import * as auth from '../auth/auth.repository.js';
import { freeUsername, newSecretToken, RESET_TOKEN_TTL_MS, sha256 } from '../auth/auth.service.js';
import {
  acceptInvitations,
  activeAdministrators,
  activeDepartment,
  cancelInvitations,
  disableAccount,
  enableAccount,
  findInvitation,
  findMembership,
  findSameMembership,
  findStaff,
  hospitalsNotAdministered,
  insertMembership,
  listStaff,
  lockHospital,
  renewInvitations,
  type StaffFilters,
  type StaffPerson,
  setMembershipActive,
  setMembershipsActive,
} from './staff.repository.js';

/** An invitation link works this many days (a reset link: 30 minutes). */
export const INVITATION_DAYS = 7;

/**
 * Staff of the current hospital (issue 15, decision 0020), for its administrators: list, invitation, memberships,
 * deactivation and the account actions. Everything is scoped to the request's hospital: a person without a
 * membership there is not found, and another hospital's memberships are never shown nor changed. Every write is
 * one audited event; the writes that may remove an administrator lock the hospital and refuse (409) to leave it
 * without an active one.
 */
export class StaffService {
  constructor(private readonly app: FastifyInstance) {}

  private get db() {
    return this.app.db;
  }

  list(ctx: ServiceContext, filters: StaffFilters, page: number, pageSize: number) {
    return listStaff(this.db, scopedHospital(ctx).id, filters, pageSize, (page - 1) * pageSize);
  }

  async detail(ctx: ServiceContext, userId: string): Promise<TStaffDetail> {
    return toDetail(await this.person(this.db, scopedHospital(ctx).id, userId));
  }

  private async person(q: Tx | FastifyInstance['db'], hospitalId: string, userId: string) {
    const found = await findStaff(q, hospitalId, userId);
    if (!found) throw notFound();
    return found;
  }

  /** The department of a new membership: one of this hospital's active departments, or none. */
  private async checkDepartment(tx: Tx, hospitalId: string, department: string | null | undefined) {
    if (!department) return null;
    const found = await activeDepartment(tx, hospitalId, department);
    if (!found) throw badRequest({ department: ['staff.department_unknown'] });
    if (!found.is_active) throw badRequest({ department: ['staff.department_inactive'] });
    return found.id;
  }

  /** After a change: refused when it left the hospital without an active administrator (it had one). */
  private async keepAnAdministrator(tx: Tx, hospitalId: string, before: number) {
    if (before > 0 && (await activeAdministrators(tx, hospitalId)) === 0) throw conflict('staff.last_admin');
  }

  private audit(
    ctx: ServiceContext,
    tx: Tx,
    action: string,
    userId: string,
    details: Record<string, unknown>,
  ) {
    return this.app.audit.record(ctx, { action, resourceType: 'user', resourceId: userId, details }, tx);
  }

  /**
   * Invites a person by email into the hospital with one membership (issue 36, decision 0060). A hospital's
   * administrator manages the hospital's memberships, not the person: whether the address already has an account or
   * not, the answer is the same — the invitation as typed, nothing of the account — and the membership waits,
   * inactive, until the person follows the mailed link and accepts it (choosing a password when the account has
   * none yet). Nobody else's password is ever chosen by an administrator, and no account is changed by an
   * invitation.
   */
  async invite(ctx: ServiceContext, body: TStaffInvite): Promise<TStaffInvitation> {
    const hospital = scopedHospital(ctx);
    const email = body.email;
    const language = body.language_preference ?? 'fr';
    const unusableHash = await hashSecret(randomBytes(32).toString('base64url'));
    const username = await freeUsername(this.db, email);
    let outcome: { membershipId: string; mail: MailMessage };
    try {
      outcome = await this.db.transaction(async (tx) => {
        const departmentId = await this.checkDepartment(tx, hospital.id, body.department);
        let account = await auth.findAccountByEmail(tx, email);
        if (account && (await findStaff(tx, hospital.id, account.id)))
          throw badRequest({ email: ['staff.already_member'] });
        if (!account) {
          const created = await auth.insertAccount(tx, {
            email,
            username,
            firstName: body.first_name,
            lastName: body.last_name,
            passwordHash: unusableHash,
            languagePreference: language,
          });
          account = (await auth.findAccountById(tx, created.id))!;
        }
        const token = newSecretToken();
        const membershipId = await insertMembership(tx, {
          userId: account.id,
          hospitalId: hospital.id,
          departmentId,
          roleCode: body.role_code,
          isActive: false,
          acceptedAt: null,
          invitationTokenHash: sha256(token),
          invitationExpiresAt: invitationEnd(),
          invitation: { first_name: body.first_name, last_name: body.last_name, language },
        });
        // Never whether the account existed: the audit trail is read by the hospital's administrators.
        await this.audit(ctx, tx, 'staff.invite', account.id, {
          email,
          role_code: body.role_code,
          department: departmentId,
        });
        const mail = membershipInvitationMail(
          this.app.config.publicUrl,
          { email, firstName: body.first_name, languagePreference: language },
          token,
          hospital.name,
          INVITATION_DAYS,
        );
        return { membershipId, mail };
      });
    } catch (error) {
      // Two invitations of one address at the same instant.
      if (isUniqueViolation(error)) throw badRequest({ email: ['staff.already_member'] });
      throw error;
    }
    await this.app.mailer.send(outcome.mail);
    return {
      id: outcome.membershipId,
      email,
      first_name: body.first_name,
      last_name: body.last_name,
      role_code: body.role_code,
      department: body.department ?? null,
      mailed: 'invitation',
      detail: translate(ctx.lang, 'staff.invitation_sent', { email }),
    };
  }

  /** A new link for the person's invitation to this hospital (the previous one stops working). */
  private async renewInvitation(tx: Tx, hospital: { id: string; name: string }, person: StaffPerson) {
    const token = newSecretToken();
    await renewInvitations(tx, hospital.id, person.id, sha256(token), invitationEnd());
    return membershipInvitationMail(
      this.app.config.publicUrl,
      { email: person.email, firstName: person.first_name, languagePreference: person.language_preference },
      token,
      hospital.name,
      INVITATION_DAYS,
    );
  }

  /**
   * Person-level actions (password, PIN, the account itself) belong to an administrator of every hospital the
   * person works in, or to the person (issue 36): else 403 with the reason.
   */
  private async requirePersonAuthority(tx: Tx, ctx: ServiceContext, userId: string) {
    const me = actingUser(ctx).id;
    if (me === userId) return;
    if ((await hospitalsNotAdministered(tx, userId, me)) > 0) throw forbidden('staff.person_elsewhere');
  }

  /** What the invitation link shows before it is accepted (public; the token is the proof). */
  async invitation(token: string): Promise<TStaffInvitationView> {
    const found = await findInvitation(this.db, sha256(token));
    if (!found) throw badRequest({ token: ['staff.invitation_invalid'] });
    return {
      hospital: found.hospital_name,
      role_code: found.role_code,
      email: found.email,
      needs_password: !found.email_verified,
    };
  }

  /**
   * Accepts an invitation (public; the mailed token proves the address): the memberships of the hospital become
   * active and the account works again if it had been disabled. An account that never chose a password chooses
   * it here (which verifies the address).
   */
  async accept(
    ctx: ServiceContext,
    body: { token: string; new_password?: string | undefined },
  ): Promise<void> {
    const hash = sha256(body.token);
    const passwordHash = body.new_password ? await hashSecret(body.new_password) : null;
    await this.db.transaction(async (tx) => {
      const found = await findInvitation(tx, hash, true);
      if (!found) throw badRequest({ token: ['staff.invitation_invalid'] });
      if (!found.email_verified) {
        if (!passwordHash) throw badRequest({ new_password: ['staff.password_required'] });
        await auth.setPassword(tx, found.user_id, passwordHash);
      }
      const accepted = await acceptInvitations(tx, found.hospital_id, found.user_id);
      await enableAccount(tx, found.user_id, true);
      await this.app.audit.record(
        ctx,
        {
          action: 'staff.invitation_accept',
          resourceType: 'user',
          resourceId: found.user_id,
          userId: found.user_id,
          hospitalId: found.hospital_id,
          details: { memberships: accepted },
        },
        tx,
      );
    });
  }

  /** One more membership of the person in this hospital (a removed one comes back). */
  async addMembership(ctx: ServiceContext, userId: string, body: TMembershipCreate) {
    const hospital = scopedHospital(ctx);
    await this.db.transaction(async (tx) => {
      const person = await this.person(tx, hospital.id, userId);
      if (!person.accepted) throw conflict('staff.invitation_pending');
      const departmentId = await this.checkDepartment(tx, hospital.id, body.department);
      const same = await findSameMembership(tx, {
        userId,
        hospitalId: hospital.id,
        departmentId,
        roleCode: body.role_code,
      });
      if (same?.is_active) throw badRequest({ role_code: ['staff.membership_exists'] });
      let id: string;
      if (same) {
        await setMembershipActive(tx, same.id, true);
        id = same.id;
      } else {
        id = await insertMembership(tx, {
          userId,
          hospitalId: hospital.id,
          departmentId,
          roleCode: body.role_code,
        });
      }
      await this.app.audit.record(
        ctx,
        {
          action: 'staff.membership_add',
          resourceType: 'membership',
          resourceId: id,
          details: { user: userId, role_code: body.role_code, department: departmentId },
        },
        tx,
      );
    });
    return this.detail(ctx, userId);
  }

  /** Ends one membership (it stays, inactive, in the person's history). */
  async removeMembership(ctx: ServiceContext, userId: string, membershipId: string) {
    const hospital = scopedHospital(ctx);
    await this.db.transaction(async (tx) => {
      await lockHospital(tx, hospital.id);
      const membership = await findMembership(tx, hospital.id, userId, membershipId);
      if (!membership) throw notFound();
      const before = await activeAdministrators(tx, hospital.id);
      await cancelInvitations(tx, hospital.id, userId, membershipId);
      if (membership.is_active) await setMembershipActive(tx, membershipId, false);
      await this.keepAnAdministrator(tx, hospital.id, before);
      await this.app.audit.record(
        ctx,
        {
          action: 'staff.membership_remove',
          resourceType: 'membership',
          resourceId: membershipId,
          details: { user: userId, role_code: membership.role_code, changed: membership.is_active },
        },
        tx,
      );
    });
    return this.detail(ctx, userId);
  }

  /**
   * Deactivates the person's memberships in this hospital (issue 36): this hospital's access ends at once (every
   * request checks the memberships; the sockets reconnect without it), an invitation not accepted is cancelled, and
   * the other hospitals are untouched. The account itself — disabled, every session revoked — only when the caller
   * administers every hospital the person still works in (no other one: the account has nowhere left to work).
   */
  async deactivate(ctx: ServiceContext, userId: string) {
    const hospital = scopedHospital(ctx);
    if (userId === actingUser(ctx).id) throw conflict('staff.self');
    await this.db.transaction(async (tx) => {
      await lockHospital(tx, hospital.id);
      const person = await this.person(tx, hospital.id, userId);
      const before = await activeAdministrators(tx, hospital.id);
      const cancelled = await cancelInvitations(tx, hospital.id, userId);
      const ended = await setMembershipsActive(tx, hospital.id, userId, false);
      const disable =
        person.accepted && (await hospitalsNotAdministered(tx, userId, actingUser(ctx).id)) === 0;
      let revoked = 0;
      if (disable) {
        await disableAccount(tx, userId);
        revoked = await auth.revokeUserSessions(tx, userId, 'disabled');
      }
      await this.keepAnAdministrator(tx, hospital.id, before);
      await this.audit(ctx, tx, 'staff.deactivate', userId, {
        memberships_ended: ended,
        invitations_cancelled: cancelled,
        account_disabled: disable,
        sessions_revoked: revoked,
      });
    });
    await this.app.realtime.disconnectUser(userId);
    return this.detail(ctx, userId);
  }

  /**
   * Reactivates the person's memberships in this hospital (and the account when it was disabled: it then works
   * here only). A person who never accepted gets a new invitation instead.
   */
  async reactivate(ctx: ServiceContext, userId: string) {
    const hospital = scopedHospital(ctx);
    let mail: MailMessage | null = null;
    await this.db.transaction(async (tx) => {
      const person = await this.person(tx, hospital.id, userId);
      if (!person.accepted) {
        mail = await this.renewInvitation(tx, hospital, person);
        await this.audit(ctx, tx, 'staff.invitation_renew', userId, {});
        return;
      }
      const restored = await setMembershipsActive(tx, hospital.id, userId, true);
      if (!person.is_account_active) await enableAccount(tx, userId);
      await this.audit(ctx, tx, 'staff.reactivate', userId, {
        memberships_restored: restored,
        account_enabled: !person.is_account_active,
      });
    });
    if (mail) await this.app.mailer.send(mail);
    return this.detail(ctx, userId);
  }

  /** Clears the person's PIN and the count of failed unlocks: their next lock asks for the password. */
  async resetPin(ctx: ServiceContext, userId: string) {
    const hospital = scopedHospital(ctx);
    await this.db.transaction(async (tx) => {
      const person = await this.person(tx, hospital.id, userId);
      if (!person.accepted) throw conflict('staff.invitation_pending');
      await this.requirePersonAuthority(tx, ctx, userId);
      await auth.setPinHash(tx, userId, null);
      await this.audit(ctx, tx, 'staff.pin_reset', userId, { had_pin: person.has_pin });
    });
    return this.detail(ctx, userId);
  }

  /**
   * Mails the person a link to choose a password. A person who has not accepted the invitation yet gets the
   * invitation again (a new link). A deactivated person gets nothing (409): reactivate first.
   */
  async sendPasswordReset(ctx: ServiceContext, userId: string): Promise<TStaffMailed> {
    const hospital = scopedHospital(ctx);
    const { mail, mailed } = await this.db.transaction(async (tx) => {
      const person: StaffPerson = await this.person(tx, hospital.id, userId);
      if (!person.accepted) {
        const mail = await this.renewInvitation(tx, hospital, person);
        await this.audit(ctx, tx, 'staff.invitation_renew', userId, {});
        return { mail, mailed: 'invitation' as const };
      }
      if (person.status === 'inactive') throw conflict('staff.inactive');
      await this.requirePersonAuthority(tx, ctx, userId);
      const account = (await auth.findAccountById(tx, userId))!;
      const token = newSecretToken();
      await auth.invalidateEmailTokens(tx, userId, 'reset');
      await auth.insertEmailToken(tx, {
        userId,
        purpose: 'reset',
        tokenHash: sha256(token),
        expiresAt: new Date(Date.now() + RESET_TOKEN_TTL_MS),
      });
      const mail = resetMail(this.app.config.publicUrl, account, userId, token);
      await this.audit(ctx, tx, 'staff.password_reset_sent', userId, { mailed: 'reset' });
      return { mail, mailed: 'reset' as const };
    });
    await this.app.mailer.send(mail);
    return { mailed, detail: translate(ctx.lang, `staff.mailed_${mailed}`) };
  }
}

const invitationEnd = () => new Date(Date.now() + INVITATION_DAYS * 24 * 3600 * 1000);

function toDetail(p: StaffPerson): TStaffDetail {
  const { is_account_active: _, email_verified: __, accepted: ___, ...detail } = p;
  return detail;
}
