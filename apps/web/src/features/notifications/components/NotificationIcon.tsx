import { ThemeIcon } from '@mantine/core';
import { notificationVisual } from '../notification-helpers';

/** The icon of a notification type in its colour (shared `notificationStyle`). */
export function NotificationIcon({ type, size = 34 }: { type: string; size?: number }) {
  const { Icon, color } = notificationVisual(type);
  return (
    <ThemeIcon color={color} variant="light" radius="xl" size={size} aria-hidden>
      <Icon size={Math.round(size * 0.55)} stroke={1.8} />
    </ThemeIcon>
  );
}
