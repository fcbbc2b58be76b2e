/**
 * "Accès au dossier": the recent openings of the record (reads of the patient and of their records) from the
 * audit trail — who, with which role, what, when, from where. Shown to administrators and head doctors.
 */
import type { TPatientAccess } from '@greensen/shared/contracts/audit';
import { Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PagedQueryTable } from '../../../lib/clinical/components/PagedTable';
import { formatDateTime } from '../../../lib/format';
import { usePatientAccessLog } from '../api/get-access-log';

const PAGE_SIZE = 10;

export function PatientAccessLog({ patientId }: { patientId: string }) {
  const { t } = useTranslation('patients');
  const [page, setPage] = useState(1);
  const query = usePatientAccessLog(patientId, page, PAGE_SIZE);
  return (
    <Stack gap="sm" data-testid="patient-access-log">
      <Text size="sm" c="dimmed">
        {t('accessLog.hint')}
      </Text>
      <PagedQueryTable<TPatientAccess>
        query={query}
        page={page}
        onPageChange={setPage}
        pageSize={PAGE_SIZE}
        minHeight={160}
        noRecordsText={t('accessLog.empty')}
        columns={[
          {
            accessor: 'occurred_at',
            title: t('accessLog.when'),
            render: (r) => (
              <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                {formatDateTime(r.occurred_at)}
              </Text>
            ),
          },
          {
            accessor: 'user',
            title: t('accessLog.who'),
            render: (r) => (
              <Stack gap={2}>
                <Text size="sm">{r.user?.full_name || t('accessLog.system')}</Text>
                {r.role_code && (
                  <Text size="xs" c="dimmed">
                    {r.role_code}
                  </Text>
                )}
              </Stack>
            ),
          },
          {
            accessor: 'action',
            title: t('accessLog.what'),
            render: (r) => (
              <Text size="sm">
                {t(`accessLog.actions.${r.action.replace(/\./g, '_')}`, { defaultValue: r.action })}
              </Text>
            ),
          },
          {
            accessor: 'ip',
            title: t('accessLog.where'),
            visibleMediaQuery: (theme) => `(min-width: ${theme.breakpoints.sm})`,
            render: (r) => (
              <Text size="xs" ff="monospace">
                {r.ip ?? '—'}
              </Text>
            ),
          },
        ]}
      />
    </Stack>
  );
}
