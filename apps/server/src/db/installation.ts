import { sql } from 'drizzle-orm';
import type { Queryable } from './client.js';

/** An installation nobody has started using: no hospital and no account (the demo seed, the setup link). */
export async function databaseIsEmpty(db: Queryable): Promise<boolean> {
  const rows = await db.execute<{ n: number }>(
    sql`select (select count(*) from hospitals) + (select count(*) from users) as n`,
  );
  return Number(rows.rows[0]?.n ?? 0) === 0;
}
