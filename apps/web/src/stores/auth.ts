/** Auth state, persisted (specification §3): tokens, current hospital, logging-out flag. */
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

export interface AuthState {
  access: string | null;
  refresh: string | null;
  currentHospitalId: string | null;
  isLoggingOut: boolean;
  isAuthenticated: boolean;
  /** Stores a new token pair (login or refresh); the user is then authenticated. */
  setTokens: (access: string, refresh: string) => void;
  setCurrentHospitalId: (id: string | null) => void;
  setLoggingOut: (value: boolean) => void;
  /** Forgets tokens and hospital. */
  clear: () => void;
}

export const AUTH_STORAGE_KEY = 'greensen-auth';

export const useAuthStore = create<AuthState>()(
  persist(
    (set) => ({
      access: null,
      refresh: null,
      currentHospitalId: null,
      isLoggingOut: false,
      isAuthenticated: false,
      setTokens: (access, refresh) => set({ access, refresh, isAuthenticated: true }),
      setCurrentHospitalId: (currentHospitalId) => set({ currentHospitalId }),
      setLoggingOut: (isLoggingOut) => set({ isLoggingOut }),
      clear: () => set({ access: null, refresh: null, currentHospitalId: null, isAuthenticated: false }),
    }),
    {
      name: AUTH_STORAGE_KEY,
      storage: createJSONStorage(() => localStorage),
      partialize: (state) => ({
        access: state.access,
        refresh: state.refresh,
        currentHospitalId: state.currentHospitalId,
        isLoggingOut: state.isLoggingOut,
        isAuthenticated: state.isAuthenticated,
      }),
    },
  ),
);
