/** Refresh flags raised by notifications (persisted booleans, specification §3–§4). */
import type { RefreshFlag } from '@greensen/shared/domain/notifications';
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

export interface RefreshFlagsState {
  hospitalization: boolean;
  transfer: boolean;
  bed_assignment: boolean;
  dashboard: boolean;
  raise: (flag: RefreshFlag) => void;
  reset: (flag: RefreshFlag) => void;
}

export const useRefreshFlagsStore = create<RefreshFlagsState>()(
  persist(
    (set) => ({
      hospitalization: false,
      transfer: false,
      bed_assignment: false,
      dashboard: false,
      raise: (flag) => set({ [flag]: true } as Pick<RefreshFlagsState, RefreshFlag>),
      reset: (flag) => set({ [flag]: false } as Pick<RefreshFlagsState, RefreshFlag>),
    }),
    {
      name: 'greensen-refresh-flags',
      storage: createJSONStorage(() => localStorage),
      partialize: (state) => ({
        hospitalization: state.hospitalization,
        transfer: state.transfer,
        bed_assignment: state.bed_assignment,
        dashboard: state.dashboard,
      }),
    },
  ),
);
