/**
 * The toast container, loaded with the first toast (app/Providers): top right as the specification says (§1,
 * §9), at most 5 at once, below the application header (toast-container.css) so that a confirmation never covers
 * the user menu, the bell or the hospital selector while it is shown (issue 25).
 */
import { Notifications } from '@mantine/notifications';
import './toast-container.css';
import { TOAST_Z_INDEX } from './toast-layer';

export default function ToastContainer() {
  return <Notifications position="top-right" zIndex={TOAST_Z_INDEX} limit={5} containerWidth={380} />;
}
