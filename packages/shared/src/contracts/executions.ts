/**
 * Executions (units of work assigned to a provider), queues, workloads, assignment and the start of a
 * consultation (issue 6; specification §3, §7).
 */
import { z } from 'zod';
import { ZDepartmentRef, ZPatientRef, ZPersonRef } from './admissions.js';
import { ZPageQuery, zDateTime, zPage, zSearch } from './common.js';

export const EXECUTION_STATUSES = ['assigned', 'in_progress', 'completed', 'cancelled'] as const;

export const ZAssignBody = z.object({ admission: z.uuid(), doctor: z.uuid() });

export const ZExecution = z.object({
  id: z.uuid(),
  kind: z.literal('consultation'),
  admission_id: z.uuid(),
  admission_status: z.string(),
  patient: ZPatientRef,
  department: ZDepartmentRef,
  doctor: ZPersonRef.nullable(),
  status: z.enum(EXECUTION_STATUSES),
  /** Triage rank (1 first); null when not triaged. */
  priority: z.number().int().nullable(),
  triage_level: z.string().nullable(),
  target_minutes: z.number().int().nullable(),
  queue_number: z.number().int(),
  admitted_at: zDateTime,
  scheduled_at: zDateTime.nullable(),
  started_at: zDateTime.nullable(),
  completed_at: zDateTime.nullable(),
  waited_minutes: z.number().int(),
  target_exceeded: z.boolean(),
});
export type TExecution = z.infer<typeof ZExecution>;

/** A department queue line: an assigned execution, or an admission nobody has been assigned to yet. */
export const ZQueueEntry = ZExecution.extend({
  id: z.uuid().nullable(),
  status: z.enum(['unassigned', ...EXECUTION_STATUSES]),
});

export const ZExecutionQueueQuery = ZPageQuery.extend({
  /** open (default): assigned and in progress; completed: completed today. */
  status: z.enum(['open', 'completed', 'all']).default('open'),
});
export const ZExecutionQueue = zPage(ZExecution);
export const ZDepartmentQueueQuery = ZPageQuery.extend({
  status: z.enum(['all', 'unassigned', 'assigned']).default('all'),
});
export const ZDepartmentQueue = zPage(ZQueueEntry);

export const ZWorkload = z.object({
  doctor: ZPersonRef,
  waiting: z.number().int(),
  in_progress: z.number().int(),
  completed_today: z.number().int(),
  /** Mean minutes of the consultations completed today; null when none. */
  average_consultation_minutes: z.number().nullable(),
});
export type TWorkload = z.infer<typeof ZWorkload>;

export const ZDoctor = z.object({
  id: z.uuid(),
  full_name: z.string(),
  email: z.string(),
  title_prefix: z.string(),
  role_codes: z.array(z.string()),
  departments: z.array(ZDepartmentRef),
  workload: ZWorkload.omit({ doctor: true }),
});
export const ZDoctorListQuery = ZPageQuery.extend({
  department: z.uuid().optional(),
  ...zSearch(),
  ordering: z.enum(['load', 'name']).default('name'),
  /** The visit being assigned: the practitioners of its department come first (issue 37). */
  admission: z.uuid().optional(),
});
export const ZDoctorList = zPage(ZDoctor);

export const ZDepartment = ZDepartmentRef.extend({
  is_active: z.boolean(),
  /** The head of department, if named (issue 15). */
  head: z.object({ id: z.uuid(), full_name: z.string() }).nullable(),
});
export const ZDepartmentList = zPage(ZDepartment);

export const ZAssignResult = z.object({ execution: ZExecution, reassigned_from: ZPersonRef.nullable() });

export const ZConsultation = z.object({
  id: z.uuid(),
  admission: z.uuid(),
  patient: z.uuid(),
  doctor: ZPersonRef,
  status: z.enum(['in_progress', 'completed', 'cancelled']),
  started_at: zDateTime,
  completed_at: zDateTime.nullable(),
});
export type TConsultation = z.infer<typeof ZConsultation>;
export const ZConsultationPage = zPage(ZConsultation);
export { ZPageQuery };
