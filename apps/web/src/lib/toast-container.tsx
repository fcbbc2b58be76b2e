/**
 * The toast container (top right, at most 5 at once), loaded with the first toast: app/Providers. It starts below
 * the 60 px header, so that a confirmation never covers the user menu or the notification bell (issue 25).
 */
import { Notifications } from '@mantine/notifications';

/** Below the header (AppLayout: 60 px), with a 10 px gap. */
export const TOASTS_TOP = 70;

export default function ToastContainer() {
  return (
    <Notifications position="top-right" zIndex={2000} limit={5} styles={{ root: { top: TOASTS_TOP } }} />
  );
}
