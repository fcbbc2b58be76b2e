/**
 * The hospital's structure (issue 15): departments, wards, rooms and beds. Everything a later module refers to
 * (a bed of an inpatient stay, a ward's tariff) is deactivated, never deleted.
 */
import { z } from 'zod';
import { BED_STATUSES, SETTABLE_BED_STATUSES } from '../domain/beds.js';
import { ZDepartmentRef } from './admissions.js';
import { ZPageQuery, zPage, zQueryBoolean } from './common.js';

export const DEPARTMENT_KINDS = [
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
] as const;
export type DepartmentKind = (typeof DEPARTMENT_KINDS)[number];

export { BED_STATUSES, type BedStatus, SETTABLE_BED_STATUSES } from '../domain/beds.js';

const label = (max: number) => z.string().trim().min(1).max(max);
/** Short codes: letters, digits, dashes (`URG`, `MED-A`). */
const code = z
  .string()
  .trim()
  .min(1)
  .max(20)
  .regex(/^[A-Za-z0-9][A-Za-z0-9-]*$/, 'structure.code_invalid')
  .transform((v) => v.toUpperCase());
const age = z.number().int().min(0).max(130);

export const ZDepartmentCreate = z.object({
  name: label(120),
  code,
  kind: z.enum(DEPARTMENT_KINDS),
  /** A member of the hospital. */
  head: z.uuid().nullish(),
});
export type TDepartmentCreate = z.input<typeof ZDepartmentCreate>;
export const ZDepartmentUpdate = z.object({
  name: label(120).optional(),
  code: code.optional(),
  kind: z.enum(DEPARTMENT_KINDS).optional(),
  head: z.uuid().nullable().optional(),
  is_active: z.boolean().optional(),
});
export type TDepartmentUpdate = z.input<typeof ZDepartmentUpdate>;

export const ZPersonName = z.object({ id: z.uuid(), full_name: z.string() });

export const ZDepartmentDetail = ZDepartmentRef.extend({
  is_active: z.boolean(),
  head: ZPersonName.nullable(),
});
export type TDepartmentDetail = z.infer<typeof ZDepartmentDetail>;

const wardFields = {
  name: label(120),
  code,
  /** Tariff category of a bed-day (billing), e.g. "standard", "VIP". */
  category: label(60).nullish(),
  sex_restriction: z.enum(['F', 'M']).nullish(),
  min_age: age.nullish(),
  max_age: age.nullish(),
};
const agesInOrder = (v: { min_age?: number | null; max_age?: number | null }, ctx: z.RefinementCtx) => {
  if (v.min_age != null && v.max_age != null && v.min_age > v.max_age)
    ctx.addIssue({ code: 'custom', path: ['max_age'], message: 'structure.ages_order' });
};
export const ZWardCreate = z.object({ department: z.uuid(), ...wardFields }).superRefine(agesInOrder);
export type TWardCreate = z.input<typeof ZWardCreate>;
export const ZWardUpdate = z
  .object({
    department: z.uuid().optional(),
    name: wardFields.name.optional(),
    code: code.optional(),
    category: wardFields.category,
    sex_restriction: wardFields.sex_restriction,
    min_age: wardFields.min_age,
    max_age: wardFields.max_age,
    is_active: z.boolean().optional(),
  })
  .superRefine(agesInOrder);
export type TWardUpdate = z.input<typeof ZWardUpdate>;

export const ZBedCounts = z.object({
  total: z.number().int(),
  free: z.number().int(),
  occupied: z.number().int(),
  cleaning: z.number().int(),
  out_of_service: z.number().int(),
});

export const ZWard = z.object({
  id: z.uuid(),
  department: ZDepartmentRef,
  name: z.string(),
  code: z.string(),
  category: z.string().nullable(),
  sex_restriction: z.enum(['F', 'M']).nullable(),
  min_age: z.number().int().nullable(),
  max_age: z.number().int().nullable(),
  is_active: z.boolean(),
  rooms: z.number().int(),
  /** Active beds of active rooms. */
  beds: ZBedCounts,
});
export type TWard = z.infer<typeof ZWard>;
export const ZWardList = zPage(ZWard);
export const ZWardListQuery = ZPageQuery.extend({
  department: z.uuid().optional(),
  /** Deactivated wards too. */
  include_inactive: zQueryBoolean.optional(),
});

export const ZBed = z.object({
  id: z.uuid(),
  label: z.string(),
  status: z.enum(BED_STATUSES),
  status_reason: z.string().nullable(),
  is_active: z.boolean(),
});
export type TBed = z.infer<typeof ZBed>;
export const ZRoom = z.object({
  id: z.uuid(),
  name: z.string(),
  is_active: z.boolean(),
  beds: z.array(ZBed),
});
export type TRoom = z.infer<typeof ZRoom>;
/** A ward with its rooms and beds (a ward holds tens of beds: given whole). */
export const ZWardDetail = ZWard.extend({ room_list: z.array(ZRoom) });
export type TWardDetail = z.infer<typeof ZWardDetail>;

/** Bed labels: 1 to 50, distinct (case-insensitively). */
const bedLabels = z
  .array(label(20))
  .min(1)
  .max(50)
  .refine(
    (labels) => new Set(labels.map((l) => l.toUpperCase())).size === labels.length,
    'structure.beds_distinct',
  );
