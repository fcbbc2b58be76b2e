import { sql } from 'drizzle-orm';
import type { Queryable } from '../db/client.js';

/**
 * Takes the next value of a per-hospital sequence (`hospital_sequences`), atomically: the upsert locks the
 * row until the caller's transaction ends, so concurrent takers get distinct, gap-free numbers.
 */
export async function nextSequenceValue(q: Queryable, hospitalId: string, name: string): Promise<number> {
  const res = await q.execute<{ value: number }>(sql`
    insert into hospital_sequences (hospital_id, name, value) values (${hospitalId}, ${name}, 1)
    on conflict (hospital_id, name) do update set value = hospital_sequences.value + 1
    returning value`);
  return Number(res.rows[0]!.value);
}
