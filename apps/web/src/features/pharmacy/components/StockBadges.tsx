/** Chips of the stock: an item's alerts (out, low, expiring, expired) and a ledger row's kind. */
import type { MovementKind } from '@greensen/shared/contracts/pharmacy';
import { Badge, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { NEVER_CUT } from '../../../lib/theme';
import type { StockAlert } from '../api/stock';

const FLAG_COLORS: Record<StockAlert, string> = {
  out: 'red',
  low: 'orange',
  expiring: 'yellow',
  expired: 'dark',
};

export function StockFlags({ flags }: { flags: readonly StockAlert[] }) {
  const { t } = useTranslation('pharmacy');
  if (flags.length === 0) return null;
  return (
    <Group gap={4} wrap="wrap">
      {flags.map((flag) => (
        <Badge
          key={flag}
          color={FLAG_COLORS[flag]}
          variant={flag === 'out' ? 'filled' : 'light'}
          size="sm"
          styles={NEVER_CUT}
          data-testid="stock-flag"
        >
          {t(`flags.${flag}`)}
        </Badge>
      ))}
    </Group>
  );
}

const KIND_COLORS: Record<MovementKind, string> = {
  receipt: 'green',
  dispense: 'blue',
  transfer_out: 'grape',
  transfer_in: 'teal',
  adjustment: 'orange',
  expiry_writeoff: 'dark',
  inventory: 'cyan',
};

export function MovementKindBadge({ kind }: { kind: MovementKind }) {
  const { t } = useTranslation('pharmacy');
  return (
    <Badge color={KIND_COLORS[kind]} variant="light" size="sm" styles={NEVER_CUT}>
      {t(`movements.kinds.${kind}`)}
    </Badge>
  );
}

/** A signed quantity: "+20" in green, "−3" in red. */
export function SignedQuantity({ value }: { value: number }) {
  return (
    <Badge variant="transparent" color={value >= 0 ? 'green' : 'red'} size="md" px={0}>
      {value > 0 ? `+${value}` : value < 0 ? `−${Math.abs(value)}` : '0'}
    </Badge>
  );
}
