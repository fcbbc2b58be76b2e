import { Button, Group, Stack } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LoadError } from '../../page-states';
import { useModuleAllowed, usePermissions } from '../../permissions';
import { useLocalizedPath } from '../../use-localized-path';
import { useConsultations } from '../api/list-consultations';
import { ConsultationsTable } from './ConsultationsTable';

const PAGE_SIZE = 10;

/** Whether the consultations module is open to the user (secretaries: no; specification §6). */
export function useConsultationsAllowed(): boolean {
  return useModuleAllowed('consultations');
}

export function PatientConsultationsPanel({
  patient,
}: {
  patient: { id: string; record_number: string; is_archived?: boolean };
}) {
  const { t } = useTranslation('consultations');
  const to = useLocalizedPath();
  const { can } = usePermissions();
  const [page, setPage] = useState(1);
  const query = useConsultations({ scope: 'all', patient: patient.id, page, pageSize: PAGE_SIZE });
  return (
    <Stack gap="sm">
      {can('consultation.create') && !patient.is_archived && (
        <Group justify="flex-end">
          <Button
            component={Link}
            to={to(
              `/consultations/create?${new URLSearchParams({ patient: patient.id, q: patient.record_number })}`,
            )}
            variant="light"
            leftSection={<IconPlus size={16} />}
          >
            {t('patientTab.new')}
          </Button>
        </Group>
      )}
      {query.isError ? (
        <LoadError error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <ConsultationsTable
          data={query.data}
          page={page}
          pageSize={PAGE_SIZE}
          onPageChange={setPage}
          fetching={query.isFetching}
          emptyText={t('patientTab.empty')}
          showPatient={false}
        />
      )}
    </Stack>
  );
}
