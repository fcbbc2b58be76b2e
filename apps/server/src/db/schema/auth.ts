import { sql } from 'drizzle-orm';
import { index, integer, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id } from './common.js';
import { users } from './people.js';

/**
 * A sign-in session: one refresh-token family. Every refresh rotates the token inside the family; presenting
 * a rotated token again revokes the whole family (and, through the `sid` claim, its access tokens).
 */
export const authSessions = pgTable(
  'auth_sessions',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    /** users.token_version when the session started: bumping it ends every session. */
    tokenVersion: integer('token_version').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** logout | reuse | password_reset | password_change | pin_locked | disabled */
    revokedReason: text('revoked_reason'),
    userAgent: text('user_agent'),
    ip: text('ip'),
  },
  (t) => [
    index('auth_sessions_user_active_idx').on(t.userId).where(sql`${t.revokedAt} is null`),
    // The purge of sessions left without refresh tokens (jobs/purge.ts).
    index('auth_sessions_last_used_idx').on(t.lastUsedAt),
    // Sign-in throttling: has this account signed in from this address before (auth.service.ts, login)?
    index('auth_sessions_user_ip_idx').on(t.userId, t.ip, t.createdAt),
  ],
);

/** Refresh tokens, stored as SHA-256 of the random value; single use (rotation). */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: id(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => authSessions.id),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    replacedBy: uuid('replaced_by'),
  },
  (t) => [
    uniqueIndex('refresh_tokens_hash_uq').on(t.tokenHash),
    index('refresh_tokens_session_idx').on(t.sessionId),
    index('refresh_tokens_expires_idx').on(t.expiresAt),
  ],
);

export const emailTokenPurpose = pgEnum('email_token_purpose', ['verify', 'reset']);

/** Single-use links sent by mail (email verification, password reset), stored as SHA-256. */
export const emailTokens = pgTable(
  'email_tokens',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    purpose: emailTokenPurpose('purpose').notNull(),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('email_tokens_hash_uq').on(t.tokenHash),
    index('email_tokens_user_purpose_idx').on(t.userId, t.purpose).where(sql`${t.usedAt} is null`),
    index('email_tokens_expires_idx').on(t.expiresAt),
  ],
);

/**
 * Outgoing mail. Without SMTP_URL every mail stays here (local use: the log carries the link). With SMTP_URL a
 * mail waits here for its `mail.deliver` job, which sets `sent_at` (and empties the bodies, which carry links)
 * or, after its last try, leaves `error` set. The hourly purge drops rows older than a week.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: id(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body'),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    error: text('error'),
  },
  (t) => [
    index('mail_outbox_to_idx').on(t.toAddress, t.createdAt),
    index('mail_outbox_unsent_idx').on(t.createdAt).where(sql`${t.sentAt} is null`),
    index('mail_outbox_created_idx').on(t.createdAt),
  ],
);
