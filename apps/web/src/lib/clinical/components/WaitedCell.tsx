/** Time waited against the triage level's target delay, highlighted in red when exceeded. */
import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatMinutes } from '../../format';

export function WaitedCell({
  waited,
  target,
  exceeded,
}: {
  waited: number;
  target: number | null | undefined;
  exceeded: boolean;
}) {
  const { t } = useTranslation('triage');
  return (
    <Text
      size="sm"
      fw={exceeded ? 700 : 400}
      c={exceeded ? 'red' : undefined}
      data-exceeded={exceeded || undefined}
    >
      {formatMinutes(waited)}
      {target !== null && target !== undefined && (
        <Text span size="xs" c={exceeded ? 'red' : 'dimmed'}>
          {' '}
          / {formatMinutes(target)}
        </Text>
      )}
      {exceeded && (
        <Text span size="xs" c="red" fw={700}>
          {' '}
          · {t('waitingRoom.exceeded')}
        </Text>
      )}
    </Text>
  );
}
