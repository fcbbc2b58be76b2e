/**
 * The ward view (issue 20): the patients of the chosen department or ward — inpatients in their beds and
 * emergency visits kept under observation — with the NEWS2 of their latest vitals in its colour, the late tasks
 * and overdue doses (in red), what is still due in the shift, and the doctor. A row opens the patient's care file
 * (opening the plan first when nobody has yet).
 */
import type { TCarePatient } from '@greensen/shared/contracts/care';
import { Badge, Group, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { News2Badge } from '../../../lib/clinical/components/care/News2Badge';
import { PagedQueryTable } from '../../../lib/clinical/components/PagedTable';
import { PatientCell } from '../../../lib/clinical/components/PatientBanner';
import { formatTime } from '../../../lib/format';
import { type Scope, useCarePatients } from '../api/care-file';
import { useOpenCareFile } from './useOpenCareFile';

const PAGE_SIZE = 25;

export function WardPatients({ scope }: { scope: Scope }) {
  const { t } = useTranslation('care');
  const [page, setPage] = useState(1);
  const query = useCarePatients(scope, page, PAGE_SIZE);
  const open = useOpenCareFile();
  return (
    <PagedQueryTable<TCarePatient>
      query={query}
      page={page}
      onPageChange={setPage}
      pageSize={PAGE_SIZE}
      noRecordsText={t('ward.empty')}
      idAccessor={(p) => p.hospitalization ?? p.admission ?? p.patient.id}
      onRowClick={({ record }) => open(record)}
      rowStyle={(p) =>
        p.overdue > 0 ? { boxShadow: 'inset 4px 0 0 var(--mantine-color-red-6)' } : undefined
      }
      columns={[
        {
          accessor: 'place',
          title: t('ward.columns.bed'),
          render: (p) =>
            p.place ? (
              <div>
                <Text fw={700}>{t('place', { room: p.place.room.name, bed: p.place.bed.label })}</Text>
                <Text size="xs" c="dimmed">
                  {p.place.ward.name}
                </Text>
              </div>
            ) : (
              <Text size="sm" c="dimmed">
                {p.admission && !p.hospitalization ? t('ward.emergency') : t('noBed')}
              </Text>
            ),
        },
        {
          accessor: 'patient',
          title: t('ward.columns.patient'),
          render: (p) => <PatientCell patient={p.patient} />,
        },
        {
          accessor: 'news2',
          title: 'NEWS2',
          render: (p) =>
            p.news2 ? (
              <div>
                <News2Badge
                  score={p.news2.score}
                  risk={p.news2.risk}
                  complete={p.news2.complete}
                  testId="ward-news2"
                />
                <Text size="xs" c="dimmed">
                  {formatTime(p.news2.recorded_at)}
                </Text>
              </div>
            ) : (
              <Text size="sm" c="dimmed">
                {t('ward.noVitals')}
              </Text>
            ),
        },
        {
          accessor: 'overdue',
          title: t('ward.columns.tasks'),
          render: (p) => (
            <Group gap={4}>
              {p.overdue > 0 && (
                <Badge color="red" leftSection={<IconAlertTriangle size={12} />} data-testid="ward-overdue">
                  {t('ward.overdue', { count: p.overdue })}
                </Badge>
              )}
              {p.due > 0 ? (
                <Badge color="blue" variant="light">
                  {t('ward.due', { count: p.due })}
                </Badge>
              ) : (
                p.overdue === 0 && (
                  <Text size="sm" c="dimmed">
                    {t('ward.nothingDue')}
                  </Text>
                )
              )}
            </Group>
          ),
        },
        {
          accessor: 'doctor',
          title: t('ward.columns.doctor'),
          render: (p) => <Text size="sm">{p.doctor?.full_name ?? '—'}</Text>,
        },
      ]}
    />
  );
}
