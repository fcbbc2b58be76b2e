/** Status, urgency, abnormal and per-value flag chips of exam orders. */
import type { ExamFlag, ExamStatus, ExamUrgency } from '@greensen/shared/domain/exams';
import { Badge, type MantineSize } from '@mantine/core';
import { IconAlertTriangle, IconArrowDown, IconArrowUp, IconBolt } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { NEVER_CUT } from '../../theme';

export const EXAM_STATUS_COLORS: Record<ExamStatus, string> = {
  requested: 'blue',
  in_progress: 'cyan',
  completed: 'orange',
  validated: 'green',
  cancelled: 'gray',
};

export function ExamStatusBadge({ status, size = 'sm' }: { status: ExamStatus; size?: MantineSize }) {
  const { t } = useTranslation('exams');
  return (
    <Badge
      color={EXAM_STATUS_COLORS[status]}
      variant="light"
      size={size}
      styles={NEVER_CUT}
      data-testid="exam-status"
    >
      {t(`status.${status}`)}
    </Badge>
  );
}

/** The urgency chip: red for urgent; routine shows only with `showRoutine`. */
export function ExamUrgencyBadge({
  urgency,
  showRoutine = false,
  size = 'sm',
}: {
  urgency: ExamUrgency;
  showRoutine?: boolean;
  size?: MantineSize;
}) {
  const { t } = useTranslation('exams');
  if (urgency === 'routine' && !showRoutine) return null;
  return (
    <Badge
      color={urgency === 'urgent' ? 'red' : 'gray'}
      variant={urgency === 'urgent' ? 'filled' : 'light'}
      size={size}
      leftSection={urgency === 'urgent' ? <IconBolt size={12} /> : undefined}
      styles={NEVER_CUT}
      data-testid={`exam-urgency-${urgency}`}
    >
      {t(`urgency.${urgency}`)}
    </Badge>
  );
}

/** "Abnormal" on an order with at least one value outside its range or an abnormal choice. */
export function ExamAbnormalBadge({ size = 'sm' }: { size?: MantineSize }) {
  const { t } = useTranslation('exams');
  return (
    <Badge
      color="red"
      variant="light"
      size={size}
      leftSection={<IconAlertTriangle size={12} />}
      styles={NEVER_CUT}
      data-testid="exam-abnormal"
    >
      {t('abnormal')}
    </Badge>
  );
}

/** The flag of one value: ↓ low (blue), ↑ high (red), abnormal (red); nothing for a normal value. */
/**
 * The flag of a result. A quantity normally absent (reference "absence") that is found is said as a clinician
 * says it, "Positif", not "↑ Élevé" (issue 25).
 */
export function ExamFlagBadge({
  flag,
  size = 'xs',
  normallyAbsent = false,
}: {
  flag: ExamFlag;
  size?: MantineSize;
  normallyAbsent?: boolean;
}) {
  const { t } = useTranslation('exams');
  if (!flag) return null;
  const positive = normallyAbsent && flag === 'high';
  const icon = positive ? undefined : flag === 'low' ? (
    <IconArrowDown size={11} />
  ) : flag === 'high' ? (
    <IconArrowUp size={11} />
  ) : undefined;
  return (
    <Badge
      component="span"
      color={flag === 'low' ? 'blue' : 'red'}
      variant="filled"
      size={size}
      leftSection={icon}
      styles={NEVER_CUT}
      data-testid={`flag-${flag}`}
    >
      {positive ? t('flag.positive') : t(`flag.${flag}`)}
    </Badge>
  );
}
