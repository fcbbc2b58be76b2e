/**
 * The visits timeline of the record page (issue 16): the latest visits the record itself carries (a bounded
 * page, whatever the length of the history) and, when there are more, "see all" pages through
 * `GET /api/admissions/?patient=` — the whole history is never fetched at once.
 */
import type { TPatientDetail } from '@greensen/shared/contracts/patients';
import { Anchor, Button, Group, Pagination, Skeleton, Stack, Text, Timeline } from '@mantine/core';
import { IconCalendarEvent, IconHistory } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAdmissions } from '../../../lib/clinical/api/list-admissions';
import { AdmissionStatusBadge } from '../../../lib/clinical/components/AdmissionStatusBadge';
import { TriageLevelBadge } from '../../../lib/clinical/components/TriageLevelBadge';
import { formatDateTime } from '../../../lib/format';
import { LoadError } from '../../../lib/page-states';
import { useLocalizedPath } from '../../../lib/use-localized-path';

type Visit = TPatientDetail['admissions'][number];

/** Visits per page of the whole history. */
export const VISITS_PAGE_SIZE = 20;

function VisitsTimeline({ visits }: { visits: Visit[] }) {
  const { t } = useTranslation('patients');
  const to = useLocalizedPath();
  return (
    <Timeline bulletSize={22} lineWidth={2} active={visits.length}>
      {visits.map((admission) => (
        <Timeline.Item key={admission.id} bullet={<IconCalendarEvent size={12} />}>
          <Group gap="xs" wrap="wrap">
            <Anchor component={Link} to={to(`/admissions/${admission.id}`)} fw={600}>
              {formatDateTime(admission.admitted_at)} · {admission.department.name}
            </Anchor>
            <AdmissionStatusBadge
              status={admission.status}
              size="xs"
              dischargedAt={admission.discharged_at}
            />
            {admission.triage_level && <TriageLevelBadge level={admission.triage_level} size="xs" />}
          </Group>
          <Text size="sm" c="dimmed">
            {t(`admissions:type.${admission.admission_type}`)} · {admission.reason}
          </Text>
        </Timeline.Item>
      ))}
    </Timeline>
  );
}

/** Every visit of the patient, a page at a time, newest first. */
function AllVisits({ patientId, count }: { patientId: string; count: number }) {
  const [page, setPage] = useState(1);
  const query = useAdmissions({
    patient: patientId,
    ordering: '-admitted_at',
    page,
    pageSize: VISITS_PAGE_SIZE,
  });
  if (query.isError) return <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  const total = query.data?.count ?? count;
  const pages = Math.max(1, Math.ceil(total / VISITS_PAGE_SIZE));
  return (
    <Stack gap="md" data-testid="patient-visits-all">
      {query.data ? (
        <VisitsTimeline
          visits={query.data.results.map((a) => ({
            id: a.id,
            status: a.status,
            admission_type: a.admission_type,
            reason: a.reason,
            admitted_at: a.admitted_at,
            closed_at: a.closed_at,
            discharged_at: a.discharged_at,
            queue_number: a.queue_number,
            department: a.department,
            triage_level: a.triage?.level ?? null,
          }))}
        />
      ) : (
        <Skeleton height={240} />
      )}
      {pages > 1 && <Pagination total={pages} value={page} onChange={setPage} size="sm" />}
    </Stack>
  );
}

export function PatientVisits({
  patient,
}: {
  patient: Pick<TPatientDetail, 'id' | 'admissions' | 'admissions_count'>;
}) {
  const { t } = useTranslation('patients');
  const [all, setAll] = useState(false);
  if (patient.admissions_count === 0) return <Text c="dimmed">{t('tabs.admissions.empty')}</Text>;
  if (all) return <AllVisits patientId={patient.id} count={patient.admissions_count} />;
  return (
    <Stack gap="md">
      <VisitsTimeline visits={patient.admissions} />
      {patient.admissions_count > patient.admissions.length && (
        <Group>
          <Button variant="light" leftSection={<IconHistory size={16} />} onClick={() => setAll(true)}>
            {t('tabs.admissions.all', { total: patient.admissions_count })}
          </Button>
        </Group>
      )}
    </Stack>
  );
}
