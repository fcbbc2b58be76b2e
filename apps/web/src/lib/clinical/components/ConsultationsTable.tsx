/**
 * A server-paginated table of consultations (the /consultations lists and the patient record's tab): when,
 * patient (with allergies), department, doctor, primary diagnosis, status and outcome. A row opens the
 * consultation.
 */
import type { TConsultationListItem } from '@greensen/shared/contracts/consultations';
import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { formatDateTime, formatTime } from '../../format';
import { useLocalizedPath } from '../../use-localized-path';
import { ConsultationStatusBadge, DiagnosisText } from './ConsultationBadges';
import { PagedTable } from './PagedTable';
import { PatientCell } from './PatientBanner';

export function ConsultationsTable({
  data,
  page,
  pageSize,
  onPageChange,
  fetching,
  emptyText,
  showPatient = true,
}: {
  data: { results: TConsultationListItem[]; count: number } | undefined;
  page: number;
  pageSize: number;
  onPageChange: (page: number) => void;
  fetching: boolean;
  emptyText: string;
  /** False on the patient's own record. */
  showPatient?: boolean;
}) {
  const { t } = useTranslation('consultations');
  const navigate = useNavigate();
  const to = useLocalizedPath();
  return (
    <PagedTable<TConsultationListItem>
      data={data}
      page={page}
      pageSize={pageSize}
      onPageChange={onPageChange}
      fetching={fetching}
      noRecordsText={emptyText}
      onRowClick={({ record }) => navigate(to(`/consultations/${record.id}`))}
      columns={[
        {
          accessor: 'started_at',
          title: t('columns.date'),
          width: 130,
          render: (c) => (
            <div>
              <Text size="sm">{formatDateTime(c.started_at)}</Text>
              {c.completed_at && (
                <Text size="xs" c="dimmed">
                  {t('columns.endedAt', { time: formatTime(c.completed_at) })}
                </Text>
              )}
            </div>
          ),
        },
        ...(showPatient
          ? [
              {
                accessor: 'patient',
                title: t('columns.patient'),
                render: (c: TConsultationListItem) => <PatientCell patient={c.patient} />,
              },
            ]
          : []),
        {
          accessor: 'doctor',
          title: t('columns.doctor'),
          visibleMediaQuery: (theme) => `(min-width: ${theme.breakpoints.md})`,
          render: (c) => (
            <div>
              <Text size="sm">{c.doctor.full_name}</Text>
              <Text size="xs" c="dimmed">
                {c.department.name}
              </Text>
            </div>
          ),
        },
        {
          accessor: 'primary_diagnosis',
          title: t('columns.diagnosis'),
          render: (c) =>
            c.primary_diagnosis ? (
              <DiagnosisText diagnosis={c.primary_diagnosis} lineClamp={2} />
            ) : (
              <Text size="sm" c="dimmed">
                {c.reason ?? '—'}
              </Text>
            ),
        },
        {
          accessor: 'status',
          title: t('columns.status'),
          render: (c) => (
            <div>
              <ConsultationStatusBadge status={c.status} />
              {c.outcome && (
                <Text size="xs" c="dimmed" mt={2}>
                  {t(`outcome.${c.outcome}`)}
                </Text>
              )}
            </div>
          ),
        },
      ]}
    />
  );
}
