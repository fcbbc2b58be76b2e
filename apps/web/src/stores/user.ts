/**
 * The signed-in user and the current department, persisted locally (specification §3–§4).
 * Setting the user applies the session rules: the first hospital is chosen when none is selected
 * (or the selected one is no longer the user's), the current department is kept when still present
 * in the current hospital, otherwise the first department of that hospital is used.
 */
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { useAuthStore } from './auth';

export interface UserHospital {
  id: string;
  name: string;
  code?: string;
}

export interface UserDepartment {
  id: string;
  name: string;
  hospital: string;
}

export interface ActiveRole {
  role_code: string;
  hospital?: string | null;
  department?: string | null;
}

export interface User {
  id: string;
  email: string;
  username?: string | null;
  full_name: string;
  profile: { first_name: string; last_name: string; language_preference: string };
  hospitals: UserHospital[];
  departments: UserDepartment[];
  active_roles: ActiveRole[];
  roles: { code?: string; role_code?: string; name?: string }[];
  has_pin?: boolean;
}

export interface UserState {
  user: User | null;
  currentDepartmentId: string | null;
  setUser: (user: User | null) => void;
  setCurrentDepartmentId: (id: string | null) => void;
  /** Switches hospital: its first department is selected, or none. */
  changeHospital: (hospitalId: string) => void;
  clear: () => void;
}

export const USER_STORAGE_KEY = 'greensen-user';

/** The departments of the user in a hospital. */
export function departmentsOfHospital(user: User | null, hospitalId: string | null): UserDepartment[] {
  if (!user || !hospitalId) return [];
  return user.departments.filter((department) => department.hospital === hospitalId);
}

/** The hospital to select for a user given the current selection. */
export function chooseHospital(user: User, currentHospitalId: string | null): string | null {
  if (currentHospitalId && user.hospitals.some((hospital) => hospital.id === currentHospitalId)) {
    return currentHospitalId;
  }
  return user.hospitals[0]?.id ?? null;
}

/** The department to select: the current one if still present (in the hospital), else the first. */
export function chooseDepartment(
  user: User,
  hospitalId: string | null,
  currentDepartmentId: string | null,
): string | null {
  const candidates = hospitalId ? departmentsOfHospital(user, hospitalId) : user.departments;
  if (currentDepartmentId && candidates.some((department) => department.id === currentDepartmentId)) {
    return currentDepartmentId;
  }
  return candidates[0]?.id ?? null;
}

export const useUserStore = create<UserState>()(
  persist(
    (set, get) => ({
      user: null,
      currentDepartmentId: null,
      setUser: (user) => {
        if (!user) {
          set({ user: null, currentDepartmentId: null });
          return;
        }
        const auth = useAuthStore.getState();
        const hospitalId = chooseHospital(user, auth.currentHospitalId);
        if (hospitalId !== auth.currentHospitalId) auth.setCurrentHospitalId(hospitalId);
        set({ user, currentDepartmentId: chooseDepartment(user, hospitalId, get().currentDepartmentId) });
      },
      setCurrentDepartmentId: (currentDepartmentId) => set({ currentDepartmentId }),
      changeHospital: (hospitalId) => {
        useAuthStore.getState().setCurrentHospitalId(hospitalId);
        const first = departmentsOfHospital(get().user, hospitalId)[0];
        set({ currentDepartmentId: first?.id ?? null });
      },
      clear: () => set({ user: null, currentDepartmentId: null }),
    }),
    {
      name: USER_STORAGE_KEY,
      storage: createJSONStorage(() => localStorage),
      partialize: (state) => ({ user: state.user, currentDepartmentId: state.currentDepartmentId }),
    },
  ),
);

/** The user's active roles in a hospital (roles without hospital apply everywhere). */
export function rolesInHospital(
  user: User | null,
  hospitalId: string | null,
): { active_roles: ActiveRole[] } {
  const roles = user?.active_roles ?? [];
  if (!hospitalId) return { active_roles: roles };
  return { active_roles: roles.filter((role) => !role.hospital || role.hospital === hospitalId) };
}
