/**
 * The prescriptions tab of a patient's record (issue 18): every prescription of the patient, newest first —
 * number, date, prescriber, medicines, status — opening the prescription's page. Users without the pharmacy
 * module see why it is empty.
 */
import { Anchor, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { formatDateTime } from '../../format';
import { LoadError } from '../../page-states';
import { useLocalizedPath } from '../../use-localized-path';
import { type TPrescriptionListItem, usePrescriptions } from '../api/prescriptions';
import { PagedTable } from './PagedTable';
import { PrescriptionStatusBadge } from './PrescriptionBadges';
import { usePharmacyAllowed } from './prescription-format';

const PAGE_SIZE = 10;

export function PatientPrescriptionsPanel({ patientId }: { patientId: string }) {
  const { t } = useTranslation('pharmacy');
  const to = useLocalizedPath();
  const navigate = useNavigate();
  const allowed = usePharmacyAllowed();
  const [page, setPage] = useState(1);
  const query = usePrescriptions({ patient: patientId, status: 'all', page, pageSize: PAGE_SIZE }, allowed);
  if (!allowed) return <Text c="dimmed">{t('patientTab.notAllowed')}</Text>;
  if (query.isError) return <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  const open = (p: TPrescriptionListItem) => navigate(to(`/pharmacy/prescriptions/${p.id}`));
  return (
    <Stack gap="sm" data-testid="patient-prescriptions">
      <PagedTable<TPrescriptionListItem>
        data={query.data}
        page={page}
        onPageChange={setPage}
        pageSize={PAGE_SIZE}
        fetching={query.isFetching}
        noRecordsText={t('patientTab.empty')}
        onRowClick={({ record }) => open(record)}
        columns={[
          {
            accessor: 'number',
            title: t('columns.number'),
            render: (p) => (
              <Anchor component={Link} to={to(`/pharmacy/prescriptions/${p.id}`)} size="sm" fw={600}>
                {p.number}
              </Anchor>
            ),
          },
          {
            accessor: 'created_at',
            title: t('columns.date'),
            render: (p) => formatDateTime(p.signed_at ?? p.created_at),
          },
          { accessor: 'summary', title: t('columns.medicines') },
          { accessor: 'prescriber', title: t('columns.prescriber'), render: (p) => p.prescriber.full_name },
          {
            accessor: 'status',
            title: t('columns.status'),
            render: (p) => <PrescriptionStatusBadge status={p.status} size="xs" />,
          },
        ]}
      />
    </Stack>
  );
}
