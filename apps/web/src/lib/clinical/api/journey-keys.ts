/** Query keys of the patient journey: a write on a visit refreshes every list that shows it. */
import type { QueryClient } from '@tanstack/react-query';

export const ADMISSIONS_KEY = ['admissions'] as const;
export const TRIAGE_KEY = ['triage'] as const;
export const DOCTORS_KEY = ['doctors'] as const;
export const DEPARTMENTS_KEY = ['departments'] as const;

export function invalidateJourney(queryClient: QueryClient): Promise<unknown> {
  return Promise.all(
    [
      ADMISSIONS_KEY,
      TRIAGE_KEY,
      DOCTORS_KEY,
      DEPARTMENTS_KEY,
      ['patients'],
      ['dashboard'],
      ['consultations'],
    ].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
  );
}
