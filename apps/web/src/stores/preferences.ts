/** Local preferences of this browser (persisted): notification sound. */
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

export interface PreferencesState {
  notificationSound: boolean;
  setNotificationSound: (value: boolean) => void;
}

export const usePreferencesStore = create<PreferencesState>()(
  persist(
    (set) => ({
      notificationSound: true,
      setNotificationSound: (notificationSound) => set({ notificationSound }),
    }),
    {
      name: 'greensen-preferences',
      storage: createJSONStorage(() => localStorage),
      partialize: (state) => ({ notificationSound: state.notificationSound }),
    },
  ),
);
