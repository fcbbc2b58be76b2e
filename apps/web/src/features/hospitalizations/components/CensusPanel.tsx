/**
 * The census (Recensement): per ward, beds occupied, free, in cleaning and out of service with the occupancy
 * rate (occupied over beds in service), then the hospital's totals and the stays waiting for a bed.
 */
import { Group, Paper, Progress, Skeleton, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { BED_COLORS } from '../../../lib/clinical/components/BedCounts';
import { uiLanguage } from '../../../lib/i18n';
import { LoadError } from '../../../lib/page-states';
import { useCensus } from '../api/board';

function rateColor(rate: number): string {
  if (rate >= 0.95) return 'red';
  if (rate >= 0.85) return 'orange';
  return 'teal';
}

function Rate({ rate }: { rate: number | null }) {
  if (rate === null) return <Text size="sm">—</Text>;
  const percent = new Intl.NumberFormat(uiLanguage() === 'fr' ? 'fr-FR' : 'en-GB', {
    style: 'percent',
    maximumFractionDigits: 0,
  }).format(rate);
  return (
    <Group gap="xs" wrap="nowrap">
      <Progress value={rate * 100} color={rateColor(rate)} w={80} aria-hidden />
      <Text size="sm" fw={600} data-testid="occupancy-rate">
        {percent}
      </Text>
    </Group>
  );
}

const COUNTS = ['occupied', 'free', 'cleaning', 'out_of_service'] as const;

function CountCells({ beds }: { beds: { total: number } & Record<(typeof COUNTS)[number], number> }) {
  return (
    <>
      <Table.Td ta="right">{beds.total}</Table.Td>
      {COUNTS.map((status) => (
        <Table.Td key={status} ta="right" c={beds[status] > 0 ? `${BED_COLORS[status]}.8` : 'dimmed'}>
          {beds[status]}
        </Table.Td>
      ))}
    </>
  );
}

export function CensusPanel() {
  const { t } = useTranslation('hospitalizations');
  const census = useCensus();
  if (census.isError) return <LoadError error={census.error} onRetry={() => void census.refetch()} />;
  if (census.isPending) return <Skeleton h={220} />;
  const { wards, totals } = census.data;
  return (
    <Paper withBorder radius="md">
      <Table.ScrollContainer minWidth={680}>
        <Table striped highlightOnHover verticalSpacing="xs" data-testid="census">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('census.ward')}</Table.Th>
              <Table.Th>{t('census.department')}</Table.Th>
              <Table.Th ta="right">{t('census.total')}</Table.Th>
              {COUNTS.map((status) => (
                <Table.Th key={status} ta="right">
                  {t(`census.${status}`)}
                </Table.Th>
              ))}
              <Table.Th>{t('census.rate')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {wards.length === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={8}>
                  <Text c="dimmed" size="sm">
                    {t('census.empty')}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ) : (
              wards.map((ward) => (
                <Table.Tr key={ward.id}>
                  <Table.Td>
                    <Text size="sm" fw={600}>
                      {ward.name}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {ward.code}
                    </Text>
                  </Table.Td>
                  <Table.Td>{ward.department.name}</Table.Td>
                  <CountCells beds={ward.beds} />
                  <Table.Td>
                    <Rate rate={ward.occupancy_rate} />
                  </Table.Td>
                </Table.Tr>
              ))
            )}
          </Table.Tbody>
          <Table.Tfoot>
            <Table.Tr fw={700} data-testid="census-totals">
              <Table.Td colSpan={2}>
                {t('census.totals')}
                <Text size="xs" c="orange" fw={600}>
                  {t('census.pending', { count: totals.pending })}
                </Text>
              </Table.Td>
              <CountCells beds={totals} />
              <Table.Td>
                <Rate rate={totals.occupancy_rate} />
              </Table.Td>
            </Table.Tr>
          </Table.Tfoot>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
