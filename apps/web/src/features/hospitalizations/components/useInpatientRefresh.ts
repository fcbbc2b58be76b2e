/**
 * The refresh flags of inpatient stays (specification §3–§4): the notification stream raises `hospitalization`,
 * `transfer` or `bed_assignment` when another user changed a stay, a transfer or a bed while this user is on a
 * hospitalizations page. The open page then refetches its queries (the active ones: the board, the list, the
 * census, the stay, its notes and transfers) and lowers the flag once they are in — no faster polling.
 */
import type { RefreshFlag } from '@greensen/shared/domain/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useRefreshFlagsStore } from '../../../stores/refresh-flags';
import { invalidateInpatients } from '../api/keys';

const INPATIENT_FLAGS = [
  'hospitalization',
  'transfer',
  'bed_assignment',
] as const satisfies readonly RefreshFlag[];

export function useInpatientRefresh(): void {
  const hospitalization = useRefreshFlagsStore((state) => state.hospitalization);
  const transfer = useRefreshFlagsStore((state) => state.transfer);
  const bedAssignment = useRefreshFlagsStore((state) => state.bed_assignment);
  const raised = hospitalization || transfer || bedAssignment;
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!raised) return;
    const { getState } = useRefreshFlagsStore;
    const flags = INPATIENT_FLAGS.filter((flag) => getState()[flag]);
    void invalidateInpatients(queryClient).finally(() => {
      for (const flag of flags) getState().reset(flag);
    });
  }, [raised, queryClient]);
}
