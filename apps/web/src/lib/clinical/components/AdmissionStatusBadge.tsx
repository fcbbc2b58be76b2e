/** Status and type of a visit, with their colours. */
import type { AdmissionStatus } from '@greensen/shared/domain/admissions';
import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { NEVER_CUT } from '../../theme';

export const STATUS_COLORS: Record<AdmissionStatus, string> = {
  waiting: 'yellow',
  assigned: 'blue',
  in_consultation: 'violet',
  completed: 'green',
  hospitalized: 'teal',
  transferred: 'cyan',
  cancelled: 'gray',
};

export function AdmissionStatusBadge({
  status,
  size = 'sm',
}: {
  status: string;
  size?: 'xs' | 'sm' | 'md' | 'lg';
}) {
  const { t } = useTranslation('admissions');
  return (
    <Badge
      color={STATUS_COLORS[status as AdmissionStatus] ?? 'gray'}
      variant="light"
      size={size}
      styles={NEVER_CUT}
      data-testid="admission-status"
    >
      {t(`status.${status}`)}
    </Badge>
  );
}
