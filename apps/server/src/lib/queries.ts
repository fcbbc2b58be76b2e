import { type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../db/client.js';

/** The values of an SQL `in (…)` list, each bound as a parameter: `sql\`x in (${sqlList(values)})\``. */
export function sqlList(values: readonly unknown[]): SQL {
  return sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  );
}

/** `text` with LIKE's wildcards and escape character taken literally (the one place that writes the escape). */
export const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A LIKE pattern for values containing `text`: its wildcards and the escape character taken literally. */
export const containsPattern = (text: string) => `%${likeEscape(text)}%`;

/** A LIKE pattern for values starting with `text`, taken literally. */
export const prefixPattern = (text: string) => `${likeEscape(text)}%`;

/** Name searches (`%>`) with the patient search's tolerance (0.4), for the rest of the transaction. */
export const NAME_SEARCH_TOLERANCE = sql`select set_config('pg_trgm.word_similarity_threshold', '0.4', true)`;

/** Sets the name searches' tolerance (`NAME_SEARCH_TOLERANCE`) for the rest of the transaction `tx`. */
export async function tolerateNameSearch(tx: Queryable): Promise<void> {
  await tx.execute(NAME_SEARCH_TOLERANCE);
}

/**
 * Midnight, as an instant, of a day in the hospital's time zone: today, or the `YYYY-MM-DD` `day`, plus
 * `plusDays` (`[midnightOf(h, d), midnightOf(h, d, 1))` is that day).
 */
export function hospitalMidnight(hospitalId: string, day?: string, plusDays = 0): SQL {
  const date = day === undefined ? sql`(now() at time zone h.time_zone)::date` : sql`${day}::date`;
  return sql`(select ((${date} + ${plusDays}::int)::timestamp at time zone h.time_zone) from hospitals h where h.id = ${hospitalId})`;
}

/** The hospital's currency (ISO 4217). */
export async function hospitalCurrency(q: Queryable, hospitalId: string): Promise<string> {
  const res = await q.execute<{ currency: string }>(
    sql`select currency from hospitals where id = ${hospitalId}`,
  );
  return res.rows[0]!.currency;
}

/** Today's date (YYYY-MM-DD) in the hospital's time zone. */
export async function hospitalToday(q: Queryable, hospitalId: string): Promise<string> {
  const res = await q.execute<{ today: string }>(
    sql`select (now() at time zone time_zone)::date::text as today from hospitals where id = ${hospitalId}`,
  );
  return res.rows[0]!.today;
}

/**
 * The audit entry of a filtered list read (patient data): the filters, the page and how many rows were
 * returned; the patient when the list is filtered by one.
 */
export function listReadEntry(
  action: string,
  resourceType: string,
  filters: { patient?: string | null | undefined },
  page: number,
  results: number,
) {
  return {
    action,
    resourceType,
    ...(filters.patient ? { patientId: filters.patient } : {}),
    details: { filters: { ...filters }, page, results },
  };
}

/** Rows one purge statement deletes at most, so that none holds many locks for long. */
export const PURGE_BATCH = 5000;

/**
 * Runs a `delete … where id in (select … limit PURGE_BATCH) returning id` until a batch is short; the total.
 */
export async function deleteInBatches(q: Queryable, statement: SQL): Promise<number> {
  let total = 0;
  for (;;) {
    const n = (await q.execute(statement)).rows.length;
    total += n;
    if (n < PURGE_BATCH) return total;
  }
}
