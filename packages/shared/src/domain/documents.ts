/**
 * Documents' plain values (issue 19): the kinds, languages, papers and sources, who issues which kind, the
 * statuses and the template limits. Apart from the schemas (contracts/documents.ts re-exports them all) so that the
 * documents list and the rights it shows do not load and build every schema (issue 38).
 */
import type { DashboardGroup } from './roles.js';

// Kinds, languages, papers ------------------------------------------------------------------------------

export const DOCUMENT_KINDS = [
  'consultation_report',
  'medical_certificate',
  'sick_leave_certificate',
  'referral_letter',
  'prescription',
  'discharge_summary',
  'exam_results_report',
  'invoice',
  'receipt',
  'free_letter',
] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

export const DOCUMENT_LANGUAGES = ['fr', 'en'] as const;
export type DocumentLanguage = (typeof DOCUMENT_LANGUAGES)[number];

export const PAPER_SIZES = ['A4', 'A5'] as const;
export type PaperSize = (typeof PAPER_SIZES)[number];

/** What a document is printed from. `patient`: from the patient alone (a certificate, a letter). */
export const DOCUMENT_SOURCE_TYPES = [
  'consultation',
  'prescription',
  'exam',
  'hospitalization',
  'patient',
] as const;
export type DocumentSourceType = (typeof DOCUMENT_SOURCE_TYPES)[number];

/**
 * The sources each kind is printed from. Invoices and receipts have none: billing prints its own (decision 0030),
 * so their models can be adapted and previewed, not issued from here.
 */
export const KIND_SOURCES: Readonly<Record<DocumentKind, readonly DocumentSourceType[]>> = {
  consultation_report: ['consultation'],
  medical_certificate: ['consultation', 'hospitalization', 'patient'],
  sick_leave_certificate: ['consultation', 'hospitalization', 'patient'],
  referral_letter: ['consultation', 'hospitalization', 'patient'],
  prescription: ['prescription'],
  discharge_summary: ['hospitalization'],
  exam_results_report: ['exam'],
  invoice: [],
  receipt: [],
  free_letter: ['patient', 'consultation', 'hospitalization'],
};

/**
 * Kinds whose generated text the issuer may edit before signing. A prescription, a results report and money
 * documents print exactly their source's data (no edit); certificates, letters and reports are the doctor's words.
 */
export const EDITABLE_KINDS: readonly DocumentKind[] = [
  'consultation_report',
  'medical_certificate',
  'sick_leave_certificate',
  'referral_letter',
  'discharge_summary',
  'free_letter',
];

/** Kinds that are not medical content (secretaries may read and print them). */
export const ADMINISTRATIVE_KINDS: readonly DocumentKind[] = ['invoice', 'receipt'];

/** Who may issue each kind (decision 0023). */
export const KIND_ISSUERS: Readonly<Record<DocumentKind, readonly DashboardGroup[]>> = {
  consultation_report: ['doctor', 'head_doctor', 'midwife'],
  medical_certificate: ['doctor', 'head_doctor', 'midwife'],
  sick_leave_certificate: ['doctor', 'head_doctor', 'midwife'],
  referral_letter: ['doctor', 'head_doctor', 'midwife'],
  prescription: ['doctor', 'head_doctor', 'midwife'],
  discharge_summary: ['doctor', 'head_doctor', 'midwife'],
  exam_results_report: ['doctor', 'head_doctor'],
  invoice: ['secretary', 'admin'],
  receipt: ['secretary', 'admin'],
  free_letter: ['doctor', 'head_doctor', 'midwife'],
};

/** The groups that pass the issuing routes (each kind then narrows it with KIND_ISSUERS). */
export const ISSUERS_ANY: readonly DashboardGroup[] = [
  'doctor',
  'head_doctor',
  'midwife',
  'secretary',
  'admin',
];
/** Administrators and head doctors copy, adapt and activate the hospital's models. */
export const TEMPLATE_MANAGERS: readonly DashboardGroup[] = ['admin', 'head_doctor'];

export const DOCUMENT_STATUSES = ['valid', 'cancelled'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

// Templates ------------------------------------------------------------------------------------------------

/** Why a template body is refused (the 400's `template_reason`). */
export const TEMPLATE_ERROR_REASONS = [
  /** Malformed tag or output (`{% if %}` without `{% endif %}`, `{{ a | }}`…). */
  'syntax',
  /** A tag the language does not have. */
  'unknown_tag',
  /** A tag that reaches outside the variables (`include`, `render`, `layout`): never allowed. */
  'forbidden_tag',
  /** A filter the language does not have. */
  'unknown_filter',
  /** A variable (or a field of one) that is not in the kind's variables. */
  'unknown_variable',
  /** The body is too long, renders too much or loops too long. */
  'limit_exceeded',
] as const;
export type TemplateErrorReason = (typeof TEMPLATE_ERROR_REASONS)[number];

export const TEMPLATE_BODY_MAX = 20_000;

/** What a document uploaded to a patient's record is (patient documents, uploads). */
export const PATIENT_DOCUMENT_CATEGORIES = [
  'id_document',
  'referral_letter',
  'previous_results',
  'imaging_report',
  'consent_form',
  'insurance',
  /** A dictation no engine could type (issue 23): audio kept to be typed later. */
  'dictation',
  'other',
] as const;
export type PatientDocumentCategory = (typeof PATIENT_DOCUMENT_CATEGORIES)[number];
