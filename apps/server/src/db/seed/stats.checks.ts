import { sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { demo as ctx } from '../../../test/demo.js';
import { demoActor } from '../../../test/factories.js';
import { HISTORY_DAYS } from './stats.js';

const actor = (email: string) => demoActor(ctx.database.db, ctx.config.jwtSecret, email);

it('gives the reporting figures for last month and this month, whatever the hour', async () => {
  const today = await ctx.database.db.execute<{
    d: string;
    first: string;
    last_first: string;
    last_end: string;
  }>(
    sql`select (now() at time zone time_zone)::date::text as d,
      date_trunc('month', (now() at time zone time_zone)::date)::date::text as first,
      (date_trunc('month', (now() at time zone time_zone)::date) - interval '1 month')::date::text as last_first,
      (date_trunc('month', (now() at time zone time_zone)::date) - interval '1 day')::date::text as last_end
      from hospitals where code = 'HGG'`,
  );
  const { d, first, last_first, last_end } = today.rows[0]!;
  const head = await actor('chef@greensen.test');
  const get = (url: string) => ctx.app.inject({ method: 'GET', url, headers: head.headers });
  for (const [from, to] of [
    [last_first, last_end],
    [first, d],
  ] as const) {
    const activity = await get(`/api/stats/activity/?from=${from}&to=${to}`);
    expect(activity.statusCode, activity.body).toBe(200);
    const visits = activity
      .json()
      .admissions_by_day.reduce((s: number, x: { total: number }) => s + x.total, 0);
    expect(visits, `${from}…${to}`).toBeGreaterThan(0);
  }
  // Last month's confirmed malaria: the figure, its drill-down and a direct count agree.
  const diagnoses = (await get(`/api/stats/diagnoses/?from=${last_first}&to=${last_end}`)).json();
  const malaria = diagnoses.idsr.find((x: { disease: string }) => x.disease === 'malaria_confirmed').total;
  expect(malaria).toBeGreaterThan(0);
  const drill = (
    await get(`/api/stats/drilldown/?from=${last_first}&to=${last_end}&disease=malaria_confirmed`)
  ).json();
  expect(drill.count).toBe(malaria);
  const direct = await ctx.database.db.execute<{ n: number }>(sql`
    select count(distinct c.id)::int as n from consultation_diagnoses dg
    join consultations c on c.id = dg.consultation_id join hospitals h on h.id = c.hospital_id
    where h.code = 'HGG' and dg.removed_at is null and dg.certainty = 'confirmed' and dg.icd_code like 'B5%'
      and c.status <> 'cancelled'
      and (c.started_at at time zone h.time_zone)::date between ${last_first}::date and ${last_end}::date`);
  expect(Number(direct.rows[0]!.n)).toBe(malaria);
  // Never today: the past visits end yesterday.
  const past = await ctx.database.db.execute<{ n: number }>(sql`
    select count(*)::int as n from admissions a join hospitals h on h.id = a.hospital_id
    where h.code = 'HGG' and a.queue_number >= 900 and a.queue_date >= ${d}::date`);
  expect(Number(past.rows[0]!.n)).toBe(0);
  expect(HISTORY_DAYS).toBeGreaterThanOrEqual(31);
  // New and returning patients in every fortnight of the history, not only returning ones after the first weeks.
  const fortnights = await ctx.database.db.execute<{ from: string; to: string }>(
    sql`select ((now() at time zone time_zone)::date - 14)::text as from,
      ((now() at time zone time_zone)::date - 1)::text as to from hospitals where code = 'HGG'
      union all select ((now() at time zone time_zone)::date - 28)::text,
      ((now() at time zone time_zone)::date - 15)::text from hospitals where code = 'HGG'`,
  );
  for (const { from, to } of fortnights.rows) {
    const { patients } = (await get(`/api/stats/activity/?from=${from}&to=${to}`)).json();
    expect(patients.new, `${from}…${to}`).toBeGreaterThan(0);
    expect(patients.returning, `${from}…${to}`).toBeGreaterThan(0);
  }
});

it('lets the director export last month as a DHIS2 data value set that matches the activity figures', async () => {
  const month = await ctx.database.db.execute<{ period: string; from: string; to: string }>(
    sql`select to_char(d, 'YYYYMM') as period, d::date::text as from,
        (d + interval '1 month' - interval '1 day')::date::text as to
      from (select date_trunc('month', (now() at time zone time_zone)::date) - interval '1 month' as d
        from hospitals where code = 'HGG') m`,
  );
  const { period, from, to } = month.rows[0]!;
  const head = await actor('chef@greensen.test');
  const res = await ctx.app.inject({
    method: 'GET',
    url: `/api/stats/dhis2/dataValueSet/?period=${period}`,
    headers: head.headers,
  });
  expect(res.statusCode, res.body).toBe(200);
  const set = res.json() as {
    dataSet: string;
    orgUnit: string;
    period: string;
    dataValues: { dataElement: string; categoryOptionCombo: string; value: string }[];
  };
  expect(set).toMatchObject({ dataSet: 'GS_MONTHLY_ACTIVITY', orgUnit: 'GS_HGG', period });
  const activity = await ctx.app.inject({
    method: 'GET',
    url: `/api/stats/activity/?from=${from}&to=${to}`,
    headers: head.headers,
  });
  const consultations = (
    activity.json() as { consultations_by_doctor: { consultations: number }[] }
  ).consultations_by_doctor.reduce((sum, d) => sum + d.consultations, 0);
  expect(consultations).toBeGreaterThan(0);
  expect(set.dataValues).toContainEqual(
    expect.objectContaining({
      dataElement: 'GS_CONSULTATIONS',
      categoryOptionCombo: 'default',
      value: String(consultations),
    }),
  );
  // The IDSR diseases of the month, by age group and in total (the demo codes malaria among its visits).
  expect(set.dataValues.some((v) => v.dataElement === 'GS_IDSR_MALARIA_CONFIRMED_TOTAL')).toBe(true);
});
