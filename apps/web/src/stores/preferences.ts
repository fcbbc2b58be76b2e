/**
 * Local preferences of this browser (persisted): notification sound. The person's own choice (`true`/`false`)
 * wins; without one (`null`) the hospital's default applies (hospital settings, decision 0021), which is kept
 * here — not persisted — once the signed-in app has read it.
 */
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

export interface PreferencesState {
  /** The person's own choice on this browser, or null to follow the hospital. */
  notificationSound: boolean | null;
  /** The current hospital's default (true until it is known). */
  hospitalNotificationSound: boolean;
  setNotificationSound: (value: boolean | null) => void;
  setHospitalNotificationSound: (value: boolean) => void;
}

/** Whether notifications ring: the person's own choice, else the hospital's default. */
export function notificationSoundOn(
  state: Pick<PreferencesState, 'notificationSound' | 'hospitalNotificationSound'>,
) {
  return state.notificationSound ?? state.hospitalNotificationSound;
}

export const usePreferencesStore = create<PreferencesState>()(
  persist(
    (set) => ({
      notificationSound: null,
      hospitalNotificationSound: true,
      setNotificationSound: (notificationSound) => set({ notificationSound }),
      setHospitalNotificationSound: (hospitalNotificationSound) => set({ hospitalNotificationSound }),
    }),
    {
      name: 'greensen-preferences',
      storage: createJSONStorage(() => localStorage),
      partialize: (state) => ({ notificationSound: state.notificationSound }),
      // Version 0 stored `true` for everybody who never touched the switch: only a `false` was a choice.
      version: 1,
      migrate: (persisted, version) => {
        const stored = (persisted as { notificationSound?: unknown } | null)?.notificationSound;
        if (version === 0) return { notificationSound: stored === false ? false : null };
        return { notificationSound: typeof stored === 'boolean' ? stored : null };
      },
    },
  ),
);
