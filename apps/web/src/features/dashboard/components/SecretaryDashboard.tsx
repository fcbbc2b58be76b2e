/**
 * Secretary / queue manager dashboard "Patient Assignment" (spec §6): unassigned (waiting visits of the
 * hospital by triage level then arrival, each with "Affecter"), doctor-workloads (by current load),
 * departments (per-department queue counts), and the "Assign Patient" dialog. Refreshed every 15 s by the
 * frame's timer (keys under ['dashboard', 'secretary']).
 */

import type { TAdmission } from '@greensen/shared/contracts/admissions';
import { receivesPatients } from '@greensen/shared/domain/admissions';
import type { Language } from '@greensen/shared/domain/constants';
import type { DashboardConfig } from '@greensen/shared/domain/dashboards';
import { Badge, Button, Group, Text } from '@mantine/core';
import { IconUserCheck } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { DataTable } from 'mantine-datatable';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useDepartmentQueues } from '../../../lib/clinical/api/department-queue';
import { fetchAdmissions } from '../../../lib/clinical/api/list-admissions';
import { type Department, useDepartments } from '../../../lib/clinical/api/list-departments';
import { byLoad, currentLoad, type Doctor, fetchDoctors } from '../../../lib/clinical/api/list-doctors';
import { PagedTable } from '../../../lib/clinical/components/PagedTable';
import { PatientCell } from '../../../lib/clinical/components/PatientBanner';
import { TriageLevelBadge } from '../../../lib/clinical/components/TriageLevelBadge';
import { WaitedCell } from '../../../lib/clinical/components/WaitedCell';
import { formatMinutes, formatTime } from '../../../lib/format';
import { LoadError } from '../../../lib/page-states';
import { usePermissions } from '../../../lib/permissions';
import { useLocalizedPath } from '../../../lib/use-localized-path';
import { useAuthStore } from '../../../stores/auth';
import { DashboardFrame } from './DashboardFrame';

// The dialog (with the form validation it brings) loads when it first opens: not part of the dashboard's load.
const AssignPatientModal = lazy(() =>
  import('../../../lib/clinical/components/AssignPatientModal').then((module) => ({
    default: module.AssignPatientModal,
  })),
);

const PAGE_SIZE = 20;
const SCOPE = ['dashboard', 'secretary'] as const;

function UnassignedTab({
  onAssign,
  canAssign,
}: {
  onAssign: (admissionId: string) => void;
  canAssign: boolean;
}) {
  const { t } = useTranslation('dashboard');
  const navigate = useNavigate();
  const to = useLocalizedPath();
  const [page, setPage] = useState(1);
  const currentHospitalId = useAuthStore((state) => state.currentHospitalId);
  const query = useQuery({
    queryKey: [...SCOPE, currentHospitalId, 'unassigned', page],
    queryFn: ({ signal }) =>
      fetchAdmissions({ status: ['waiting'], ordering: 'queue', page, pageSize: PAGE_SIZE }, signal),
  });
  if (query.isError) return <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  const target = (a: TAdmission) => a.triage?.target_minutes ?? null;
  return (
    <PagedTable<TAdmission>
      minHeight={(query.data?.results.length ?? 0) === 0 ? 180 : undefined}
      fetching={query.isFetching && !query.data}
      pageSize={PAGE_SIZE}
      data={query.data}
      page={page}
      onPageChange={setPage}
      noRecordsText={t('secretary.unassignedEmpty')}
      onRowClick={({ record }) => navigate(to(`/admissions/${record.id}`))}
      columns={[
        {
          accessor: 'triage',
          title: t('secretary.level'),
          render: (a) => <TriageLevelBadge level={a.triage?.level} targetMinutes={target(a)} />,
        },
        {
          accessor: 'patient',
          title: t('secretary.patient'),
          render: (a) => <PatientCell patient={a.patient} />,
        },
        {
          accessor: 'department',
          title: t('secretary.department'),
          visibleMediaQuery: (theme) => `(min-width: ${theme.breakpoints.sm})`,
          render: (a) => (
            <div>
              <Text size="sm">{a.department.name}</Text>
              <Text size="xs" c="dimmed">
                #{a.queue_number} · {formatTime(a.admitted_at)}
              </Text>
            </div>
          ),
        },
        {
          accessor: 'waited_minutes',
          title: t('secretary.waited'),
          render: (a) => {
            const limit = target(a);
            return (
              <WaitedCell
                waited={a.waited_minutes}
                target={limit}
                exceeded={limit !== null && a.waited_minutes > limit}
              />
            );
          },
        },
        {
          accessor: 'actions',
          title: '',
          textAlign: 'right',
          hidden: !canAssign,
          render: (a) => (
            <Group justify="flex-end">
              <Button
                size="xs"
                leftSection={<IconUserCheck size={14} />}
                onClick={(event) => {
                  event.stopPropagation();
                  onAssign(a.id);
                }}
              >
                {t('secretary.assign')}
              </Button>
            </Group>
          ),
        },
      ]}
    />
  );
}

