/**
 * The toasts' layer (lib/toast-container.tsx), above dialogs and menus. Kept apart so that what must sit above
 * it (the offline queue's list, opened by the nurse) does not load the container.
 */
export const TOAST_Z_INDEX = 2000;

/**
 * The header's own dropdowns (user menu, notifications, language, display mode, hospital and department), above
 * the toasts: the toasts stack just below the header, where these dropdowns open, and a toast must never sit over
 * « Se déconnecter » or the notification list (a click would land on the toast).
 */
export const HEADER_DROPDOWN_Z_INDEX = TOAST_Z_INDEX + 1;
