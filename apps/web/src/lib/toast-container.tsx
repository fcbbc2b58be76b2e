/** The toast container (top right, at most 5 at once), loaded with the first toast: app/Providers. */
import { Notifications } from '@mantine/notifications';

export default function ToastContainer() {
  return <Notifications position="top-right" zIndex={2000} limit={5} />;
}
