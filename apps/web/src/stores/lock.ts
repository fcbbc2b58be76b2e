/**
 * Session lock of a shared workstation (issue 3): after 15 minutes without activity the app locks
 * and only /pin-verify is reachable until the user unlocks. Persisted so a reload stays locked.
 */
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

export const INACTIVITY_LOCK_MS = 15 * 60 * 1000;

export interface LockState {
  locked: boolean;
  /** Unprefixed path to return to after unlocking. */
  returnTo: string;
  lock: (returnTo: string) => void;
  unlock: () => void;
}

export const useLockStore = create<LockState>()(
  persist(
    (set) => ({
      locked: false,
      returnTo: '/',
      lock: (returnTo) => set({ locked: true, returnTo }),
      unlock: () => set({ locked: false, returnTo: '/' }),
    }),
    {
      name: 'greensen-lock',
      storage: createJSONStorage(() => localStorage),
      partialize: (state) => ({ locked: state.locked, returnTo: state.returnTo }),
    },
  ),
);
