/**
 * Templates, printed documents with verification, and patient documents (issue 19, docs/decisions/0023-documents.md).
 *
 * Routes (all under the `Hospital-ID` header except the public verification; "ALL" = every role group of the
 * hospital: head_doctor, doctor, midwife, secretary, queue_manager, nurse, admin):
 *
 * Document models (`/templates`, `/templates/{id}`, `/admin/templates`)
 * - GET    /api/document-templates/                 ALL                   list (ZTemplateQuery → ZTemplateList)
 * - GET    /api/document-templates/variables/       ALL                   the variables a kind's body may use
 *                                                                         (ZTemplateVariablesQuery → ZTemplateVariables)
 * - GET    /api/document-templates/:id/             ALL                   one model (ZDocumentTemplate)
 * - POST   /api/document-templates/                 TEMPLATE_MANAGERS     a hospital model (ZTemplateCreate → 201
 *                                                                         ZDocumentTemplate); `based_on` copies a model
 * - PATCH  /api/document-templates/:id/             TEMPLATE_MANAGERS     change a hospital model (ZTemplateUpdate;
 *                                                                         409 `documents.stale_version` with `version`;
 *                                                                         a shipped model → 409 `documents.template_shipped`)
 * - POST   /api/document-templates/:id/activate/    TEMPLATE_MANAGERS     the hospital's model for its kind + language
 *                                                                         (a shipped one: back to Greensen's default)
 * - POST   /api/document-templates/:id/archive/     TEMPLATE_MANAGERS     archive a hospital model (no longer offered)
 * - POST   /api/document-templates/preview/         TEMPLATE_MANAGERS     render a body with demo data
 *                                                                         (ZTemplatePreview → ZTemplatePreviewResult)
 * - POST   /api/document-templates/preview/pdf/     TEMPLATE_MANAGERS     the same as a PDF (application/pdf)
 *
 * An invalid body (save or preview) is a 400 whose fields are lists of strings (DESIGN §4):
 * `{ body: ["Ligne 3, colonne 5 : variable inconnue."], template_line: ["3"], template_column: ["5"],
 *    template_reason: ["unknown_variable"] }` — `template_reason` is one of TEMPLATE_ERROR_REASONS.
 *
 * Issued documents (`/documents`, printing from a consultation, prescription, exam or stay)
 * - POST   /api/documents/draft/                    per kind (ISSUERS)    render a draft from a source, nothing stored
 *                                                                         (ZDocumentDraftCreate → ZDocumentDraft);
 *                                                                         a source that is not the hospital's → 404
 * - POST   /api/documents/                          per kind (ISSUERS)    issue: signed, numbered, stored, immutable
 *                                                                         (ZDocumentIssue → 201 ZDocument)
 * - GET    /api/documents/                          ALL                   list (ZDocumentQuery → ZDocumentList)
 *                                                                         (secretaries see the administrative kinds only)
 * - GET    /api/documents/:id/                      ALL (object rule)     one document (ZDocument; clinical kinds:
 *                                                                         not secretaries → 403)
 * - GET    /api/documents/:id/pdf/                  ALL (object rule)     the stored file, same bytes every time
 *                                                                         (ZFileQuery; application/pdf)
 * - POST   /api/documents/:id/cancel/               ISSUERS_ANY + admin   cancel with a reason: its author, a head
 *                                                                         doctor or an administrator (ZDocumentCancel)
 * - GET    /api/verify/:token/                      public, rate-limited  ZDocumentVerification (404 unknown token);
 *                                                                         the web page is `/verify/<token>`
 *
 * Patient documents (uploads: `/documents`, the patient record's tab)
 * - GET    /api/patient-documents/                  ALL                   list (ZPatientDocumentQuery → ZPatientDocumentList)
 * - POST   /api/patient-documents/                  ALL                   multipart/form-data: fields `patient`,
 *                                                                         `category`, `document_date`, `description`
 *                                                                         (ZPatientDocumentFields) and one `file`
 *                                                                         → 201 ZPatientDocument; 413 too large
 *                                                                         (`documents.file_too_large`), 400
 *                                                                         `{file: [...]}` for a refused type
 * - GET    /api/patient-documents/:id/              ALL                   metadata (ZPatientDocument)
 * - GET    /api/patient-documents/:id/file/         ALL                   the bytes (ZFileQuery); never HTML/SVG,
 *                                                                         `inline` only for PDF and images
 * - POST   /api/patient-documents/:id/delete/       ALL (object rule)     soft delete with a reason: the uploader, a
 *                                                                         head doctor or an administrator (ZDocumentCancel)
 *
 * Files are answered with `Content-Disposition` (attachment by default), `X-Content-Type-Options: nosniff`,
 * `Cache-Control: private, no-store`. Another hospital's id is a 404 everywhere.
 */
