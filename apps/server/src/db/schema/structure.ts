import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  smallint,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from './common.js';
import { users } from './people.js';

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
  'billing',
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
  address: text('address'),
  phones: text('phones').array().notNull().default(sql`'{}'::text[]`),
  /** The interface languages offered to this hospital's staff (fr, en). */
  languages: text('languages').array().notNull().default(sql`'{fr,en}'::text[]`),
  /** Lines printed at the top and the bottom of the hospital's documents (prescriptions, invoices). */
  printHeader: text('print_header'),
  printFooter: text('print_footer'),
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
    /** The head of department (a member of the hospital), if named. */
    headUserId: uuid('head_user_id').references(() => users.id),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('departments_hospital_code_uq').on(t.hospitalId, t.code)],
);

/** Who a ward admits, when it restricts: women or men only. */
export const wardSex = pgEnum('ward_sex', ['F', 'M']);

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
    /** The tariff category of a bed-day in this ward (billing): free text such as "standard", "VIP". */
    category: text('category'),
    sexRestriction: wardSex('sex_restriction'),
    /** Ages admitted, in whole years (a paediatric ward: max 15), when restricted. */
    minAge: smallint('min_age'),
    maxAge: smallint('max_age'),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('wards_hospital_code_uq').on(t.hospitalId, t.code),
    index('wards_department_idx').on(t.departmentId),
    check('wards_ages_ck', sql`${t.minAge} is null or ${t.maxAge} is null or ${t.minAge} <= ${t.maxAge}`),
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
    isActive: boolean('is_active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
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
    /** Why the bed is out of service (required then). */
    statusReason: text('status_reason'),
    sortOrder: integer('sort_order').notNull().default(0),
    /** Deactivated beds stay (later modules refer to them), never deleted. */
    isActive: boolean('is_active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('beds_room_label_uq').on(t.roomId, t.label),
    index('beds_hospital_status_idx').on(t.hospitalId, t.status),
    // A patient's bed is never removed from under them, nor put out of service (issue 15).
    check('beds_occupied_active_ck', sql`${t.isActive} or ${t.status} <> 'occupied'`),
    check(
      'beds_out_of_service_reason_ck',
      sql`${t.status} <> 'out_of_service' or ${t.statusReason} is not null`,
    ),
  ],
);

/** A hospital's logo (issue 15): the image checked by its content, stored in base64 (≤ 512 KB decoded). */
export const hospitalLogos = pgTable('hospital_logos', {
  hospitalId: uuid('hospital_id')
    .primaryKey()
    .references(() => hospitals.id),
  contentType: text('content_type').notNull(),
  data: text('data').notNull(),
  size: integer('size').notNull(),
  updatedAt: updatedAt(),
  updatedBy: uuid('updated_by').references(() => users.id),
});

export const appSettings = pgTable('app_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: updatedAt(),
  updatedBy: uuid('updated_by'),
});

/**
 * Settings of one hospital its administrators switch in the app (decision 0021); a hospital without a row keeps
 * the defaults (`DEFAULT_HOSPITAL_SETTINGS` in shared). Read by its key, the hospital.
 */
export const hospitalSettings = pgTable(
  'hospital_settings',
  {
    hospitalId: uuid('hospital_id')
      .primaryKey()
      .references(() => hospitals.id),
    consultationMinutes: smallint('consultation_minutes').notNull(),
    /** `{mon: {open: "08:00", close: "17:00"} | null, …, sun}`: checked by the API's schema. */
    workingHours: jsonb('working_hours')
      .$type<Record<string, { open: string; close: string } | null>>()
      .notNull(),
    notificationSound: boolean('notification_sound').notNull(),
    /** The largest patient document upload, MB (issue 19). */
    uploadMaxMb: smallint('upload_max_mb').notNull().default(10),
    /** The nursing shift changes, `["07:00", "19:00"]` (issue 20): checked by the API's schema. */
    shiftTimes: jsonb('shift_times').$type<string[]>().notNull().default(['07:00', '19:00']),
    /** When tomorrow's appointment reminders leave, `HH:MM` hospital time (issue 22). */
    appointmentReminderTime: text('appointment_reminder_time').notNull().default('18:00'),
    /** Lots expiring within this many days are flagged on the pharmacy's alerts (issue 18). */
    pharmacyExpiringDays: smallint('pharmacy_expiring_days').notNull().default(90),
    /** Dictation with the browser's speech recognition (audio to the browser's vendor) allowed (issue 23). */
    dictationBrowserEnabled: boolean('dictation_browser_enabled').notNull().default(true),
    updatedAt: updatedAt(),
    updatedBy: uuid('updated_by').references(() => users.id),
  },
  (t) => [
    check('hospital_settings_minutes_ck', sql`${t.consultationMinutes} between 5 and 120`),
    check('hospital_settings_upload_ck', sql`${t.uploadMaxMb} between 1 and 50`),
    check('hospital_settings_expiring_ck', sql`${t.pharmacyExpiringDays} between 7 and 365`),
    check(
      'hospital_settings_reminder_time_ck',
      sql`${t.appointmentReminderTime} ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'`,
    ),
  ],
);
