import { boolean, index, integer, pgEnum, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './common.js';

export const triageScale = pgEnum('triage_scale', ['FRENCH', 'SATS']);
export const departmentKind = pgEnum('department_kind', [
  'clinical',
  'emergency',
  'maternity',
  'surgery',
  'pediatrics',
  'laboratory',
  'imaging',
  'pharmacy',
  'administration',
]);
export const bedStatus = pgEnum('bed_status', ['free', 'occupied', 'cleaning', 'out_of_service']);

/** The owning hospital of a row: every hospital-scoped table has one, and every query filters on it. */
export const hospitalRef = () =>
  uuid('hospital_id')
    .notNull()
    .references(() => hospitals.id);

export const hospitals = pgTable('hospitals', {
  id: id(),
  name: text('name').notNull(),
  code: text('code').notNull().unique(),
  timeZone: text('time_zone').notNull().default('Africa/Kinshasa'),
  currency: text('currency').notNull().default('CDF'),
  triageScale: triageScale('triage_scale').notNull().default('FRENCH'),
  isActive: boolean('is_active').notNull().default(true),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const departments = pgTable(
  'departments',
  {
    id: id(),
    hospitalId: hospitalRef(),
    name: text('name').notNull(),
    code: text('code').notNull(),
    kind: departmentKind('kind').notNull(),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('departments_hospital_code_uq').on(t.hospitalId, t.code)],
);

export const wards = pgTable(
  'wards',
  {
    id: id(),
    hospitalId: hospitalRef(),
    departmentId: uuid('department_id')
      .notNull()
      .references(() => departments.id),
    name: text('name').notNull(),
    code: text('code').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('wards_hospital_code_uq').on(t.hospitalId, t.code),
    index('wards_department_idx').on(t.departmentId),
  ],
);

export const rooms = pgTable(
  'rooms',
  {
    id: id(),
    hospitalId: hospitalRef(),
    wardId: uuid('ward_id')
      .notNull()
      .references(() => wards.id),
    name: text('name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('rooms_ward_name_uq').on(t.wardId, t.name)],
);

export const beds = pgTable(
  'beds',
  {
    id: id(),
    hospitalId: hospitalRef(),
    roomId: uuid('room_id')
      .notNull()
      .references(() => rooms.id),
    label: text('label').notNull(),
    status: bedStatus('status').notNull().default('free'),
    sortOrder: integer('sort_order').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('beds_room_label_uq').on(t.roomId, t.label),
    index('beds_hospital_status_idx').on(t.hospitalId, t.status),
  ],
);

export const appSettings = pgTable('app_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: updatedAt(),
  updatedBy: uuid('updated_by'),
});
