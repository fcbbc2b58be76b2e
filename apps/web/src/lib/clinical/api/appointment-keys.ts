/**
 * Query keys of appointments: a booking, a move or a status change refreshes every list, calendar and dashboard
 * tab that shows appointments (and, for a check-in, the visits it opened: `invalidateJourney`).
 */
import type { QueryClient } from '@tanstack/react-query';

export const APPOINTMENTS_KEY = ['appointments'] as const;
/** The free slots (under the appointments key: a booking changes them). */
export const SLOTS_KEY = [...APPOINTMENTS_KEY, 'slots'] as const;

export function invalidateAppointments(queryClient: QueryClient): Promise<unknown> {
  return Promise.all(
    [APPOINTMENTS_KEY, ['dashboard']].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
  );
}
