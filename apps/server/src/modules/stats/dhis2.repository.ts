/** The DHIS2 mapping of a hospital (decision 0039): read and replaced whole, scoped by its hospital. */
import type { Dhis2IdScheme, TDhis2Mapping, TDhis2MappingUpdate } from '@greensen/shared/contracts/dhis2';
import { eq, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { dhis2Mappings, dhis2Settings } from '../../db/schema/index.js';

export async function findDhis2Mapping(q: Queryable, hospitalId: string): Promise<TDhis2Mapping> {
  const settings = await q.execute<{
    id_scheme: Dhis2IdScheme;
    org_unit: string;
    monthly_data_set: string | null;
    weekly_data_set: string | null;
    updated_at: Date | string;
    updated_by_id: string | null;
    updated_by_name: string | null;
  }>(sql`select s.id_scheme, s.org_unit, s.monthly_data_set, s.weekly_data_set, s.updated_at,
      u.id as updated_by_id, trim(u.first_name || ' ' || u.last_name) as updated_by_name
    from dhis2_settings s left join users u on u.id = s.updated_by
    where s.hospital_id = ${hospitalId}`);
  const row = settings.rows[0];
  if (!row)
    return {
      configured: false,
      id_scheme: 'UID',
      org_unit: '',
      monthly_data_set: null,
      weekly_data_set: null,
      rows: [],
      updated_at: null,
      updated_by: null,
    };
  const rows = await q.execute<TDhis2Mapping['rows'][number]>(
    sql`select indicator, data_element, category_option_combo, attribute_option_combo
      from dhis2_mappings where hospital_id = ${hospitalId} order by indicator`,
  );
  return {
    configured: true,
    id_scheme: row.id_scheme,
    org_unit: row.org_unit,
    monthly_data_set: row.monthly_data_set,
    weekly_data_set: row.weekly_data_set,
    rows: rows.rows,
    updated_at: new Date(row.updated_at).toISOString(),
    updated_by: row.updated_by_id ? { id: row.updated_by_id, full_name: row.updated_by_name ?? '' } : null,
  };
}

/** Replaces the hospital's mapping (settings upserted, rows deleted and inserted): run it in a transaction. */
export async function saveDhis2Mapping(
  q: Queryable,
  hospitalId: string,
  m: TDhis2MappingUpdate,
  userId: string,
) {
  const set = {
    idScheme: m.id_scheme ?? 'UID',
    orgUnit: m.org_unit,
    monthlyDataSet: m.monthly_data_set ?? null,
    weeklyDataSet: m.weekly_data_set ?? null,
    updatedBy: userId,
    updatedAt: new Date(),
  };
  await q
    .insert(dhis2Settings)
    .values({ hospitalId, ...set })
    .onConflictDoUpdate({ target: dhis2Settings.hospitalId, set });
  await q.delete(dhis2Mappings).where(eq(dhis2Mappings.hospitalId, hospitalId));
  if (m.rows.length > 0)
    await q.insert(dhis2Mappings).values(
      m.rows.map((r) => ({
        hospitalId,
        indicator: r.indicator,
        dataElement: r.data_element,
        categoryOptionCombo: r.category_option_combo,
        attributeOptionCombo: r.attribute_option_combo ?? null,
      })),
    );
}
