/**
 * DHIS2 export (issue 24, decision 0039): the administrator's mapping, and the data value set of a month and of an
 * ISO week — valid against the DHIS2 Web API's dataValueSets format (`dhis2DataValueSetSchema`), its values equal
 * to counts made directly in the database, never another hospital's.
 */
import {
  dhis2DataValueSetSchema,
  isoWeekOf,
  isoWeeksInYear,
  parseDhis2Period,
} from '@greensen/shared/contracts/dhis2';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestContext } from '../../../test/app.js';
import { call } from '../../../test/consultations.js';
import type { Actor } from '../../../test/journey.js';
import {
  confirmedMalariaCases,
  foreignCase,
  type ReportingHospital,
  reportingWorld,
} from '../../../test/reporting.js';

let ctx: TestContext;
let h: ReportingHospital;
let other: ReportingHospital;
let count: Awaited<ReturnType<typeof reportingWorld>>['count'];
const a = {} as Record<'doctor' | 'head' | 'admin' | 'foreignAdmin' | 'secretary', Actor>;
let month = '';
let week = '';

const COC = 'HllvX50cXC0';
const mapping = {
  org_unit: 'DiszpKrYNg8',
  monthly_data_set: 'pBOMPrpg1QX',
  weekly_data_set: 'Nyh6laLdBEJ',
  rows: [
    { indicator: 'idsr.malaria_confirmed.total', data_element: 'vq2qO3eTrNi', category_option_combo: COC },
    {
      indicator: 'idsr.malaria_confirmed.1-4',
      data_element: 'vq2qO3eTrNi',
      category_option_combo: 'Prlt0C1RF0s',
    },
    { indicator: 'idsr.malaria_suspected.total', data_element: 'w4VfXl3fEj1', category_option_combo: COC },
    { indicator: 'idsr.cholera.total', data_element: 'eY5ehpbEsB7', category_option_combo: COC },
    {
      indicator: 'visits.total',
      data_element: 'GQY2lXrypjO',
      category_option_combo: COC,
      attribute_option_combo: 'bRowv6yZOF2',
    },
    { indicator: 'visits.emergency', data_element: 'GQY2lXrypjP', category_option_combo: COC },
    { indicator: 'consultations', data_element: 'GQY2lXrypjQ', category_option_combo: COC },
    { indicator: 'inpatient.deaths', data_element: 'GQY2lXrypjR', category_option_combo: COC },
    { indicator: 'malaria_tests.done', data_element: 'GQY2lXrypjS', category_option_combo: COC },
  ],
};

beforeAll(async () => {
  const world = await reportingWorld();
  ({ ctx, h, other, count } = world);
  a.secretary = await h.as('SECRETARY');
  a.doctor = await h.as('DOCTOR', 'URG');
  a.head = await h.as('HEAD_DOCTOR', 'MED');
  a.admin = await h.as('ADMIN');
  a.foreignAdmin = await other.as('ADMIN');
  const today = world.today;
  month = today.slice(0, 7).replace('-', '');
  week = isoWeekOf(today);
  const actors = { desk: a.secretary, assigner: await h.as('QUEUE_MANAGER'), doctor: a.doctor };
  const child = `${Number(today.slice(0, 4)) - 3}${today.slice(4)}`;
  // Two confirmed malaria cases today (a child of three, an adult), coded by the completed consultations.
  await confirmedMalariaCases(ctx, h, actors, [child, '1980-05-01']);
  // The other hospital's case counts for no figure of this one.
  await foreignCase(ctx, other);
});
afterAll(() => ctx.close());

describe('DHIS2 periods', () => {
  it('reads months and ISO weeks as DHIS2 writes them', () => {
    expect(parseDhis2Period('202602')).toEqual({ kind: 'monthly', from: '2026-02-01', to: '2026-02-28' });
    expect(parseDhis2Period('202402')?.to).toBe('2024-02-29');
    // ISO week 1 holds 4 January: 2026W1 starts on Monday 29 December 2025.
    expect(parseDhis2Period('2026W1')).toEqual({ kind: 'weekly', from: '2025-12-29', to: '2026-01-04' });
    expect(parseDhis2Period('2020W53')).toEqual({ kind: 'weekly', from: '2020-12-28', to: '2021-01-03' });
    // 2021 starts on a Friday: 52 weeks; 2020 (leap, starts on a Wednesday) and 2026 (a Thursday): 53.
    expect([isoWeeksInYear(2021), isoWeeksInYear(2020), isoWeeksInYear(2026)]).toEqual([52, 53, 53]);
    expect(parseDhis2Period('2021W53')).toBeNull();
    for (const bad of ['2026W0', '2026W01', '2026W54', '202613', '202600', '2026-01', '2026M1', '2026'])
      expect(parseDhis2Period(bad), bad).toBeNull();
    expect(isoWeekOf('2021-01-03')).toBe('2020W53');
    expect(isoWeekOf('2025-12-29')).toBe('2026W1');
    expect(isoWeekOf('2026-11-26')).toBe('2026W48');
  });
});

