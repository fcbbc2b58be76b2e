/**
 * Medication safety (issue 34), shared by the prescribing form, the pharmacy's dispense dialog and the MAR's dose
 * dialog: the server's live check (POST /api/medication-safety/check/), the reading of a step refused by blocking
 * alerts (409 `code: medication_safety`), and a first dose given now (POST /api/care/mar/stat/). The alerts are
 * always computed by the server: this file only carries them.
 */
import {
  type TSafetyAlert,
  type TSafetyCheckRequest,
  type TSafetyCheckResult,
  type TStatDoseCreate,
  ZSafetyConflict,
} from '@greensen/shared/contracts/medication-safety';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, isApiError } from '../../api-client';
import { invalidateCare } from './care-keys';

export const SAFETY_CHECK_KEY = ['medication-safety', 'check'] as const;

/** The alerts of a draft line or a whole draft prescription (no side effect but the audit of the read). */
export function checkMedicationSafety(
  body: TSafetyCheckRequest,
  signal?: AbortSignal,
): Promise<TSafetyCheckResult> {
  return api.post<TSafetyCheckResult>('medication-safety/check/', body, { signal });
}

/** The alerts of a step the server refused for blocking alerts without a reason, or null for any other error. */
export function safetyConflictAlerts(error: unknown): TSafetyAlert[] | null {
  if (!isApiError(error) || error.status !== 409) return null;
  const parsed = ZSafetyConflict.safeParse(error.body);
  return parsed.success ? parsed.data.alerts : null;
}

/** A first dose given now ("stat"); the line's next doses follow from it. */
export function useStatDose() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TStatDoseCreate) => api.post<unknown>('care/mar/stat/', body),
    onSuccess: () => invalidateCare(queryClient),
  });
}
