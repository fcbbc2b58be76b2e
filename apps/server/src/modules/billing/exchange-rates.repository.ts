import type { TExchangeRate } from '@greensen/shared/contracts/billing';
import { type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { exchangeRates } from '../../db/schema/index.js';
import { fullName, isoRequired } from '../../lib/clinical.js';

// The SQL of the hospital's exchange-rate table (decision 0040); the rules are in exchange-rates.service.ts.

type RateRow = {
  id: string;
  base: string;
  quote: string;
  rate: string;
  valid_on: string;
  note: string | null;
  set_by: string;
  u_first: string;
  u_last: string;
  created_at: string | Date;
};

const RATE_SELECT = sql`select r.id, r.base, r.quote, r.rate::text as rate, r.valid_on::text as valid_on, r.note,
  r.set_by, u.first_name as u_first, u.last_name as u_last, r.created_at
  from exchange_rates r join users u on u.id = r.set_by`;

/** `655.95700000` → `655.957`: the rate as it was typed. */
const trimRate = (rate: string) => (rate.includes('.') ? rate.replace(/0+$/, '').replace(/\.$/, '') : rate);

function toRate(r: RateRow): TExchangeRate {
  return {
    id: r.id,
    base: r.base,
    quote: r.quote,
    rate: trimRate(r.rate),
    valid_on: r.valid_on,
    note: r.note,
    set_by: { id: r.set_by, full_name: fullName(r.u_first, r.u_last) },
    created_at: isoRequired(r.created_at),
  };
}

/**
 * The rate in force on `day` for one major unit of `base` in `quote`: the latest from a day on or before it (the
 * newest row of that day: a correction), or null. One indexed read (`exchange_rates_lookup_idx`).
 */
export async function rateInForce(
  q: Queryable,
  hospitalId: string,
  base: string,
  quote: string,
  day: string,
): Promise<TExchangeRate | null> {
  const res = await q.execute<RateRow>(sql`${RATE_SELECT} where r.hospital_id = ${hospitalId}
    and r.base = ${base} and r.quote = ${quote} and r.valid_on <= ${day}
    order by r.valid_on desc, r.created_at desc limit 1`);
  return res.rows[0] ? toRate(res.rows[0]) : null;
}

/** A page of the hospital's rates (of one currency), the latest first, and the count. */
export async function listRates(
  q: Queryable,
  hospitalId: string,
  base: string | undefined,
  limit: number,
  offset: number,
) {
  const where: SQL[] = [sql`r.hospital_id = ${hospitalId}`];
  if (base) where.push(sql`r.base = ${base}`);
  const cond = sql.join(where, sql` and `);
  const [rows, count] = await Promise.all([
    q.execute<RateRow>(sql`${RATE_SELECT} where ${cond}
      order by r.valid_on desc, r.created_at desc, r.id limit ${limit} offset ${offset}`),
    q.execute<{ n: number }>(sql`select count(*)::int as n from exchange_rates r where ${cond}`),
  ]);
  return { rows: rows.rows.map(toRate), count: Number(count.rows[0]?.n ?? 0) };
}

/** The rate in force on `day` in `quote` of every currency the table has. */
export async function ratesInForce(q: Queryable, hospitalId: string, quote: string, day: string) {
  const res = await q.execute<RateRow>(sql`select distinct on (x.base) x.* from (${RATE_SELECT}
      where r.hospital_id = ${hospitalId} and r.quote = ${quote} and r.valid_on <= ${day}) x
    order by x.base, x.valid_on desc, x.created_at desc`);
  return res.rows.map(toRate);
}

export async function insertRate(q: Queryable, values: typeof exchangeRates.$inferInsert): Promise<string> {
  const [row] = await q.insert(exchangeRates).values(values).returning({ id: exchangeRates.id });
  return row!.id;
}

export async function findRate(q: Queryable, id: string) {
  const res = await q.execute<RateRow>(sql`${RATE_SELECT} where r.id = ${id}`);
  return res.rows[0] ? toRate(res.rows[0]) : null;
}