describe('DHIS2 mapping', () => {
  it('is set by the hospital’s administrator, audited, and read back', async () => {
    const empty = await call(ctx.app, a.admin, 'GET', '/api/stats/dhis2/mapping/');
    expect(empty.statusCode, empty.body).toBe(200);
    expect(empty.json()).toMatchObject({ configured: false, rows: [] });
    const before = await call(ctx.app, a.head, 'GET', `/api/stats/dhis2/dataValueSet/?period=${month}`);
    expect(before.statusCode, before.body).toBe(409);

    const res = await call(ctx.app, a.admin, 'PUT', '/api/stats/dhis2/mapping/', mapping);
    expect(res.statusCode, res.body).toBe(200);
    const saved = res.json();
    expect(saved).toMatchObject({ configured: true, id_scheme: 'UID', org_unit: 'DiszpKrYNg8' });
    expect(saved.rows).toHaveLength(mapping.rows.length);
    expect(saved.updated_by.id).toBe(a.admin.id);
    const audit = await count(sql`select count(*)::int as n from audit_events
      where action = 'stats.dhis2_mapping.update' and hospital_id = ${h.hospital.id} and user_id = ${a.admin.id}`);
    expect(audit).toBe(1);
    // Another hospital's administrator sees its own (empty) mapping only.
    const foreign = await call(ctx.app, a.foreignAdmin, 'GET', '/api/stats/dhis2/mapping/');
    expect(foreign.json()).toMatchObject({ configured: false, rows: [] });
  });

  it('is refused to other roles and to other hospitals', async () => {
    for (const who of [a.head, a.doctor, a.secretary]) {
      expect((await call(ctx.app, who, 'GET', '/api/stats/dhis2/mapping/')).statusCode).toBe(403);
      expect((await call(ctx.app, who, 'PUT', '/api/stats/dhis2/mapping/', mapping)).statusCode).toBe(403);
    }
    const crossed = await ctx.app.inject({
      method: 'PUT',
      url: '/api/stats/dhis2/mapping/',
      headers: { ...a.foreignAdmin.headers, 'hospital-id': h.hospital.id },
      payload: mapping,
    });
    expect(crossed.statusCode).toBe(403);
    const dataValueSet = await ctx.app.inject({
      method: 'GET',
      url: `/api/stats/dhis2/dataValueSet/?period=${month}`,
      headers: { ...a.foreignAdmin.headers, 'hospital-id': h.hospital.id },
    });
    expect(dataValueSet.statusCode).toBe(403);
    expect(
      (await call(ctx.app, a.doctor, 'GET', `/api/stats/dhis2/dataValueSet/?period=${month}`)).statusCode,
    ).toBe(403);
  });

  it('refuses identifiers that are not DHIS2 UIDs, and an indicator mapped twice', async () => {
    const bad = await call(ctx.app, a.admin, 'PUT', '/api/stats/dhis2/mapping/', {
      ...mapping,
      org_unit: 'not a uid',
      rows: [mapping.rows[0], mapping.rows[0]],
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json())).toEqual(expect.arrayContaining(['org_unit', 'rows.1.indicator']));
    const unknown = await call(ctx.app, a.admin, 'PUT', '/api/stats/dhis2/mapping/', {
      ...mapping,
      rows: [{ indicator: 'idsr.flu.total', data_element: 'vq2qO3eTrNi', category_option_combo: COC }],
    });
    expect(unknown.statusCode).toBe(400);
    // Codes are accepted with the CODE scheme (and then announced in the file).
    const codes = await call(ctx.app, a.admin, 'PUT', '/api/stats/dhis2/mapping/', {
      id_scheme: 'CODE',
      org_unit: 'OU_HGG',
      rows: [
        { indicator: 'idsr.cholera.total', data_element: 'IDSR_CHOLERA', category_option_combo: 'default' },
      ],
    });
    expect(codes.statusCode, codes.body).toBe(200);
    const file = await call(ctx.app, a.head, 'GET', `/api/stats/dhis2/dataValueSet/?period=${month}`);
    expect(file.statusCode, file.body).toBe(200);
    const parsed = dhis2DataValueSetSchema('CODE').parse(file.json());
    expect(parsed).toMatchObject({ idScheme: 'CODE', orgUnit: 'OU_HGG', period: month });
    expect(parsed.dataValues).toEqual([
      {
        dataElement: 'IDSR_CHOLERA',
        categoryOptionCombo: 'default',
        period: month,
        orgUnit: 'OU_HGG',
        value: '0',
      },
    ]);
    // Back to the UIDs for the next tests.
    expect((await call(ctx.app, a.admin, 'PUT', '/api/stats/dhis2/mapping/', mapping)).statusCode).toBe(200);
  });
});

