/**
 * Query keys of nursing care (issue 20): the care pages' queries under ['care'], the nurse dashboard's under
 * ['dashboard', 'nurse'] (its 60 s timer and the `dashboard` refresh flag refetch them). A care write, or a care
 * task notification (assigned, reassigned, scheduled) received on any page, refreshes both.
 */
import type { QueryClient } from '@tanstack/react-query';

export const CARE_KEY = ['care'] as const;
export const NURSE_DASHBOARD_KEY = ['dashboard', 'nurse'] as const;

export function invalidateCare(queryClient: QueryClient): Promise<unknown> {
  return Promise.all(
    [CARE_KEY, NURSE_DASHBOARD_KEY].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
  );
}

const CARE_TASK_TYPES: readonly string[] = [
  'execution_assigned',
  'execution_reassigned',
  'execution_scheduled',
];

/** A notification about a care task: it carries the care plan (the consultation queue's executions do not). */
export function isCareTaskNotification(n: {
  notification_type: string;
  data?: Record<string, unknown> | null;
}) {
  return CARE_TASK_TYPES.includes(n.notification_type) && typeof n.data?.plan_id === 'string';
}
