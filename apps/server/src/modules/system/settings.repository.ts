import { eq } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { appSettings } from '../../db/schema/index.js';

export async function readSetting(db: Queryable, key: string): Promise<string | null> {
  const [row] = await db
    .select({ value: appSettings.value })
    .from(appSettings)
    .where(eq(appSettings.key, key));
  return row?.value ?? null;
}

export async function writeSetting(db: Queryable, key: string, value: string, userId: string | null) {
  await db
    .insert(appSettings)
    .values({ key, value, updatedBy: userId })
    .onConflictDoUpdate({
      target: appSettings.key,
      set: { value, updatedBy: userId, updatedAt: new Date() },
    });
}
