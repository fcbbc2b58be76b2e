/** An invoice's status (brouillon, émise, annulée) and, for a credit note, its kind. */
import type { InvoiceKind, InvoiceStatus } from '@greensen/shared/contracts/billing';
import type { InvoiceStanding } from '@greensen/shared/domain/money';
import { Badge, type BadgeProps, Group, type MantineColor } from '@mantine/core';
import { useTranslation } from 'react-i18next';

const STATUS_COLORS: Record<InvoiceStatus, MantineColor> = {
  draft: 'yellow',
  issued: 'blue',
  cancelled: 'gray',
};

/** A badge keeps its whole word in a narrow table cell (the patient's column wraps instead). */
const NO_SHRINK = { flexShrink: 0, minWidth: 'max-content' } as const;

const STANDING_COLORS: Record<InvoiceStanding, MantineColor> = {
  ...STATUS_COLORS,
  settled: 'green',
  partially_paid: 'orange',
};

export function InvoiceBadges({
  status,
  kind,
  standing,
  size = 'sm',
}: {
  status: InvoiceStatus;
  kind: InvoiceKind;
  /** Where it stands, as the server says (issue 37): "Soldée", "Partiellement payée", or its status. */
  standing?: InvoiceStanding;
  size?: BadgeProps['size'];
}) {
  const { t } = useTranslation('billing');
  const shown = standing ?? status;
  return (
    <Group gap={4} wrap="nowrap">
      {kind === 'credit_note' && (
        <Badge size={size} color="grape" variant="light" style={NO_SHRINK}>
          {t('kinds.credit_note')}
        </Badge>
      )}
      <Badge
        size={size}
        color={STANDING_COLORS[shown]}
        variant="light"
        style={NO_SHRINK}
        data-testid="invoice-status"
      >
        {t(`statuses.${shown}`)}
      </Badge>
    </Group>
  );
}
