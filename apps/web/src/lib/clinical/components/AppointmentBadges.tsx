/** Status and type of an appointment, with their colours (the calendar uses the same colours). */
import type { AppointmentStatus, AppointmentType } from '@greensen/shared/domain/appointments';
import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { NEVER_CUT } from '../../theme';

export const APPOINTMENT_STATUS_COLORS: Record<AppointmentStatus, string> = {
  booked: 'blue',
  confirmed: 'indigo',
  checked_in: 'green',
  completed: 'teal',
  no_show: 'red',
  cancelled: 'gray',
};

export const APPOINTMENT_TYPE_COLORS: Record<AppointmentType, string> = {
  new: 'blue',
  follow_up: 'teal',
  antenatal: 'pink',
  vaccination: 'grape',
  procedure: 'orange',
  other: 'gray',
};

type Size = 'xs' | 'sm' | 'md' | 'lg';

export function AppointmentStatusBadge({ status, size = 'sm' }: { status: AppointmentStatus; size?: Size }) {
  const { t } = useTranslation('appointments');
  return (
    <Badge
      color={APPOINTMENT_STATUS_COLORS[status] ?? 'gray'}
      variant="light"
      size={size}
      styles={NEVER_CUT}
      data-testid="appointment-status"
      data-status={status}
    >
      {t(`status.${status}`)}
    </Badge>
  );
}

export function AppointmentTypeBadge({ type, size = 'sm' }: { type: AppointmentType; size?: Size }) {
  const { t } = useTranslation('appointments');
  return (
    <Badge
      color={APPOINTMENT_TYPE_COLORS[type] ?? 'gray'}
      variant="dot"
      size={size}
      styles={NEVER_CUT}
      data-testid="appointment-type"
    >
      {t(`type.${type}`)}
    </Badge>
  );
}
