import { randomBytes } from 'node:crypto';
import type {
  TMembershipCreate,
  TStaffDetail,
  TStaffInvite,
  TStaffInviteResult,
  TStaffMailed,
} from '@greensen/shared/contracts/staff';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Tx } from '../../db/client.js';
import { memberships, users } from '../../db/schema/index.js';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { badRequest, conflict, isUniqueViolation, notFound } from '../../lib/errors.js';
import { translate } from '../../lib/i18n.js';
import type { MailMessage } from '../../lib/mail.js';
import { hashSecret } from '../../lib/passwords.js';
import { accessMail, invitationMail, resetMail } from '../auth/auth.mails.js';
import * as auth from '../auth/auth.repository.js';
import { freeUsername, newSecretToken, RESET_TOKEN_TTL_MS, sha256 } from '../auth/auth.service.js';
import {
  activeAdministrators,
  activeDepartment,
  findMembership,
  findSameMembership,
  findStaff,
  listStaff,
  lockHospital,
  otherActiveMemberships,
  type StaffFilters,
  type StaffPerson,
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
   * Invites a person by email into the hospital with one membership. A new address gets an account that cannot
   * sign in until the person follows the mailed link and chooses a password (the reset-password flow, longer
   * lived). An existing account gets the membership; it is told by mail (an account that never chose a
   * password gets a new invitation link instead). Nobody else's password is ever chosen by an administrator.
   */
  async invite(ctx: ServiceContext, body: TStaffInvite): Promise<TStaffInviteResult> {
    const hospital = scopedHospital(ctx);
    const email = body.email;
    const language = body.language_preference ?? 'fr';
    const unusableHash = await hashSecret(randomBytes(32).toString('base64url'));
    const username = await freeUsername(this.db, email);
    let outcome: { userId: string; mail: MailMessage; mailed: 'invitation' | 'access' };
    try {
      outcome = await this.db.transaction(async (tx) => {
        const departmentId = await this.checkDepartment(tx, hospital.id, body.department);
        let account = await auth.findAccountByEmail(tx, email);
        if (account && (await findStaff(tx, hospital.id, account.id)))
          throw badRequest({ email: ['staff.already_member'] });
        const existing = account !== null;
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
        } else if (!account.isActive) {
          // An account disabled when it lost its last hospital works again here.
          await tx
            .update(users)
            .set({ isActive: true, updatedAt: new Date() })
            .where(eq(users.id, account.id));
        }
        await tx.insert(memberships).values({
          userId: account.id,
          hospitalId: hospital.id,
          departmentId,
          roleCode: body.role_code,
        });
        let mail: MailMessage;
        let mailed: 'invitation' | 'access';
        if (account.emailVerifiedAt) {
          mail = accessMail(this.app.config.publicUrl, account, hospital.name);
          mailed = 'access';
        } else {
          mail = await this.invitationLink(tx, account, hospital.name);
          mailed = 'invitation';
        }
        await this.audit(ctx, tx, 'staff.invite', account.id, {
          email,
          role_code: body.role_code,
          department: departmentId,
          existing_account: existing,
          mailed,
        });
        return { userId: account.id, mail, mailed };
      });
    } catch (error) {
      // Two invitations of one address at the same instant.
      if (isUniqueViolation(error)) throw badRequest({ email: ['staff.already_member'] });
      throw error;
    }
    await this.app.mailer.send(outcome.mail);
    return { ...(await this.detail(ctx, outcome.userId)), mailed: outcome.mailed };
  }

  /** A new invitation link (the previous ones stop working). */
  private async invitationLink(
    tx: Tx,
    account: { id: string; email: string; firstName: string; languagePreference: string },
    hospitalName: string,
  ) {
    const token = newSecretToken();
    await auth.invalidateEmailTokens(tx, account.id, 'reset');
    await auth.insertEmailToken(tx, {
      userId: account.id,
      purpose: 'reset',
      tokenHash: sha256(token),
      expiresAt: new Date(Date.now() + INVITATION_DAYS * 24 * 3600 * 1000),
    });
    return invitationMail(
      this.app.config.publicUrl,
      account,
      account.id,
      token,
      hospitalName,
      INVITATION_DAYS,
    );
  }

  /** One more membership of the person in this hospital (a removed one comes back). */
  async addMembership(ctx: ServiceContext, userId: string, body: TMembershipCreate) {
    const hospital = scopedHospital(ctx);
    await this.db.transaction(async (tx) => {
      await this.person(tx, hospital.id, userId);
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
        await tx
          .update(memberships)
          .set({ isActive: true, updatedAt: new Date() })
          .where(eq(memberships.id, same.id));
        id = same.id;
      } else {
        const [row] = await tx
          .insert(memberships)
          .values({ userId, hospitalId: hospital.id, departmentId, roleCode: body.role_code })
          .returning({ id: memberships.id });
        id = row!.id;
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
      if (membership.is_active)
        await tx
          .update(memberships)
          .set({ isActive: false, updatedAt: new Date() })
          .where(eq(memberships.id, membershipId));
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
   * Deactivates the person in this hospital: every membership here ends, and the account itself is disabled
   * when no other hospital has an active membership of it. Either way every session and refresh token of the
   * person is revoked at once (the token version moves) and their sockets close.
   */
  async deactivate(ctx: ServiceContext, userId: string) {
    const hospital = scopedHospital(ctx);
    if (userId === actingUser(ctx).id) throw conflict('staff.self');
    await this.db.transaction(async (tx) => {
      await lockHospital(tx, hospital.id);
      await this.person(tx, hospital.id, userId);
      const before = await activeAdministrators(tx, hospital.id);
      const ended = await setMembershipsActive(tx, hospital.id, userId, false);
      const disable = (await otherActiveMemberships(tx, userId, hospital.id)) === 0;
      await tx
        .update(users)
        .set({
          tokenVersion: sql`${users.tokenVersion} + 1`,
          updatedAt: new Date(),
          ...(disable ? { isActive: false } : {}),
        })
        .where(eq(users.id, userId));
      const revoked = await auth.revokeUserSessions(tx, userId, 'disabled');
      await this.keepAnAdministrator(tx, hospital.id, before);
      await this.audit(ctx, tx, 'staff.deactivate', userId, {
        memberships_ended: ended,
        account_disabled: disable,
        sessions_revoked: revoked,
      });
    });
    await this.app.realtime.disconnectUser(userId);
    return this.detail(ctx, userId);
  }

  /** Reactivates the person in this hospital: the account and every membership here. */
  async reactivate(ctx: ServiceContext, userId: string) {
    const hospital = scopedHospital(ctx);
    await this.db.transaction(async (tx) => {
      const person = await this.person(tx, hospital.id, userId);
      const restored = await setMembershipsActive(tx, hospital.id, userId, true);
      if (!person.is_account_active)
        await tx.update(users).set({ isActive: true, updatedAt: new Date() }).where(eq(users.id, userId));
      await this.audit(ctx, tx, 'staff.reactivate', userId, {
        memberships_restored: restored,
        account_enabled: !person.is_account_active,
      });
    });
    return this.detail(ctx, userId);
  }

  /** Clears the person's PIN and the count of failed unlocks: their next lock asks for the password. */
  async resetPin(ctx: ServiceContext, userId: string) {
    const hospital = scopedHospital(ctx);
    await this.db.transaction(async (tx) => {
      const person = await this.person(tx, hospital.id, userId);
      await auth.setPinHash(tx, userId, null);
      await this.audit(ctx, tx, 'staff.pin_reset', userId, { had_pin: person.has_pin });
    });
    return this.detail(ctx, userId);
  }

  /**
   * Mails the person a link to choose a password: a reset link, or a new invitation when they never chose one.
   * A deactivated person gets nothing (409): reactivate first.
   */
  async sendPasswordReset(ctx: ServiceContext, userId: string): Promise<TStaffMailed> {
    const hospital = scopedHospital(ctx);
    const { mail, mailed } = await this.db.transaction(async (tx) => {
      const person: StaffPerson = await this.person(tx, hospital.id, userId);
      if (person.status === 'inactive') throw conflict('staff.inactive');
      const account = (await auth.findAccountById(tx, userId))!;
      let mail: MailMessage;
      let mailed: 'invitation' | 'reset';
      if (!account.emailVerifiedAt) {
        mail = await this.invitationLink(tx, account, hospital.name);
        mailed = 'invitation';
      } else {
        const token = newSecretToken();
        await auth.invalidateEmailTokens(tx, userId, 'reset');
        await auth.insertEmailToken(tx, {
          userId,
          purpose: 'reset',
          tokenHash: sha256(token),
          expiresAt: new Date(Date.now() + RESET_TOKEN_TTL_MS),
        });
        mail = resetMail(this.app.config.publicUrl, account, userId, token);
        mailed = 'reset';
      }
      await this.audit(ctx, tx, 'staff.password_reset_sent', userId, { mailed });
      return { mail, mailed };
    });
    await this.app.mailer.send(mail);
    return { mailed, detail: translate(ctx.lang, `staff.mailed_${mailed}`) };
  }
}

function toDetail(p: StaffPerson): TStaffDetail {
  const { is_account_active: _, email_verified: __, ...detail } = p;
  return detail;
}