import { z } from 'zod';
import {
  DOCUMENT_KINDS,
  DOCUMENT_LANGUAGES,
  DOCUMENT_SOURCE_TYPES,
  DOCUMENT_STATUSES,
  EDITABLE_KINDS,
  KIND_ISSUERS,
  KIND_SOURCES,
  PAPER_SIZES,
  PATIENT_DOCUMENT_CATEGORIES,
  TEMPLATE_BODY_MAX,
} from '../domain/documents.js';
import { ZPatientRef, ZPersonRef } from './admissions.js';
import { ZPageQuery, zDateTime, zPage, zQueryBoolean, zSearch } from './common.js';

export * from '../domain/documents.js';

/**
 * The body: Liquid (`{{ patient.full_name }}`, `{% for line in prescription.lines %}…{% endfor %}`,
 * `{% if %}`) producing a small Markdown: `#`/`##`/`###` headings, paragraphs, `**bold**`, `*italic*`,
 * `- ` lists, `1. ` lists, `| a | b |` tables (first row = header), `---` rule. Values are escaped; no HTML.
 */
const templateBody = z.string().max(TEMPLATE_BODY_MAX);
const templateName = z.string().trim().min(1).max(120);

export const ZDocumentTemplate = z.object({
  id: z.uuid(),
  kind: z.enum(DOCUMENT_KINDS),
  language: z.enum(DOCUMENT_LANGUAGES),
  paper: z.enum(PAPER_SIZES),
  name: z.string(),
  description: z.string().nullable(),
  body: z.string(),
  /** Greensen's own model (the same for every hospital, read-only: copy it to adapt it). */
  shipped: z.boolean(),
  /** The model issued for its kind + language in this hospital (its own active one, else Greensen's). */
  active: z.boolean(),
  archived: z.boolean(),
  /** The model it was copied from. */
  based_on: z.uuid().nullable(),
  /** Whether documents of its kind may be edited before signing (EDITABLE_KINDS). */
  editable_on_issue: z.boolean(),
  version: z.number().int(),
  created_at: zDateTime,
  updated_at: zDateTime,
  updated_by: ZPersonRef.nullable(),
  can: z.object({ edit: z.boolean(), activate: z.boolean(), archive: z.boolean() }),
});
export type TDocumentTemplate = z.infer<typeof ZDocumentTemplate>;
export const ZTemplateListItem = ZDocumentTemplate.omit({ body: true });
export const ZTemplateList = zPage(ZTemplateListItem);
export const ZTemplateQuery = ZPageQuery.extend({
  kind: z.enum(DOCUMENT_KINDS).optional(),
  language: z.enum(DOCUMENT_LANGUAGES).optional(),
  /** `shipped`: Greensen's; `hospital`: the hospital's own. */
  origin: z.enum(['all', 'shipped', 'hospital']).default('all'),
  /** Only the models issued today (one per kind + language). */
  active: zQueryBoolean.optional(),
  /** Archived models are left out unless asked for. */
  archived: zQueryBoolean.optional(),
  ...zSearch(),
});

export const ZTemplateCreate = z
  .object({
    kind: z.enum(DOCUMENT_KINDS),
    language: z.enum(DOCUMENT_LANGUAGES),
    paper: z.enum(PAPER_SIZES),
    name: templateName,
    description: z.string().trim().max(500).nullish(),
    body: templateBody,
    /** The model copied (shipped or the hospital's); its kind must be the same. */
    based_on: z.uuid().nullish(),
  })
  .strict();
export type TTemplateCreate = z.input<typeof ZTemplateCreate>;
export const ZTemplateUpdate = z
  .object({
    version: z.number().int(),
    name: templateName.optional(),
    description: z.string().trim().max(500).nullish(),
    paper: z.enum(PAPER_SIZES).optional(),
    body: templateBody.optional(),
  })
  .strict();
export type TTemplateUpdate = z.input<typeof ZTemplateUpdate>;

export const ZTemplatePreview = z
  .object({
    kind: z.enum(DOCUMENT_KINDS),
    language: z.enum(DOCUMENT_LANGUAGES),
    paper: z.enum(PAPER_SIZES),
    body: templateBody,
  })
  .strict();
export type TTemplatePreview = z.input<typeof ZTemplatePreview>;
export const ZTemplatePreviewResult = z.object({
  /** The Markdown the body produced (what an issuer may edit). */
  text: z.string(),
  /** That Markdown as HTML: escaped, only h1–h3, p, strong, em, ul, ol, li, table, thead, tbody, tr, th, td, hr. */
  html: z.string(),
});