/** A room with its beds at once ("room 12, beds A–D"). */
export const ZRoomCreate = z.object({ name: label(40), beds: bedLabels });
export type TRoomCreate = z.input<typeof ZRoomCreate>;
export const ZRoomUpdate = z.object({ name: label(40).optional(), is_active: z.boolean().optional() });
export const ZBedsCreate = z.object({ labels: bedLabels });
export const ZBedUpdate = z
  .object({
    label: label(20).optional(),
    status: z.enum(SETTABLE_BED_STATUSES).optional(),
    /** Required to put a bed out of service. */
    status_reason: label(200).nullish(),
    is_active: z.boolean().optional(),
  })
  .superRefine((v, ctx) => {
    if (v.status === 'out_of_service' && !v.status_reason)
      ctx.addIssue({ code: 'custom', path: ['status_reason'], message: 'structure.reason_required' });
  });
export type TBedUpdate = z.input<typeof ZBedUpdate>;

/**
 * Bed labels from a range as staff say it: "A-D" → A, B, C, D; "1-4" → 1, 2, 3, 4; "A, C, F" → A, C, F.
 * Null when the text is neither (or gives more than 50 beds).
 */
export function bedLabelsFrom(text: string): string[] | null {
  const t = text.trim();
  const range = /^([A-Za-z]|\d{1,3})\s*[-–]\s*([A-Za-z]|\d{1,3})$/.exec(t);
  if (range) {
    const [from = '', to = ''] = [range[1], range[2]];
    const numeric = /^\d+$/.test(from) && /^\d+$/.test(to);
    if (!numeric && (/^\d/.test(from) || /^\d/.test(to))) return null;
    const start = numeric ? Number(from) : from.toUpperCase().charCodeAt(0);
    const end = numeric ? Number(to) : to.toUpperCase().charCodeAt(0);
    if (end < start || end - start >= 50) return null;
    return Array.from({ length: end - start + 1 }, (_, i) =>
      numeric ? String(start + i) : String.fromCharCode(start + i),
    );
  }
  const list = t
    .split(/[,;\s]+/)
    .map((x) => x.trim())
    .filter(Boolean);
  if (list.length === 0 || list.length > 50 || list.some((x) => x.length > 20)) return null;
  return list;
}

// Hospitals ---------------------------------------------------------------------------------------------------

/** An IANA time zone the runtime knows (`Africa/Kinshasa`). */
export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return value.includes('/') || value === 'UTC';
  } catch {
    return false;
  }
}

/** The currencies of the hospitals we serve first, then any ISO 4217 code (three capital letters). */
export const COMMON_CURRENCIES = ['XOF', 'XAF', 'CDF', 'GNF', 'MAD', 'EUR', 'USD'] as const;

const phoneText = z
  .string()
  .trim()
  .regex(/^\+?[0-9 .-]{6,20}$/, 'structure.phone_invalid');
const hospitalFields = {
  name: label(150),
  time_zone: z.string().trim().refine(isTimeZone, 'structure.time_zone_invalid'),
  currency: z
    .string()
    .trim()
    .transform((v) => v.toUpperCase())
    .refine((v) => /^[A-Z]{3}$/.test(v), 'structure.currency_invalid'),
  triage_scale: z.enum(['FRENCH', 'SATS']),
  address: label(300).nullish(),
  phones: z.array(phoneText).max(5),
  languages: z
    .array(z.enum(['fr', 'en']))
    .min(1)
    .refine((l) => new Set(l).size === l.length, 'structure.languages_distinct'),
  print_header: z.string().trim().max(500).nullish(),
  print_footer: z.string().trim().max(500).nullish(),
};

/** A new hospital: its short code (in record and invoice numbers) is set once, here. */
export const ZHospitalCreate = z.object({
  ...hospitalFields,
  code,
  address: hospitalFields.address,
  phones: hospitalFields.phones.default([]),
  languages: hospitalFields.languages.default(['fr', 'en']),
});
export type THospitalCreate = z.input<typeof ZHospitalCreate>;
/** The settings of one hospital: a field it does not know is refused (400), not silently dropped. */
export const ZHospitalUpdate = z.strictObject({
  name: hospitalFields.name.optional(),
  time_zone: hospitalFields.time_zone.optional(),
  currency: hospitalFields.currency.optional(),
  triage_scale: hospitalFields.triage_scale.optional(),
  address: hospitalFields.address,
  phones: hospitalFields.phones.optional(),
  languages: hospitalFields.languages.optional(),
  print_header: hospitalFields.print_header,
  print_footer: hospitalFields.print_footer,
  is_active: z.boolean().optional(),
});
export type THospitalUpdate = z.input<typeof ZHospitalUpdate>;

export const ZHospital = z.object({
  id: z.uuid(),
  name: z.string(),
  code: z.string(),
  time_zone: z.string(),
  currency: z.string(),
  triage_scale: z.enum(['FRENCH', 'SATS']),
  address: z.string().nullable(),
  phones: z.array(z.string()),
  languages: z.array(z.string()),
  print_header: z.string().nullable(),
  print_footer: z.string().nullable(),
  is_active: z.boolean(),
  /** A logo was uploaded (read it with `GET /api/hospitals/{id}/logo/`). */
  has_logo: z.boolean(),
});
export type THospital = z.infer<typeof ZHospital>;

/** The largest logo accepted, in bytes (decoded). */
export const LOGO_MAX_BYTES = 512 * 1024;
export const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;
/** A logo upload: the image file in base64 (PNG, JPEG or WebP, recognised by its content, ≤ 512 KB). */
export const ZHospitalLogoUpload = z
  .object({
    data: z
      .string()
      .min(8)
      .max(Math.ceil((LOGO_MAX_BYTES * 4) / 3) + 8),
  })
  .strict();
export const ZHospitalLogo = z.object({
  content_type: z.enum(LOGO_TYPES),
  /** The image in base64 (shown as a `data:` URL; printed documents embed it). */
  data: z.string(),
  size: z.number().int(),
  updated_at: z.iso.datetime({ offset: true }),
});
export type THospitalLogo = z.infer<typeof ZHospitalLogo>;
