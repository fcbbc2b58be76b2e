/**
 * Patient contracts (issue 6): registration, duplicates, search, archive.
 */
import { z } from 'zod';
import { ZPageQuery, zDateTime, zPage, zQueryBoolean, zSearch } from './common.js';

export const SEXES = ['F', 'M'] as const;
export const BLOOD_GROUPS = ['A+', 'A-', 'B+', 'B-', 'AB+', 'AB-', 'O+', 'O-'] as const;

const name = z.string().trim().min(1).max(100);
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((v) => (v ? v : null));
/** Digits with an optional leading +, spaces, dots and dashes allowed (stored without them). */
const phone = z
  .string()
  .trim()
  .regex(/^\+?[0-9][0-9 .-]{4,22}$/, 'patients.phone_invalid')
  .nullish()
  .transform((v) => (v ? normalizePhone(v) : null));

/** For appointment reminders (issue 22). */
const email = z
  .email('patients.email_invalid')
  .max(200)
  .nullish()
  .transform((v) => v ?? null);
/** The language of what is sent to the patient (appointment reminders); null is French. */
export const PATIENT_LANGUAGES = ['fr', 'en'] as const;
const preferredLanguage = z.enum(PATIENT_LANGUAGES).nullish();

export function normalizePhone(value: string): string {
  const digits = value.replace(/[^0-9]/g, '');
  return value.trim().startsWith('+') ? `+${digits}` : digits;
}

const birthDate = z.iso
  .date()
  .refine(
    (d) => d >= '1900-01-01' && d <= new Date().toISOString().slice(0, 10),
    'patients.birth_date_range',
  );

const patientFields = {
  first_name: name,
  last_name: name,
  sex: z.enum(SEXES),
  /** The date of birth, or null when unknown (then `estimated_age` is required). */
  birth_date: birthDate.nullish(),
  /** Age in years when the date is unknown; the server stores an estimated date. */
  estimated_age: z.number().int().min(0).max(130).nullish(),
  phone,
  email,
  preferred_language: preferredLanguage,
  address: optionalText(300),
  national_id: optionalText(50),
  emergency_contact_name: optionalText(150),
  emergency_contact_phone: phone,
  blood_group: z.enum(BLOOD_GROUPS).nullish(),
  allergies: z.array(z.string().trim().min(1).max(200)).max(50).default([]),
  /** Someone asked about allergies: with an empty list, "no known allergy"; left false, "not asked". */
  allergies_recorded: z.boolean().optional(),
  insurance_provider: optionalText(150),
  insurance_number: optionalText(100),
};

export const ZPatientCreate = z
  .object({
    ...patientFields,
    /** Set to true to save although probable duplicates exist. */
    confirm_duplicate: z.boolean().default(false),
  })
  .superRefine((v, ctx) => {
    if (!v.birth_date && (v.estimated_age === null || v.estimated_age === undefined))
      ctx.addIssue({ code: 'custom', path: ['birth_date'], message: 'patients.birth_date_required' });
  });
export type TPatientCreate = z.input<typeof ZPatientCreate>;

/** Every field optional; `birth_date`/`estimated_age` replace the birth date when given. */
export const ZPatientUpdate = z.object({
  first_name: name.optional(),
  last_name: name.optional(),
  sex: z.enum(SEXES).optional(),
  birth_date: birthDate.optional(),
  estimated_age: z.number().int().min(0).max(130).optional(),
  phone: phone.optional(),
  email: email.optional(),
  preferred_language: preferredLanguage,
  address: optionalText(300).optional(),
  national_id: optionalText(50).optional(),
  emergency_contact_name: optionalText(150).optional(),
  emergency_contact_phone: phone.optional(),
  blood_group: z.enum(BLOOD_GROUPS).nullable().optional(),
  allergies: z.array(z.string().trim().min(1).max(200)).max(50).optional(),
  allergies_recorded: z.boolean().optional(),
  insurance_provider: optionalText(150).optional(),
  insurance_number: optionalText(100).optional(),
});
export type TPatientUpdate = z.input<typeof ZPatientUpdate>;