export const ZTemplateVariablesQuery = z.object({ kind: z.enum(DOCUMENT_KINDS) });
export const ZTemplateVariable = z.object({
  /** `patient.full_name`, `prescription.lines` (a list), `prescription.lines[].inn`… */
  path: z.string(),
  type: z.enum(['text', 'number', 'date', 'boolean', 'list', 'object']),
  label_fr: z.string(),
  label_en: z.string(),
  /** The demo value (what the preview shows), as text. */
  example: z.string().nullable(),
});
export const ZTemplateVariables = z.object({
  kind: z.enum(DOCUMENT_KINDS),
  variables: z.array(ZTemplateVariable),
  /** The filters a body may use (`date`, `upcase`, `default`…). */
  filters: z.array(z.string()),
});

// Issued documents ---------------------------------------------------------------------------------------

export const ZDocumentSource = z.object({ type: z.enum(DOCUMENT_SOURCE_TYPES), id: z.uuid() });
export type TDocumentSource = z.infer<typeof ZDocumentSource>;

export const ZDocumentDraftCreate = z
  .object({
    kind: z.enum(DOCUMENT_KINDS),
    /** With `type: 'patient'` the id is the patient's. */
    source: ZDocumentSource,
    /** The model; default the hospital's active one of the kind in `language`. */
    template: z.uuid().nullish(),
    language: z.enum(DOCUMENT_LANGUAGES).default('fr'),
  })
  .strict();
export type TDocumentDraftCreate = z.input<typeof ZDocumentDraftCreate>;

export const ZTemplateRef = z.object({ id: z.uuid(), name: z.string(), shipped: z.boolean() });

export const ZDocumentDraft = z.object({
  kind: z.enum(DOCUMENT_KINDS),
  language: z.enum(DOCUMENT_LANGUAGES),
  paper: z.enum(PAPER_SIZES),
  template: ZTemplateRef,
  patient: ZPatientRef,
  source: ZDocumentSource,
  /** The generated Markdown (edit it and send it back in `text` when `editable`). */
  text: z.string(),
  html: z.string(),
  editable: z.boolean(),
});
export type TDocumentDraft = z.infer<typeof ZDocumentDraft>;

export const DOCUMENT_TEXT_MAX = 50_000;

export const ZDocumentIssue = z
  .object({
    kind: z.enum(DOCUMENT_KINDS),
    source: ZDocumentSource,
    template: z.uuid().nullish(),
    language: z.enum(DOCUMENT_LANGUAGES).default('fr'),
    /** The edited text (Markdown) for an editable kind; refused (400) for the others. Default: regenerated. */
    text: z.string().max(DOCUMENT_TEXT_MAX).nullish(),
  })
  .strict();
export type TDocumentIssue = z.input<typeof ZDocumentIssue>;

export const ZDocumentCancel = z.object({ reason: z.string().trim().min(3).max(500) }).strict();

export const ZDocument = z.object({
  id: z.uuid(),
  /** `CM-HGG-2026-000042`: per hospital and year, without gaps. */
  number: z.string(),
  kind: z.enum(DOCUMENT_KINDS),
  language: z.enum(DOCUMENT_LANGUAGES),
  paper: z.enum(PAPER_SIZES),
  status: z.enum(DOCUMENT_STATUSES),
  patient: ZPatientRef,
  author: ZPersonRef,
  template: ZTemplateRef,
  source: ZDocumentSource,
  /** The signed text (Markdown) and its HTML; null in lists. */
  text: z.string(),
  html: z.string(),
  issued_at: zDateTime,
  /** SHA-256 of the PDF, hex. */
  sha256: z.string(),
  size_bytes: z.number().int(),
  /** The short code printed under the QR code (`K7P2-9QXD`), and the public page's path (`/verify/<token>`). */
  verification_code: z.string(),
  verification_path: z.string(),
  cancelled_at: zDateTime.nullable(),
  cancelled_by: ZPersonRef.nullable(),
  cancel_reason: z.string().nullable(),
  can: z.object({ cancel: z.boolean() }),
});
export type TDocument = z.infer<typeof ZDocument>;
export const ZDocumentListItem = ZDocument.omit({ text: true, html: true });
export const ZDocumentList = zPage(ZDocumentListItem);
export const ZDocumentQuery = ZPageQuery.extend({
  patient: z.uuid().optional(),
  kind: z.enum(DOCUMENT_KINDS).optional(),
  author: z.uuid().optional(),
  status: z.enum(['all', ...DOCUMENT_STATUSES]).default('all'),
  source_type: z.enum(DOCUMENT_SOURCE_TYPES).optional(),
  source: z.uuid().optional(),
  /** Issued on or after / on or before (days in the hospital's time zone). */
  date_from: z.iso.date().optional(),
  date_to: z.iso.date().optional(),
  /** Number or patient name. */
  ...zSearch(),
});

/** `?disposition=inline` to view in the browser (PDF and images only), else a download. */
export const ZFileQuery = z.object({ disposition: z.enum(['attachment', 'inline']).default('attachment') });

