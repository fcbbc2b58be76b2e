/**
 * What waits for the signed-in user in each hospital she works in (issue 25): counts only, never a patient, so
 * that the hospital selector can say where she is awaited without mixing the hospitals' data.
 */
import { z } from 'zod';

export const ZWaitingInHospital = z.object({
  hospital: z.uuid(),
  /** Patients assigned to her and not yet seen (her open consultation executions). */
  waiting_patients: z.number().int(),
  /** Validated abnormal results of exams she asked for that she has not acknowledged. */
  abnormal_results: z.number().int(),
  /** Her unread notifications there. */
  unread_notifications: z.number().int(),
});
export type TWaitingInHospital = z.infer<typeof ZWaitingInHospital>;

export const ZWaitingByHospital = z.object({ results: z.array(ZWaitingInHospital) });
export type TWaitingByHospital = z.infer<typeof ZWaitingByHospital>;
