/** The consultations behind a figure (GET /api/stats/drilldown/), paginated, each opening its record. */
import { Anchor, Modal, Pagination, Skeleton, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../../../lib/format';
import { LoadError } from '../../../lib/page-states';
import { useLocalizedPath } from '../../../lib/use-localized-path';
import { type DrilldownTarget, type StatsFilters, useDrilldown } from '../api/stats';

export function DrilldownModal({
  filters,
  target,
  onClose,
}: {
  filters: StatsFilters;
  target: DrilldownTarget | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('analytics');
  const to = useLocalizedPath();
  const [page, setPage] = useState(1);
  const query = useDrilldown(filters, target, page);
  const pages = Math.max(1, Math.ceil((query.data?.count ?? 0) / 20));
  return (
    <Modal
      opened={target !== null}
      onClose={() => {
        setPage(1);
        onClose();
      }}
      title={target ? t('drilldown.title', { label: target.label }) : ''}
      size="xl"
    >
      {query.isPending ? (
        <Skeleton height={200} />
      ) : query.isError ? (
        <LoadError error={query.error} onRetry={() => void query.refetch()} />
      ) : query.data.count === 0 ? (
        <Text c="dimmed">{t('drilldown.empty')}</Text>
      ) : (
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {t('drilldown.count', { count: query.data.count })}
          </Text>
          <Table striped withTableBorder data-testid="drilldown-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('drilldown.date')}</Table.Th>
                <Table.Th>{t('drilldown.patient')}</Table.Th>
                <Table.Th>{t('drilldown.diagnosis')}</Table.Th>
                <Table.Th>{t('drilldown.doctor')}</Table.Th>
                <Table.Th>{t('drilldown.department')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {query.data.results.map((row) => (
                <Table.Tr key={row.consultation}>
                  <Table.Td>
                    <Anchor component={Link} to={to(`/consultations/${row.consultation}`)}>
                      {formatDateTime(row.started_at)}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    {row.patient.full_name} ({row.patient.record_number}) ·{' '}
                    {t(`age.${row.patient.age_group}`)}
                  </Table.Td>
                  <Table.Td>
                    {row.diagnosis.code} {row.diagnosis.label} · {t(`certainty.${row.diagnosis.certainty}`)}
                  </Table.Td>
                  <Table.Td>{row.doctor.full_name}</Table.Td>
                  <Table.Td>{row.department.name}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {pages > 1 && <Pagination total={pages} value={page} onChange={setPage} size="sm" />}
        </Stack>
      )}
    </Modal>
  );
}