export const ZDuplicateCheck = z.object({
  first_name: name,
  last_name: name,
  birth_date: birthDate.nullish(),
  estimated_age: z.number().int().min(0).max(130).nullish(),
  phone,
  national_id: optionalText(50),
});
export type TDuplicateCheck = z.input<typeof ZDuplicateCheck>;

export const ZPatientSummary = z.object({
  id: z.uuid(),
  record_number: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  full_name: z.string(),
  sex: z.enum(SEXES),
  birth_date: z.string().nullable(),
  birth_date_estimated: z.boolean(),
  /** Whole years today. */
  age: z.number().int().nullable(),
  phone: z.string().nullable(),
  national_id: z.string().nullable(),
  allergies: z.array(z.string()),
  /** Whether someone asked: no allergies and false is "not asked", never "no known allergy" (issue 25). */
  allergies_recorded: z.boolean(),
  /** The patient died during a stay (issue 17). */
  deceased_at: zDateTime.nullish(),
  is_archived: z.boolean(),
});
export type TPatientSummary = z.infer<typeof ZPatientSummary>;

export const ZPatient = ZPatientSummary.extend({
  email: z.string().nullable(),
  preferred_language: z.enum(PATIENT_LANGUAGES).nullable(),
  address: z.string().nullable(),
  emergency_contact_name: z.string().nullable(),
  emergency_contact_phone: z.string().nullable(),
  blood_group: z.enum(BLOOD_GROUPS).nullable(),
  insurance_provider: z.string().nullable(),
  insurance_number: z.string().nullable(),
  archived_at: zDateTime.nullable(),
  archived_reason: z.string().nullable(),
  created_at: zDateTime,
  updated_at: zDateTime,
});
export type TPatient = z.infer<typeof ZPatient>;

/** A probable duplicate, with what matched. */
export const ZDuplicateCandidate = ZPatientSummary.extend({
  score: z.number(),
  reasons: z.array(z.enum(['name', 'birth_date', 'phone', 'national_id'])),
});
export type TDuplicateCandidate = z.infer<typeof ZDuplicateCandidate>;
export const ZDuplicateResult = z.object({ duplicates: z.array(ZDuplicateCandidate) });
/** 409 answer of a registration with probable duplicates and no `confirm_duplicate`. */
export const ZDuplicateConflict = z.object({ detail: z.string(), duplicates: z.array(ZDuplicateCandidate) });

export const ZPatientListQuery = ZPageQuery.extend({
  /** Name (accent, case and small-typo insensitive), record number, phone or national id. */
  ...zSearch(),
  /** false (default): active records; true: archived only. */
  archived: zQueryBoolean.optional(),
});
export type TPatientListQuery = z.input<typeof ZPatientListQuery>;
export const ZPatientList = zPage(ZPatientSummary);
export type TPatientList = z.infer<typeof ZPatientList>;

export const ZArchiveBody = z.object({ reason: z.string().trim().min(3).max(500) });

/** A visit on the patient's timeline. */
export const ZPatientAdmissionItem = z.object({
  id: z.uuid(),
  status: z.string(),
  admission_type: z.string(),
  reason: z.string(),
  admitted_at: zDateTime,
  closed_at: zDateTime.nullable(),
  /** When the patient left the stay the visit led to (issue 37); null otherwise. */
  discharged_at: zDateTime.nullable(),
  queue_number: z.number().int(),
  department: z.object({ id: z.uuid(), name: z.string() }),
  triage_level: z.string().nullable(),
});
/**
 * The detail page: the record, its latest visits (a bounded page, newest first: the rest through
 * `GET /api/admissions/?patient=`) and how many visits it has in all.
 */
export const ZPatientDetail = ZPatient.extend({
  admissions: z.array(ZPatientAdmissionItem),
  admissions_count: z.number().int(),
});
export type TPatientDetail = z.infer<typeof ZPatientDetail>;
