/** Today's price of an act per payer category, as the catalogue's columns and the act's summary show it. */
import type { PayerCategory, TTariff } from '@greensen/shared/contracts/medical-acts';
import { Text } from '@mantine/core';
import { money } from '../../../lib/money';

export function tariffOf(tariffs: readonly TTariff[], category: PayerCategory): TTariff | undefined {
  return tariffs.find((tariff) => tariff.payer_category === category);
}

export function TariffAmount({ tariff }: { tariff: TTariff | undefined }) {
  if (!tariff)
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  return (
    <Text size="sm" ff="monospace" style={{ whiteSpace: 'nowrap' }}>
      {money(tariff.price, tariff.currency)}
    </Text>
  );
}
