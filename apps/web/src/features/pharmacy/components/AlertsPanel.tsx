/**
 * The Alertes tab: stock-outs, presentations below their reorder level, and lots expiring within the hospital's
 * window (or expired with units left), each list with what to act on.
 */
import type { TLot, TStockItem } from '@greensen/shared/contracts/pharmacy';
import { Anchor, Badge, Group, Paper, SimpleGrid, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconCalendarTime, IconTrendingDown } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { medicationName, presentationLabel } from '../../../lib/clinical/components/prescription-format';
import { formatDate } from '../../../lib/format';
import { uiLanguage } from '../../../lib/i18n';
import { LoadError } from '../../../lib/page-states';
import { useLocalizedPath } from '../../../lib/use-localized-path';
import { useStockAlerts } from '../api/stock';

function Section({
  title,
  color,
  icon,
  count,
  testId,
  empty,
  children,
}: {
  title: string;
  color: string;
  icon: ReactNode;
  count: number;
  testId: string;
  empty: string;
  children: ReactNode;
}) {
  return (
    <Paper withBorder radius="md" p="md" data-testid={testId}>
      <Stack gap="xs">
        <Group gap="xs">
          {icon}
          <Title order={4}>{title}</Title>
          <Badge color={color} variant={count > 0 ? 'filled' : 'light'} data-testid={`${testId}-count`}>
            {count}
          </Badge>
        </Group>
        {count === 0 ? (
          <Text size="sm" c="dimmed">
            {empty}
          </Text>
        ) : (
          children
        )}
      </Stack>
    </Paper>
  );
}

function MedicineCell({ item }: { item: Pick<TLot, 'medication' | 'presentation'> }) {
  const to = useLocalizedPath();
  const lang = uiLanguage();
  return (
    <div>
      <Anchor component={Link} to={to(`/pharmacy/medications/${item.medication.id}`)} size="sm" fw={600}>
        {medicationName(item.medication, lang)}
      </Anchor>
      <Text size="xs" c="dimmed">
        {presentationLabel(item.presentation)}
      </Text>
    </div>
  );
}

export function AlertsPanel({
  pharmacy,
  only,
}: {
  pharmacy: string;
  /** One half only (the pharmacist's home, decision 0070): the stock alerts, or the expiries. */
  only?: 'stock' | 'expiries';
}) {
  const { t } = useTranslation('pharmacy');
  const query = useStockAlerts(pharmacy);
  if (query.isPending) return <Skeleton h={200} />;
  if (query.isError) return <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  const { out, low, expiring, expired, expiring_days } = query.data;
  const items = (list: TStockItem[], withLevel: boolean) => (
    <Table verticalSpacing={4}>
      <Table.Tbody>
        {list.map((item) => (
          <Table.Tr key={item.presentation.id} data-testid="alert-row">
            <Table.Td>
              <MedicineCell item={item} />
            </Table.Td>
            <Table.Td ta="right">
              {withLevel
                ? t('alerts.belowLevel', { count: item.on_hand, level: item.reorder_level ?? 0 })
                : t('alerts.none')}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
  const lots = (list: TLot[]) => (
    <Table verticalSpacing={4}>
      <Table.Tbody>
        {list.map((lot) => (
          <Table.Tr key={lot.id} data-testid="alert-row">
            <Table.Td>
              <MedicineCell item={lot} />
            </Table.Td>
            <Table.Td>
              {t('lots.number')} {lot.lot_number} · {lot.on_hand}
            </Table.Td>
            <Table.Td ta="right">
              <Text size="sm" c={lot.expired ? 'red' : 'orange'} fw={600}>
                {lot.expired
                  ? t('flags.expired')
                  : t('alerts.expiresOn', { date: formatDate(lot.expiry_date) })}
              </Text>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
  // The groups, each in the view that shows it (`only`); the expired lots only when there are some.
  const sections: {
    key: string;
    view: 'stock' | 'expiries';
    shown?: boolean;
    title: string;
    color: string;
    icon: ReactNode;
    count: number;
    testId: string;
    empty: string;
    body: ReactNode;
  }[] = [
    {
      key: 'out',
      view: 'stock',
      title: t('alerts.out'),
      color: 'red',
      icon: <IconAlertTriangle size={18} color="var(--mantine-color-red-6)" />,
      count: out.length,
      testId: 'alerts-out',
      empty: t('alerts.outEmpty'),
      body: items(out, false),
    },
    {
      key: 'low',
      view: 'stock',
      title: t('alerts.low'),
      color: 'orange',
      icon: <IconTrendingDown size={18} color="var(--mantine-color-orange-6)" />,
      count: low.length,
      testId: 'alerts-low',
      empty: t('alerts.lowEmpty'),
      body: items(low, true),
    },
    {
      key: 'expiring',
      view: 'expiries',
      title: t('alerts.expiring', { count: expiring_days }),
      color: 'yellow',
      icon: <IconCalendarTime size={18} color="var(--mantine-color-yellow-7)" />,
      count: expiring.length,
      testId: 'alerts-expiring',
      empty: t('alerts.expiringEmpty'),
      body: lots(expiring),
    },
    {
      key: 'expired',
      view: 'expiries',
      shown: expired.length > 0,
      title: t('alerts.expired'),
      color: 'red',
      icon: <IconCalendarTime size={18} color="var(--mantine-color-red-6)" />,
      count: expired.length,
      testId: 'alerts-expired',
      empty: '',
      body: lots(expired),
    },
  ];
  return (
    <SimpleGrid
      cols={{ base: 1, lg: only ? (only === 'stock' ? 2 : 1) : 3 }}
      spacing="md"
      data-testid="alerts-panel"
    >
      {sections
        .filter((section) => (!only || section.view === only) && section.shown !== false)
        .map(({ key, body, view: _view, shown: _shown, ...section }) => (
          <Section key={key} {...section}>
            {body}
          </Section>
        ))}
    </SimpleGrid>
  );
}
