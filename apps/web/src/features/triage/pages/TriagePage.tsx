/**
 * /triage: the live waiting room — not yet triaged first, then by triage level and arrival — refreshed every
 * 30 s; the time waited against the level's target delay is highlighted in red when exceeded. "Trier" opens the
 * triage form.
 */
import { Badge, Button, Group, Paper, Select, Stack, Text, Tooltip } from '@mantine/core';
import { IconClockHour4, IconHeartbeat } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useDepartments } from '../../../lib/clinical/api/list-departments';
import {
  useWaitingRoom,
  WAITING_ROOM_REFRESH_MS,
  type WaitingRoomEntry,
} from '../../../lib/clinical/api/waiting-room';
import { AdmissionStatusBadge } from '../../../lib/clinical/components/AdmissionStatusBadge';
import { PagedTable } from '../../../lib/clinical/components/PagedTable';
import { PatientCell } from '../../../lib/clinical/components/PatientBanner';
import { TriageLevelBadge } from '../../../lib/clinical/components/TriageLevelBadge';
import { TriageModal } from '../../../lib/clinical/components/TriageModal';
import { WaitedCell } from '../../../lib/clinical/components/WaitedCell';
import { formatTime } from '../../../lib/format';
import { LoadError, PageHeader } from '../../../lib/page-states';
import { usePermissions } from '../../../lib/permissions';
import { useLocalizedPath } from '../../../lib/use-localized-path';

const PAGE_SIZE = 25;

export default function TriagePage() {
  const { t } = useTranslation('triage');
  const navigate = useNavigate();
  const to = useLocalizedPath();
  const { can } = usePermissions();
  const departments = useDepartments();
  const [department, setDepartment] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const [triaging, setTriaging] = useState<WaitingRoomEntry | null>(null);
  const query = useWaitingRoom({ department, page, pageSize: PAGE_SIZE });
  const canTriage = can('triage.record');

  return (
    <Stack gap="md">
      <PageHeader
        title={t('waitingRoom.title')}
        subtitle={t('waitingRoom.subtitle')}
        actions={
          <>
            {query.data && (
              <Badge variant="light" size="lg">
                {t(`scales.${query.data.scale}`)}
              </Badge>
            )}
            <Tooltip label={t('waitingRoom.refresh', { seconds: WAITING_ROOM_REFRESH_MS / 1000 })}>
              <Badge variant="light" color="gray" size="lg" leftSection={<IconClockHour4 size={14} />}>
                {WAITING_ROOM_REFRESH_MS / 1000} s
              </Badge>
            </Tooltip>
          </>
        }
      />
      <Select
        label={t('waitingRoom.department')}
        placeholder={t('waitingRoom.allDepartments')}
        data={(departments.data?.results ?? []).map((d) => ({ value: d.id, label: d.name }))}
        value={department}
        onChange={(value) => {
          setDepartment(value);
          setPage(1);
        }}
        clearable
        maw={320}
      />
      {query.isError ? (
        <LoadError error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <Paper withBorder radius="md">
          <PagedTable<WaitingRoomEntry>
            idAccessor="admission_id"
            fetching={query.isFetching && !query.data}
            pageSize={PAGE_SIZE}
            data={query.data}
            page={page}
            onPageChange={setPage}
            noRecordsText={t('waitingRoom.empty')}
            onRowClick={({ record }) => navigate(to(`/admissions/${record.admission_id}`))}
            rowStyle={(record) =>
              record.target_exceeded ? { backgroundColor: 'var(--mantine-color-red-light)' } : undefined
            }
            columns={[
              {
                accessor: 'triage',
                title: t('waitingRoom.level'),
                render: (r) => (
                  <TriageLevelBadge level={r.triage?.level} targetMinutes={r.triage?.target_minutes} />
                ),
              },
              {
                accessor: 'patient',
                title: t('waitingRoom.patient'),
                render: (r) => <PatientCell patient={r.patient} />,
              },
              {
                accessor: 'complaint',
                title: t('waitingRoom.complaint'),
                render: (r) => (
                  <div>
                    <Text size="sm" lineClamp={2}>
                      {r.triage?.chief_complaint || r.reason || '—'}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {r.department.name} · #{r.queue_number}
                    </Text>
                  </div>
                ),
              },
              {
                accessor: 'admitted_at',
                title: t('waitingRoom.arrival'),
                width: 90,
                visibleMediaQuery: (theme) => `(min-width: ${theme.breakpoints.sm})`,
                render: (r) => formatTime(r.admitted_at),
              },
              {
                accessor: 'waited_minutes',
                title: t('waitingRoom.waited'),
                render: (r) => (
                  <WaitedCell
                    waited={r.waited_minutes}
                    target={r.triage?.target_minutes}
                    exceeded={r.target_exceeded}
                  />
                ),
              },
              {
                accessor: 'status',
                title: t('waitingRoom.status'),
                width: 150,
                visibleMediaQuery: (theme) => `(min-width: ${theme.breakpoints.md})`,
                render: (r) => (
                  <Stack gap={2} align="flex-start">
                    <AdmissionStatusBadge status={r.status} size="xs" />
                    {r.doctor && (
                      <Text size="xs" c="dimmed">
                        {r.doctor.full_name}
                      </Text>
                    )}
                  </Stack>
                ),
              },
              {
                accessor: 'actions',
                title: '',
                textAlign: 'right',
                hidden: !canTriage,
                render: (r) => (
                  <Group justify="flex-end">
                    <Button
                      size="xs"
                      variant={r.triage ? 'default' : 'filled'}
                      leftSection={<IconHeartbeat size={14} />}
                      onClick={(event) => {
                        event.stopPropagation();
                        setTriaging(r);
                      }}
                    >
                      {r.triage ? t('waitingRoom.retriage') : t('waitingRoom.triage')}
                    </Button>
                  </Group>
                ),
              },
            ]}
          />
        </Paper>
      )}
      <TriageModal
        admission={
          triaging ? { id: triaging.admission_id, patient: triaging.patient, reason: triaging.reason } : null
        }
        onClose={() => setTriaging(null)}
      />
    </Stack>
  );
}
