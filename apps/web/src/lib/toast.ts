/** One toast helper over @mantine/notifications (top right, 3000 ms by default, §2 Toasts). */
import { TOAST_DEFAULT_MS } from '@greensen/shared/domain/notifications';
import { notifications } from '@mantine/notifications';
import type { ReactNode } from 'react';

export type ToastKind = 'success' | 'error' | 'warning' | 'info';

export const TOAST_COLORS: Record<ToastKind, string> = {
  success: 'green',
  error: 'red',
  warning: 'yellow',
  info: 'blue',
};

export interface ToastInput {
  id?: string;
  title: string;
  description?: ReactNode;
  kind?: ToastKind;
  /** Overrides the kind's colour. */
  color?: string;
  icon?: ReactNode;
  /** Milliseconds, or false to keep it until closed. */
  duration?: number | false;
}

export function toast({ id, title, description, kind = 'info', color, icon, duration }: ToastInput): string {
  return notifications.show({
    id,
    title,
    message: description ?? '',
    color: color ?? TOAST_COLORS[kind],
    icon,
    autoClose: duration ?? TOAST_DEFAULT_MS,
    withCloseButton: true,
  });
}

export function hideToast(id: string): void {
  notifications.hide(id);
}