function WorkloadsTab() {
  const { t } = useTranslation('dashboard');
  const navigate = useNavigate();
  const to = useLocalizedPath();
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  const query = useQuery({
    queryKey: [...SCOPE, hospitalId, 'doctors'],
    queryFn: ({ signal }) => fetchDoctors({ ordering: 'load', page: 1, pageSize: 100 }, signal),
  });
  if (query.isError) return <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  return (
    <DataTable<Doctor>
      minHeight={(query.data?.results.length ?? 0) === 0 ? 180 : undefined}
      highlightOnHover
      verticalSpacing="sm"
      fetching={query.isFetching && !query.data}
      records={byLoad(query.data?.results ?? [])}
      noRecordsText={t('secretary.noDoctors')}
      onRowClick={({ record }) => navigate(to(`/doctors/${record.id}`))}
      columns={[
        {
          accessor: 'full_name',
          title: t('secretary.doctor'),
          render: (d) => (
            <div>
              <Text size="sm" fw={600}>
                {`${d.title_prefix} ${d.full_name}`.trim()}
              </Text>
              <Text size="xs" c="dimmed">
                {d.departments.map((dep) => dep.name).join(', ')}
              </Text>
            </div>
          ),
        },
        {
          accessor: 'load',
          title: t('secretary.load'),
          textAlign: 'center',
          render: (d) => {
            const load = currentLoad(d.workload);
            return (
              <Badge color={load === 0 ? 'green' : load < 4 ? 'yellow' : 'red'} variant="light">
                {load}
              </Badge>
            );
          },
        },
        {
          accessor: 'waiting',
          title: t('secretary.waiting'),
          textAlign: 'center',
          render: (d) => d.workload.waiting,
        },
        {
          accessor: 'in_progress',
          title: t('secretary.inProgress'),
          textAlign: 'center',
          render: (d) => d.workload.in_progress,
        },
        {
          accessor: 'completed',
          title: t('secretary.completed'),
          textAlign: 'center',
          render: (d) => d.workload.completed_today,
        },
        {
          accessor: 'average',
          title: t('secretary.average'),
          textAlign: 'center',
          visibleMediaQuery: (theme) => `(min-width: ${theme.breakpoints.sm})`,
          render: (d) => formatMinutes(d.workload.average_consultation_minutes),
        },
      ]}
    />
  );
}

interface DepartmentRow {
  department: Department;
  unassigned: number | null;
  assigned: number | null;
  inProgress: number | null;
  total: number | null;
  failed: boolean;
}

function DepartmentsTab() {
  const { t } = useTranslation('dashboard');
  const departments = useDepartments();
  const care = (departments.data?.results ?? []).filter((d) => d.is_active && receivesPatients(d.kind));
  const queues = useDepartmentQueues(
    care.map((d) => d.id),
    SCOPE,
  );
  if (departments.isError)
    return <LoadError error={departments.error} onRetry={() => void departments.refetch()} />;
  const rows: DepartmentRow[] = care.map((department, index) => {
    const q = queues[index];
    const results = q?.data?.results;
    const countOf = (status: string) => (results ? results.filter((e) => e.status === status).length : null);
    return {
      department,
      unassigned: countOf('unassigned'),
      assigned: countOf('assigned'),
      inProgress: countOf('in_progress'),
      total: q?.data?.count ?? null,
      failed: Boolean(q?.isError),
    };
  });
  const cell = (value: number | null, color: string) =>
    value === null ? (
      '—'
    ) : (
      <Badge variant={value > 0 ? 'light' : 'outline'} color={value > 0 ? color : 'gray'}>
        {value}
      </Badge>
    );
  return (
    <DataTable<DepartmentRow>
      idAccessor={(row) => row.department.id}
      minHeight={rows.length === 0 ? 180 : undefined}
      verticalSpacing="sm"
      fetching={departments.isPending}
      records={rows}
      noRecordsText={t('secretary.noDepartments')}
      columns={[
        {
          accessor: 'department',
          title: t('secretary.department'),
          render: (row) => (
            <Text size="sm" fw={600}>
              {row.department.name}
            </Text>
          ),
        },
        {
          accessor: 'unassigned',
          title: t('secretary.unassignedCount'),
          textAlign: 'center',
          render: (r) => cell(r.unassigned, 'yellow'),
        },
        {
          accessor: 'assigned',
          title: t('secretary.assignedCount'),
          textAlign: 'center',
          render: (r) => cell(r.assigned, 'blue'),
        },
        {
          accessor: 'inProgress',
          title: t('secretary.inProgress'),
          textAlign: 'center',
          render: (r) => cell(r.inProgress, 'violet'),
        },
        {
          accessor: 'total',
          title: t('secretary.total'),
          textAlign: 'center',
          render: (r) => (r.failed ? t('secretary.queueFailed') : (r.total ?? '—')),
        },
      ]}
    />
  );
}

export function SecretaryDashboard({
  config,
  lang,
  hospitalId,
}: {
  config: DashboardConfig;
  lang: Language;
  hospitalId: string | null;
}) {
  const { can } = usePermissions();
  const canAssign = can('patient.assign');
  const [dialog, setDialog] = useState<{ admissionId: string | null } | null>(null);

  const primary =
    canAssign && config.primaryAction ? (
      <Button leftSection={<IconUserCheck size={18} />} onClick={() => setDialog({ admissionId: null })}>
        {config.primaryAction[lang]}
      </Button>
    ) : undefined;

  return (
    <>
      <DashboardFrame
        config={config}
        lang={lang}
        hospitalId={hospitalId}
        primaryAction={primary}
        panels={{
          unassigned: (
            <UnassignedTab canAssign={canAssign} onAssign={(admissionId) => setDialog({ admissionId })} />
          ),
          'doctor-workloads': <WorkloadsTab />,
          departments: <DepartmentsTab />,
        }}
      />
      {dialog !== null && (
        <Suspense fallback={null}>
          <AssignPatientModal opened admissionId={dialog.admissionId} onClose={() => setDialog(null)} />
        </Suspense>
      )}
    </>
  );
}
