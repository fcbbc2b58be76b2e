/** The header's notification bell (features/notifications). */
import { NotificationBell } from '../../features/notifications/components/NotificationBell';

export function NotificationsBellSlot() {
  return <NotificationBell />;
}