describe('DHIS2 data value set', () => {
  const figureOf = (
    set: { dataValues: { dataElement: string; categoryOptionCombo: string; value: string }[] },
    de: string,
    coc = COC,
  ) => set.dataValues.find((v) => v.dataElement === de && v.categoryOptionCombo === coc)?.value;

  it('exports the month in the published format, with the database’s counts', async () => {
    const res = await call(ctx.app, a.head, 'GET', `/api/stats/dhis2/dataValueSet/?period=${month}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="dhis2-${month}.json"`);
    const set = dhis2DataValueSetSchema('UID').parse(res.json());
    expect(set).toMatchObject({ dataSet: 'pBOMPrpg1QX', period: month, orgUnit: 'DiszpKrYNg8' });
    // The month is not over: not reported complete.
    expect(set.completeDate).toBeUndefined();
    expect(set.dataValues).toHaveLength(mapping.rows.length);
    for (const v of set.dataValues) expect(v).toMatchObject({ period: month, orgUnit: 'DiszpKrYNg8' });

    const malaria =
      await count(sql`select count(distinct dg.consultation_id)::int as n from consultation_diagnoses dg
      where dg.hospital_id = ${h.hospital.id} and dg.removed_at is null and dg.certainty = 'confirmed'
        and dg.icd_code like 'B5%'`);
    expect(malaria).toBe(2);
    expect(figureOf(set, 'vq2qO3eTrNi')).toBe(String(malaria));
    expect(figureOf(set, 'vq2qO3eTrNi', 'Prlt0C1RF0s')).toBe('1');
    expect(figureOf(set, 'w4VfXl3fEj1')).toBe('0');
    expect(figureOf(set, 'eY5ehpbEsB7')).toBe('0');
    const visits = await count(
      sql`select count(*)::int as n from admissions where hospital_id = ${h.hospital.id} and status <> 'cancelled'`,
    );
    expect(visits).toBe(2);
    const total = set.dataValues.find((v) => v.dataElement === 'GQY2lXrypjO');
    expect(total).toMatchObject({ value: String(visits), attributeOptionCombo: 'bRowv6yZOF2' });
    expect(figureOf(set, 'GQY2lXrypjP')).toBe(String(visits));
    const consultations = await count(
      sql`select count(*)::int as n from consultations where hospital_id = ${h.hospital.id}`,
    );
    expect(figureOf(set, 'GQY2lXrypjQ')).toBe(String(consultations));
    expect(figureOf(set, 'GQY2lXrypjR')).toBe('0');
    expect(figureOf(set, 'GQY2lXrypjS')).toBe('0');

    const audit = await count(sql`select count(*)::int as n from audit_events
      where action = 'stats.dhis2_export' and hospital_id = ${h.hospital.id} and user_id = ${a.head.id}`);
    expect(audit).toBeGreaterThanOrEqual(1);
  });

  it('exports the ISO week with the IDSR indicators only', async () => {
    const res = await call(ctx.app, a.admin, 'GET', `/api/stats/dhis2/dataValueSet/?period=${week}`);
    expect(res.statusCode, res.body).toBe(200);
    const set = dhis2DataValueSetSchema('UID').parse(res.json());
    expect(set).toMatchObject({ dataSet: 'Nyh6laLdBEJ', period: week });
    expect(set.dataValues.map((v) => v.dataElement).sort()).toEqual(
      ['eY5ehpbEsB7', 'vq2qO3eTrNi', 'vq2qO3eTrNi', 'w4VfXl3fEj1'].sort(),
    );
    expect(figureOf(set, 'vq2qO3eTrNi')).toBe('2');
  });

  it('reports a finished period complete, with no figure of today', async () => {
    const res = await call(ctx.app, a.admin, 'GET', '/api/stats/dhis2/dataValueSet/?period=2020W53');
    expect(res.statusCode, res.body).toBe(200);
    const set = dhis2DataValueSetSchema('UID').parse(res.json());
    expect(set.completeDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(set.dataValues.every((v) => v.value === '0')).toBe(true);
  });

  it('refuses a period DHIS2 would not read', async () => {
    for (const period of ['2021W53', '2026-01', '20261'])
      expect(
        (await call(ctx.app, a.admin, 'GET', `/api/stats/dhis2/dataValueSet/?period=${period}`)).statusCode,
        period,
      ).toBe(400);
  });

  it('the format schema refuses what DHIS2 would refuse', () => {
    const schema = dhis2DataValueSetSchema('UID');
    const valid = {
      period: '202610',
      orgUnit: 'DiszpKrYNg8',
      dataValues: [
        {
          dataElement: 'f7n9E0hX8qk',
          categoryOptionCombo: COC,
          period: '202610',
          orgUnit: 'DiszpKrYNg8',
          value: '12',
        },
      ],
    };
    expect(schema.safeParse(valid).success).toBe(true);
    const value = valid.dataValues[0]!;
    for (const wrong of [
      { ...valid, period: '2026-10' },
      { ...valid, orgUnit: '1iszpKrYNg8' },
      { ...valid, dataValues: [{ ...value, value: 12 }] },
      { ...valid, dataValues: [{ ...value, dataElement: 'short' }] },
      { ...valid, completeDate: '26/11/2026' },
    ])
      expect(schema.safeParse(wrong).success).toBe(false);
  });
});
