/**
 * The DHIS2 export's mapping (issue 24, docs/decisions/0039-reporting-exports.md): per hospital, its DHIS2
 * organisation unit and data sets, and per indicator the data element + category option combo (+ attribute option
 * combo) that receive its figure. Identifiers are DHIS2's (UIDs, or codes with the `CODE` scheme), checked by the
 * API's schema.
 */
import { sql } from 'drizzle-orm';
import { check, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { updatedAt } from './common.js';
import { users } from './people.js';
import { hospitals } from './structure.js';

export const dhis2Settings = pgTable(
  'dhis2_settings',
  {
    hospitalId: uuid('hospital_id')
      .primaryKey()
      .references(() => hospitals.id),
    idScheme: text('id_scheme').notNull().default('UID'),
    orgUnit: text('org_unit').notNull(),
    monthlyDataSet: text('monthly_data_set'),
    weeklyDataSet: text('weekly_data_set'),
    updatedAt: updatedAt(),
    updatedBy: uuid('updated_by').references(() => users.id),
  },
  (t) => [check('dhis2_settings_scheme_ck', sql`${t.idScheme} in ('UID', 'CODE')`)],
);

/** One row per mapped indicator; the primary key (hospital, indicator) serves the export's read. */
export const dhis2Mappings = pgTable(
  'dhis2_mappings',
  {
    hospitalId: uuid('hospital_id')
      .notNull()
      .references(() => hospitals.id),
    indicator: text('indicator').notNull(),
    dataElement: text('data_element').notNull(),
    categoryOptionCombo: text('category_option_combo').notNull(),
    attributeOptionCombo: text('attribute_option_combo'),
  },
  (t) => [primaryKey({ columns: [t.hospitalId, t.indicator] })],
);
