/**
 * Chips and notices of prescriptions: the status, and a safety warning — blocking ones (an allergy) in red,
 * the others (the same substance twice, a weight to give, stock) in orange.
 */
import type { PrescriptionStatus, TPrescriptionWarning } from '@greensen/shared/contracts/pharmacy';
import { Alert, Badge, type MantineSize } from '@mantine/core';
import { IconAlertTriangle, IconCopy, IconScale } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { NEVER_CUT } from '../../theme';

export const PRESCRIPTION_STATUS_COLORS: Record<PrescriptionStatus, string> = {
  draft: 'gray',
  signed: 'blue',
  partially_dispensed: 'orange',
  dispensed: 'green',
  cancelled: 'dark',
};

export function PrescriptionStatusBadge({
  status,
  size = 'sm',
}: {
  status: PrescriptionStatus;
  size?: MantineSize;
}) {
  const { t } = useTranslation('pharmacy');
  return (
    <Badge
      color={PRESCRIPTION_STATUS_COLORS[status]}
      variant="light"
      size={size}
      styles={NEVER_CUT}
      data-testid="prescription-status"
    >
      {t(`status.${status}`)}
    </Badge>
  );
}

const WARNING_ICONS = { duplicate: IconCopy, weight_required: IconScale } as const;

export function PrescriptionWarningAlert({ warning }: { warning: TPrescriptionWarning }) {
  const { t } = useTranslation('pharmacy');
  const Icon = WARNING_ICONS[warning.kind as keyof typeof WARNING_ICONS] ?? IconAlertTriangle;
  const red = warning.blocking || warning.kind === 'allergy';
  return (
    <Alert
      color={red ? 'red' : 'orange'}
      variant={red ? 'filled' : 'light'}
      icon={<Icon size={18} />}
      title={t(`warnings.${warning.kind}`)}
      role={red ? 'alert' : 'status'}
      p="xs"
      data-testid="prescription-warning"
      data-kind={warning.kind}
      data-blocking={warning.blocking ? 'true' : undefined}
    >
      {warning.message}
    </Alert>
  );
}
