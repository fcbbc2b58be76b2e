/** Status and type of a visit, with their colours. */
import type { AdmissionStatus } from '@greensen/shared/domain/admissions';
import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatDate } from '../../format';
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

/**
 * A visit's status; a visit whose stay ended (`dischargedAt`) says "Sorti(e) le …" (issue 37): the patient left,
 * and when.
 */
export function AdmissionStatusBadge({
  status,
  size = 'sm',
  dischargedAt,
}: {
  status: string;
  size?: 'xs' | 'sm' | 'md' | 'lg';
  dischargedAt?: string | null | undefined;
}) {
  const { t } = useTranslation('admissions');
  if (dischargedAt)
    return (
      <Badge color="green" variant="light" size={size} styles={NEVER_CUT} data-testid="admission-status">
        {t('leftOn', { date: formatDate(dischargedAt) })}
      </Badge>
    );
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
