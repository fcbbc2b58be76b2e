/**
 * The patient record's consultations tab: the patient's consultations the user may read (the server
 * applies the consultation-access rule), paginated — date, doctor, primary diagnosis, status — and
 * "Nouvelle consultation" for practitioners. Shown only to users the consultations module is open to.
 */
import { canAccessModule } from '@greensen/shared/domain/access';
import { DEFAULT_ENVIRONMENT } from '@greensen/shared/domain/modules';
import { Button, Group, Stack } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAuthStore } from '../../../stores/auth';
import { rolesInHospital, useUserStore } from '../../../stores/user';
import { useAppConfig } from '../../app-config';
import { LoadError } from '../../page-states';
import { usePermissions } from '../../permissions';
import { useLocalizedPath } from '../../use-localized-path';
import { useConsultations } from '../api/list-consultations';
import { ConsultationsTable } from './ConsultationsTable';

const PAGE_SIZE = 10;

/** Whether the consultations module is open to the user (secretaries: no; specification §6). */
export function useConsultationsAllowed(): boolean {
  const user = useUserStore((state) => state.user);
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  const environment = useAppConfig()?.environment ?? DEFAULT_ENVIRONMENT;
  return canAccessModule({
    moduleName: 'consultations',
    environment,
    user: rolesInHospital(user, hospitalId),
  }).allowed;
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
