import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './common.js';
import { departments, hospitalRef } from './structure.js';

export const users = pgTable(
  'users',
  {
    id: id(),
    /** Stored lower-cased; unique. */
    email: text('email').notNull(),
    username: text('username').notNull(),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    passwordHash: text('password_hash').notNull(),
    languagePreference: text('language_preference').notNull().default('en'),
    isActive: boolean('is_active').notNull().default(true),
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    /** Bumped to revoke every token of the user at once (disable, password reset). */
    tokenVersion: integer('token_version').notNull().default(0),
    pinHash: text('pin_hash'),
    /** Consecutive wrong PINs or passwords while unlocking a locked session; reset on success. */
    failedUnlockAttempts: integer('failed_unlock_attempts').notNull().default(0),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    /**
     * The hospital the person last worked in (issue 25): listed first in their profile, so that the next
     * sign-in ("the first hospital is chosen", specification §4) opens it again.
     */
    lastHospitalId: uuid('last_hospital_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('users_email_uq').on(t.email), uniqueIndex('users_username_uq').on(t.username)],
);

/** A user's role in a hospital, optionally in one department. */
export const memberships = pgTable(
  'memberships',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    hospitalId: hospitalRef(),
    departmentId: uuid('department_id').references(() => departments.id),
    roleCode: text('role_code').notNull(),
    isActive: boolean('is_active').notNull().default(true),
    /**
     * When the person accepted the membership (issue 36, decision 0060). Null: an administrator's invitation not
     * (yet) accepted — the membership stays inactive, and the hospital sees only what its administrator typed.
     */
    acceptedAt: timestamp('accepted_at', { withTimezone: true }).defaultNow(),
    /** The pending invitation's token (SHA-256; the token is mailed once) and its end. */
    invitationTokenHash: text('invitation_token_hash'),
    invitationExpiresAt: timestamp('invitation_expires_at', { withTimezone: true }),
    /** What the inviting administrator typed (names, language): shown until the person accepts. */
    invitation: jsonb('invitation').$type<{ first_name: string; last_name: string; language: string }>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('memberships_user_idx').on(t.userId).where(sql`${t.isActive}`),
    uniqueIndex('memberships_invitation_uq')
      .on(t.invitationTokenHash)
      .where(sql`${t.invitationTokenHash} is not null`),
    check(
      'memberships_pending_ck',
      sql`${t.invitationTokenHash} is null or (${t.acceptedAt} is null and not ${t.isActive} and ${t.invitationExpiresAt} is not null)`,
    ),
    index('memberships_hospital_role_idx').on(t.hospitalId, t.roleCode).where(sql`${t.isActive}`),
    // The administrators' staff list and detail (GET /api/admin/staff/): every member of a hospital, active or not.
    index('memberships_hospital_user_idx').on(t.hospitalId, t.userId),
    uniqueIndex('memberships_uq').on(
      t.userId,
      t.hospitalId,
      sql`coalesce(${t.departmentId}, '00000000-0000-0000-0000-000000000000'::uuid)`,
      t.roleCode,
    ),
  ],
);
