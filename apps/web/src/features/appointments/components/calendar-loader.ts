/**
 * The event calendar's chunk (the calendar library, decision 0031): loaded with the view, never with the other pages.
 * Shared by the calendar page (lib/lazy-component.tsx) and app/page-prefetch.ts, which asks for it beside the page's
 * chunk when the app starts on /calendar: the page then renders it at once, without a loader (issue 38).
 */
export const loadAppointmentCalendar = () => import('./AppointmentCalendar');
