import type {
  TExchangeRate,
  TExchangeRateCreate,
  TExchangeRatesCurrent,
} from '@greensen/shared/contracts/billing';
import { type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../../db/client.js';
import { exchangeRates } from '../../db/schema/index.js';
import { fullName, isoRequired } from '../../lib/clinical.js';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { badRequest } from '../../lib/errors.js';
import { hospitalToday } from '../../lib/queries.js';
import { requireBillingReader } from './billing.access.js';

interface RateRow {
  [column: string]: unknown;
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
}

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

/**
 * The hospital's exchange-rate table (decision 0040): the head doctor and administrators set a currency's rate
 * from a day in the hospital's currency; rows are kept (history), a correction is a new row. A payment in another
 * currency takes the rate in force on its day unless the cashier types one.
 */
export class ExchangeRatesService {
  constructor(private readonly app: FastifyInstance) {}

  private async quoteOf(q: Queryable, hospitalId: string): Promise<string> {
    const res = await q.execute<{ currency: string }>(
      sql`select currency from hospitals where id = ${hospitalId}`,
    );
    return res.rows[0]!.currency;
  }

  async list(ctx: ServiceContext, base: string | undefined, page: number, pageSize: number) {
    const hospital = scopedHospital(ctx);
    await requireBillingReader(this.app.db, ctx);
    const where: SQL[] = [sql`r.hospital_id = ${hospital.id}`];
    if (base) where.push(sql`r.base = ${base}`);
    const cond = sql.join(where, sql` and `);
    const [rows, count] = await Promise.all([
      this.app.db.execute<RateRow>(sql`${RATE_SELECT} where ${cond}
        order by r.valid_on desc, r.created_at desc, r.id limit ${pageSize} offset ${(page - 1) * pageSize}`),
      this.app.db.execute<{ n: number }>(sql`select count(*)::int as n from exchange_rates r where ${cond}`),
    ]);
    return { rows: rows.rows.map(toRate), count: Number(count.rows[0]?.n ?? 0) };
  }

  /** The rate in force on `on` (the hospital's today by default) for every currency the table has. */
  async current(ctx: ServiceContext, on: string | undefined): Promise<TExchangeRatesCurrent> {
    const hospital = scopedHospital(ctx);
    await requireBillingReader(this.app.db, ctx);
    const day = on ?? (await hospitalToday(this.app.db, hospital.id));
    const quote = await this.quoteOf(this.app.db, hospital.id);
    const res = await this.app.db.execute<RateRow>(sql`select distinct on (x.base) x.* from (${RATE_SELECT}
        where r.hospital_id = ${hospital.id} and r.quote = ${quote} and r.valid_on <= ${day}) x
      order by x.base, x.valid_on desc, x.created_at desc`);
    return { on: day, quote, rates: res.rows.map(toRate) };
  }

  async create(ctx: ServiceContext, body: TExchangeRateCreate): Promise<TExchangeRate> {
    const hospital = scopedHospital(ctx);
    const quote = await this.quoteOf(this.app.db, hospital.id);
    if (body.base === quote) throw badRequest({ base: ['billing.rate_same_currency'] });
    const id = await this.app.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(exchangeRates)
        .values({
          hospitalId: hospital.id,
          base: body.base,
          quote,
          rate: body.rate,
          validOn: body.valid_on,
          note: body.note ?? null,
          setBy: actingUser(ctx).id,
        })
        .returning({ id: exchangeRates.id });
      await this.app.audit.record(
        ctx,
        {
          action: 'exchange_rate.create',
          resourceType: 'exchange_rate',
          resourceId: row!.id,
          details: { base: body.base, quote, rate: body.rate, valid_on: body.valid_on },
        },
        tx,
      );
      return row!.id;
    });
    const res = await this.app.db.execute<RateRow>(sql`${RATE_SELECT} where r.id = ${id}`);
    return toRate(res.rows[0]!);
  }
}
