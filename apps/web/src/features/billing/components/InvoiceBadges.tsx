/** An invoice's status (brouillon, émise, annulée) and, for a credit note, its kind. */
import type { InvoiceKind, InvoiceStatus } from '@greensen/shared/contracts/billing';
import { Badge, type BadgeProps, Group, type MantineColor } from '@mantine/core';
import { useTranslation } from 'react-i18next';

const STATUS_COLORS: Record<InvoiceStatus, MantineColor> = {
  draft: 'yellow',
  issued: 'blue',
  cancelled: 'gray',
};

/** A badge keeps its whole word in a narrow table cell (the patient's column wraps instead). */
const NO_SHRINK = { flexShrink: 0, minWidth: 'max-content' } as const;

export function InvoiceBadges({
  status,
  kind,
  balance,
  size = 'sm',
}: {
  status: InvoiceStatus;
  kind: InvoiceKind;
  /** What the patient still owes (an issued invoice with nothing left is "Soldée"). */
  balance?: number;
  size?: BadgeProps['size'];
}) {
  const { t } = useTranslation('billing');
  const settled = status === 'issued' && kind === 'invoice' && balance !== undefined && balance <= 0;
  return (
    <Group gap={4} wrap="nowrap">
      {kind === 'credit_note' && (
        <Badge size={size} color="grape" variant="light" style={NO_SHRINK}>
          {t('kinds.credit_note')}
        </Badge>
      )}
      <Badge
        size={size}
        color={settled ? 'green' : STATUS_COLORS[status]}
        variant="light"
        style={NO_SHRINK}
        data-testid="invoice-status"
      >
        {settled ? t('statuses.settled') : t(`statuses.${status}`)}
      </Badge>
    </Group>
  );
}
