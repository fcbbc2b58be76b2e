/**
 * The setup's rows in `app_settings` (issue 15): one `setup:<SHA-256 of a link's token>` per printed link, its
 * value the link's expiry, and `setup.completed` once the setup is done.
 */
import { and, eq, gt, like } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { appSettings } from '../../db/schema/index.js';
import { readSetting } from '../system/settings.repository.js';

const TOKEN_KEY_PREFIX = 'setup:';
const COMPLETED_KEY = 'setup.completed';

/** Stores a printed link by its token's hash, with its expiry. */
export async function insertSetupToken(q: Queryable, tokenHash: string, expiresAt: Date) {
  await q.insert(appSettings).values({ key: TOKEN_KEY_PREFIX + tokenHash, value: expiresAt.toISOString() });
}

/** The expiry of the link whose token has this hash when it is later than `now`, or null. */
export async function unexpiredSetupToken(q: Queryable, tokenHash: string, now: Date): Promise<Date | null> {
  const [row] = await q
    .select({ value: appSettings.value })
    .from(appSettings)
    .where(and(eq(appSettings.key, TOKEN_KEY_PREFIX + tokenHash), gt(appSettings.value, now.toISOString())));
  return row ? new Date(row.value) : null;
}

/** Whether the setup was done (its `setup.completed` row exists). */
export async function setupCompleted(q: Queryable): Promise<boolean> {
  return (await readSetting(q, COMPLETED_KEY)) !== null;
}

/**
 * Writes `setup.completed`; false when the row was already there (another setup committed first — this one
 * waited for it on the primary key).
 */
export async function claimSetup(q: Queryable, at: Date): Promise<boolean> {
  const [claimed] = await q
    .insert(appSettings)
    .values({ key: COMPLETED_KEY, value: at.toISOString() })
    .onConflictDoNothing()
    .returning({ key: appSettings.key });
  return Boolean(claimed);
}

/** Records who did the setup on its `setup.completed` row. */
export async function setSetupAuthor(q: Queryable, userId: string) {
  await q.update(appSettings).set({ updatedBy: userId }).where(eq(appSettings.key, COMPLETED_KEY));
}

/** Deletes every printed link's row. */
export async function deleteSetupTokens(q: Queryable) {
  await q.delete(appSettings).where(like(appSettings.key, `${TOKEN_KEY_PREFIX}%`));
}
