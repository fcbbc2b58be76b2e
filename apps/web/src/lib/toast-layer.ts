/**
 * The toasts' layer (lib/toast-container.tsx), above dialogs and menus. Kept apart so that what must sit above
 * it (the offline queue's list, opened by the nurse) does not load the container.
 */
export const TOAST_Z_INDEX = 2000;
