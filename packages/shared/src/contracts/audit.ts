/**
 * The audit trail API (issue 8): `GET /api/admin/audit/` — an administrator reads their hospital's audit rows,
 * newest first, filtered by user, patient, action, outcome, resource and time.
 */
import { z } from 'zod';
import { ZPageQuery, zDateTime, zPage } from './common.js';

export const AUDIT_OUTCOMES = ['success', 'failure', 'denied'] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/** Past this many matching rows the count stops (`count_capped`); pages go on through `next`. */
export const AUDIT_COUNT_CAP = 10_000;

export const ZAuditQuery = ZPageQuery.extend({
  /** The user who acted. */
  user: z.uuid().optional(),
  /** The patient the row is about. */
  patient: z.uuid().optional(),
  /** An action (`patient.read`), or every action of a prefix (`patient.*`). */
  action: z
    .string()
    .trim()
    .regex(/^[a-z][a-z0-9_]*(\.[a-z0-9_]+)*(\.\*)?$/, 'audit.action_invalid')
    .max(64)
    .optional(),
  outcome: z.enum(AUDIT_OUTCOMES).optional(),
  /** The kind of resource (`patient`, `admission`, `route`…). */
  resource: z
    .string()
    .trim()
    .regex(/^[a-z][a-z0-9_]*$/, 'audit.resource_invalid')
    .max(40)
    .optional(),
  /** The id of the resource (with `resource`). */
  resource_id: z.string().trim().min(1).max(200).optional(),
  /** From this instant (inclusive). */
  from: zDateTime.optional(),
  /** Until this instant (exclusive). */
  to: zDateTime.optional(),
});
export type TAuditQuery = z.input<typeof ZAuditQuery>;

/**
 * Who acted: a signed-in user; the system (a background job, the CLI, start-up) with what ran, the user it
 * acted for and the rule that caused it; or nobody known (a failed sign-in, a reset link).
 */
export const ZAuditActor = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('user'), id: z.uuid(), full_name: z.string() }),
  z.object({
    kind: z.literal('system'),
    source: z.string(),
    on_behalf_of: z.object({ id: z.uuid(), full_name: z.string() }).nullable(),
    rule: z.string().nullable(),
  }),
  z.object({ kind: z.literal('anonymous') }),
]);
export type TAuditActor = z.infer<typeof ZAuditActor>;

export const ZAuditEvent = z.object({
  id: z.uuid(),
  occurred_at: zDateTime,
  actor: ZAuditActor,
  user: z.object({ id: z.uuid(), full_name: z.string(), email: z.string() }).nullable(),
  /** The role codes the user held in the hospital at the time (comma separated). */
  role_code: z.string().nullable(),
  hospital: z.uuid().nullable(),
  /** The patient, when the row is about one of this hospital's patients. */
  patient: z
    .object({ id: z.uuid(), record_number: z.string().nullable(), full_name: z.string().nullable() })
    .nullable(),
  action: z.string(),
  resource_type: z.string().nullable(),
  resource_id: z.string().nullable(),
  outcome: z.string(),
  ip: z.string().nullable(),
  request_id: z.string().nullable(),
  details: z.record(z.string(), z.unknown()).nullable(),
});
export type TAuditEvent = z.infer<typeof ZAuditEvent>;

export const ZAuditList = zPage(ZAuditEvent);
export type TAuditList = z.infer<typeof ZAuditList>;

/** The filters of the CSV export: those of the list, without the page. */
export const ZAuditExportQuery = ZAuditQuery.omit({ page: true, page_size: true });
export type TAuditExportQuery = z.input<typeof ZAuditExportQuery>;

/** The export stops after this many rows (narrow the dates for more). */
export const AUDIT_EXPORT_MAX_ROWS = 100_000;

/** The resource types the server writes, for the viewer's filter (others can still be typed). */
export const AUDIT_RESOURCE_TYPES = [
  'patient',
  'admission',
  'triage',
  'consultation',
  'exam',
  'execution',
  'appointment',
  'user',
  'membership',
  'session',
  'hospital',
  'department',
  'ward',
  'room',
  'bed',
  'job',
  'audit',
  'route',
  'system',
] as const;

/** One opening of a patient's record (GET /api/patients/{id}/access-log/): who read what, when, from where. */
export const ZPatientAccess = z.object({
  id: z.uuid(),
  occurred_at: zDateTime,
  user: z.object({ id: z.uuid(), full_name: z.string() }).nullable(),
  role_code: z.string().nullable(),
  action: z.string(),
  resource_type: z.string().nullable(),
  ip: z.string().nullable(),
});
export type TPatientAccess = z.infer<typeof ZPatientAccess>;
export const ZPatientAccessList = zPage(ZPatientAccess);
export type TPatientAccessList = z.infer<typeof ZPatientAccessList>;
