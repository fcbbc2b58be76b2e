import type {
  TExchangeRate,
  TExchangeRateCreate,
  TExchangeRatesCurrent,
} from '@greensen/shared/contracts/billing';
import type { FastifyInstance } from 'fastify';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { badRequest } from '../../lib/errors.js';
import { hospitalCurrency, hospitalToday } from '../../lib/queries.js';
import { requireBillingReader } from './billing.access.js';
import { findRate, insertRate, listRates, ratesInForce } from './exchange-rates.repository.js';

/**
 * The hospital's exchange-rate table (decision 0040): the head doctor and administrators set a currency's rate
 * from a day in the hospital's currency; rows are kept (history), a correction is a new row. A payment in another
 * currency takes the rate in force on its day unless the cashier types one.
 */
export class ExchangeRatesService {
  constructor(private readonly app: FastifyInstance) {}

  async list(ctx: ServiceContext, base: string | undefined, page: number, pageSize: number) {
    const hospital = scopedHospital(ctx);
    await requireBillingReader(this.app.db, ctx);
    return listRates(this.app.db, hospital.id, base, pageSize, (page - 1) * pageSize);
  }

  /** The rate in force on `on` (the hospital's today by default) for every currency the table has. */
  async current(ctx: ServiceContext, on: string | undefined): Promise<TExchangeRatesCurrent> {
    const hospital = scopedHospital(ctx);
    await requireBillingReader(this.app.db, ctx);
    const day = on ?? (await hospitalToday(this.app.db, hospital.id));
    const quote = await hospitalCurrency(this.app.db, hospital.id);
    return { on: day, quote, rates: await ratesInForce(this.app.db, hospital.id, quote, day) };
  }

  async create(ctx: ServiceContext, body: TExchangeRateCreate): Promise<TExchangeRate> {
    const hospital = scopedHospital(ctx);
    const quote = await hospitalCurrency(this.app.db, hospital.id);
    if (body.base === quote) throw badRequest({ base: ['billing.rate_same_currency'] });
    const id = await this.app.db.transaction(async (tx) => {
      const rateId = await insertRate(tx, {
        hospitalId: hospital.id,
        base: body.base,
        quote,
        rate: body.rate,
        validOn: body.valid_on,
        note: body.note ?? null,
        setBy: actingUser(ctx).id,
      });
      await this.app.audit.record(
        ctx,
        {
          action: 'exchange_rate.create',
          resourceType: 'exchange_rate',
          resourceId: rateId,
          details: { base: body.base, quote, rate: body.rate, valid_on: body.valid_on },
        },
        tx,
      );
      return rateId;
    });
    return (await findRate(this.app.db, id))!;
  }
}
