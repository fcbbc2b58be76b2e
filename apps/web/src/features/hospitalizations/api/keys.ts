/**
 * Query keys of inpatient stays (issue 17). Every write on a stay, a bed or a transfer refreshes all of them
 * (the board, the lists, the census and the stay page show the same beds), and the refresh flags of the
 * specification (§4: hospitalization, transfer, bed_assignment) refresh them when another user changed them.
 */
import type { QueryClient } from '@tanstack/react-query';
import { ADMISSIONS_KEY } from '../../../lib/clinical/api/journey-keys';

export const HOSPITALIZATIONS_KEY = ['hospitalizations'] as const;
export const TRANSFERS_KEY = ['transfers'] as const;

/** Refetches the open page's stays, board, census and transfers (and the visits a stay changes). */
export function invalidateInpatients(queryClient: QueryClient): Promise<unknown> {
  return Promise.all(
    [HOSPITALIZATIONS_KEY, TRANSFERS_KEY, ADMISSIONS_KEY, ['dashboard']].map((queryKey) =>
      queryClient.invalidateQueries({ queryKey }),
    ),
  );
}
