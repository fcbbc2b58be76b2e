import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  numeric,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './common.js';
import { users } from './people.js';
import { prescriptionLines, prescriptions } from './pharmacy.js';
import { hospitalRef } from './structure.js';

/**
 * Medication safety (issue 34, docs/decisions/0055-medication-safety.md): the written reasons given to go past a
 * blocking alert, one per prescription, line, alert and step (prescribe, dispense, administer): a repeated or
 * concurrent submit of the same override records it once (the unique index decides).
 */
export const medicationSafetyOverrides = pgTable(
  'medication_safety_overrides',
  {
    id: id(),
    hospitalId: hospitalRef(),
    prescriptionId: uuid('prescription_id')
      .notNull()
      .references(() => prescriptions.id),
    /** Null: an alert of the whole prescription (allergies never recorded, patient left). */
    prescriptionLineId: uuid('prescription_line_id').references(() => prescriptionLines.id),
    code: text('code').notNull(),
    stage: text('stage').notNull(),
    reason: text('reason').notNull(),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('medication_safety_overrides_uq').on(
      t.prescriptionId,
      sql`coalesce(${t.prescriptionLineId}, '00000000-0000-0000-0000-000000000000'::uuid)`,
      t.code,
      t.stage,
    ),
    check('medication_safety_overrides_stage_ck', sql`${t.stage} in ('prescribe', 'dispense', 'administer')`),
    check('medication_safety_overrides_reason_ck', sql`length(btrim(${t.reason})) >= 5`),
  ],
);

/**
 * A hospital's own dose limits (its formulary or protocol): a row for a medicine code (and route) replaces the
 * shipped rows of `dose-limits.tsv` for that medicine in this hospital. Written by `cli.js import-dose-limits`.
 */
export const hospitalDoseLimits = pgTable(
  'hospital_dose_limits',
  {
    id: id(),
    hospitalId: hospitalRef(),
    medicationCode: text('medication_code').notNull(),
    /** '' for every route. */
    route: text('route').notNull().default(''),
    substance: text('substance').notNull(),
    component: smallint('component').notNull().default(0),
    unit: text('unit').notNull(),
    adultDose: numeric('adult_dose', { mode: 'number' }),
    adultDay: numeric('adult_day', { mode: 'number' }),
    kgDose: numeric('kg_dose', { mode: 'number' }),
    kgDay: numeric('kg_day', { mode: 'number' }),
    weightDosed: boolean('weight_dosed').notNull().default(false),
    pregnancy: text('pregnancy'),
    noLimit: text('no_limit'),
    source: text('source').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('hospital_dose_limits_uq').on(t.hospitalId, t.medicationCode, t.route, t.substance),
    index('hospital_dose_limits_hospital_idx').on(t.hospitalId),
  ],
);