/** The public verification page: authenticity only, never medical content (no patient, no text). */
export const ZDocumentVerification = z.object({
  kind: z.enum(DOCUMENT_KINDS),
  number: z.string(),
  issued_at: zDateTime,
  /** The issue date as printed (hospital's time zone), `YYYY-MM-DD`. */
  issued_on: z.iso.date(),
  hospital: z.object({ name: z.string(), code: z.string() }),
  /** The doctor with their title (`Dr. Awa Diallo`). */
  issuer: z.string(),
  /** Enough to match the paper to its bearer, nothing more (issue 37): `J. K.`, 1971 (null: unknown). */
  patient: z.object({ initials: z.string(), birth_year: z.number().int().nullable() }),
  status: z.enum(DOCUMENT_STATUSES),
  cancelled_at: zDateTime.nullable(),
  verification_code: z.string(),
});
export type TDocumentVerification = z.infer<typeof ZDocumentVerification>;
export const ZVerifyParams = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{22,64}$/) });

// Patient documents (uploads) -----------------------------------------------------------------------------

/** The types accepted, recognised by their content (magic bytes), never by name or declared type. */
export const PATIENT_DOCUMENT_TYPES = [
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/heic',
  'application/pdf',
  // Dictation recordings (issue 23), added by the dictation service only (the upload route takes documents).
  'audio/webm',
  'audio/ogg',
  'audio/wav',
  'audio/mp4',
] as const;
export const PATIENT_DOCUMENT_DEFAULT_MAX_BYTES = 10 * 1024 * 1024;

/** The text fields of the multipart upload (the `file` part is the document). */
export const ZPatientDocumentFields = z
  .object({
    patient: z.uuid(),
    category: z.enum(PATIENT_DOCUMENT_CATEGORIES),
    /** The document's own date (of the results, of the letter…), not the upload's. */
    document_date: z.iso.date().nullish(),
    description: z.string().trim().max(1000).nullish(),
  })
  .strict();
export type TPatientDocumentFields = z.input<typeof ZPatientDocumentFields>;

export const ZPatientDocument = z.object({
  id: z.uuid(),
  patient: ZPatientRef,
  category: z.enum(PATIENT_DOCUMENT_CATEGORIES),
  document_date: z.iso.date().nullable(),
  description: z.string().nullable(),
  /** The name given by the uploader's device (shown, never used as a path). */
  file_name: z.string(),
  content_type: z.enum(PATIENT_DOCUMENT_TYPES),
  size_bytes: z.number().int(),
  sha256: z.string(),
  /** Images (not HEIC) and PDFs can be viewed in the app (`file/?disposition=inline`). */
  viewable: z.boolean(),
  uploaded_by: ZPersonRef,
  uploaded_at: zDateTime,
  can: z.object({ delete: z.boolean() }),
});
export type TPatientDocument = z.infer<typeof ZPatientDocument>;
export const ZPatientDocumentList = zPage(ZPatientDocument);
export const ZPatientDocumentQuery = ZPageQuery.extend({
  patient: z.uuid().optional(),
  category: z.enum(PATIENT_DOCUMENT_CATEGORIES).optional(),
  uploaded_by: z.uuid().optional(),
  date_from: z.iso.date().optional(),
  date_to: z.iso.date().optional(),
});

// Error codes (the `detail` texts are translated by the server; the web may key on these `code`s) ----------

export const DOCUMENT_ERROR_CODES = [
  /** 409: a shipped model is read-only (copy it). */
  'documents.template_shipped',
  /** 409: the model was changed meanwhile (`version` in the answer). */
  'documents.stale_version',
  /** 400 `template`: the model is not of the requested kind, or archived. */
  'documents.template_kind',
  /** 400 `source`: this kind is not printed from that source (KIND_SOURCES), or the source is not printable yet. */
  'documents.source_kind',
  /**
   * 400 `source`: the source cannot be printed (a draft or cancelled prescription, an exam not validated, a
   * cancelled consultation). A source that is not the hospital's is a plain 404; one the caller may not read, 403.
   */
  'documents.source_unknown',
  /** 403: the caller's role does not issue this kind (KIND_ISSUERS). */
  'documents.kind_forbidden',
  /** 400 `text`: this kind is printed as generated (not EDITABLE_KINDS). */
  'documents.not_editable',
  /** 409: already cancelled. */
  'documents.already_cancelled',
  /** 403: only the author, a head doctor or an administrator cancels. */
  'documents.not_author',
  /** 400 `file`: not a JPEG, PNG, WebP, HEIC or PDF by its content. */
  'documents.file_type',
  /** 413: above the hospital's size limit. */
  'documents.file_too_large',
  /** 400 `file`: no file part, or an empty one. */
  'documents.file_missing',
] as const;
