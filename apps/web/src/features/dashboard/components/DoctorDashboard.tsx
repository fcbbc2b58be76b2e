/**
 * Doctor / midwife dashboard "My Patients Today" (spec §6): my-queue (the practitioner's execution queue,
 * by triage level then arrival), completed (today's), schedule (today's appointments), and "Start Next Consultation",
 * which starts the first waiting patient's consultation and opens it. The doctor id is the user's id.
 * Refreshed by the frame's timer (30 s) and by the dashboard refresh flag (keys under ['dashboard']).
 */
import type { Language } from '@greensen/shared/domain/constants';
import type { DashboardConfig } from '@greensen/shared/domain/dashboards';
import { Button, Stack, Text, Tooltip } from '@mantine/core';
import { IconPlayerPlay } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { isApiError } from '../../../lib/api-client';
import { useDoctorQueue } from '../../../lib/clinical/api/doctor-queue';
import { useDoctorWorkload } from '../../../lib/clinical/api/doctor-workload';
import { useStartConsultation } from '../../../lib/clinical/api/start-consultation';
import { ExecutionQueueTable } from '../../../lib/clinical/components/ExecutionQueueTable';
import { WorkloadStats } from '../../../lib/clinical/components/WorkloadStats';
import { loadAllNamespaces } from '../../../lib/i18n';
import { lazyComponent } from '../../../lib/lazy-component';
import { LoadError } from '../../../lib/page-states';
import { usePermissions } from '../../../lib/permissions';
import { toast } from '../../../lib/toast';
import { useLocalizedPath } from '../../../lib/use-localized-path';
import { DOCTOR_DASHBOARD_SCOPE, DOCTOR_QUEUE_PAGE_SIZE } from '../api/doctor-first';
import { DashboardFrame } from './DashboardFrame';
import { loadUrgentResultsCard } from './dashboard-loaders';

const PAGE_SIZE = DOCTOR_QUEUE_PAGE_SIZE;

/**
 * The abnormal results card loads after the dashboard (kept out of the signed-in screen's budget); the app asks for
 * its chunk as it starts on the doctor's home (app/page-prefetch.ts), beside the dashboard's.
 */
const UrgentResultsCard = lazyComponent(loadUrgentResultsCard);
const SCOPE = DOCTOR_DASHBOARD_SCOPE;

/** The schedule tab (today's appointments) loads with the tab, with the strings beyond the first screens'. */
const DoctorSchedulePanel = lazy(() =>
  Promise.all([import('./DoctorSchedulePanel'), loadAllNamespaces()]).then(([m]) => m),
);

export function DoctorDashboard({
  config,
  lang,
  hospitalId,
}: {
  config: DashboardConfig;
  lang: Language;
  hospitalId: string | null;
}) {
  const { t } = useTranslation('dashboard');
  const navigate = useNavigate();
  const to = useLocalizedPath();
  const { userId, can } = usePermissions();
  const [queuePage, setQueuePage] = useState(1);
  const [donePage, setDonePage] = useState(1);
  const queue = useDoctorQueue(userId, { status: 'open', page: queuePage, pageSize: PAGE_SIZE }, SCOPE);
  const completed = useDoctorQueue(
    userId,
    { status: 'completed', page: donePage, pageSize: PAGE_SIZE },
    SCOPE,
  );
  const workload = useDoctorWorkload(userId, SCOPE);
  const start = useStartConsultation();

  const next = queue.data?.results.find((execution) => execution.status === 'assigned') ?? null;
  const allowed = can('consultation.start');

  async function startNext() {
    if (!next) return;
    try {
      const consultation = await start.mutateAsync(next.admission_id);
      toast({ kind: 'success', title: t('doctor.started'), description: next.patient.full_name });
      navigate(to(`/consultations/${consultation.id}`));
    } catch (error) {
      if (isApiError(error) && error.status !== 403 && error.status !== 404)
        toast({ kind: 'error', title: t('doctor.startFailed'), description: error.message });
    }
  }

  const primary = allowed && config.primaryAction && (
    <Tooltip
      label={next ? t('doctor.nextHint', { patient: next.patient.full_name }) : t('doctor.queueEmpty')}
      withArrow
    >
      <Button
        leftSection={<IconPlayerPlay size={18} />}
        disabled={!next}
        loading={start.isPending}
        onClick={() => void startNext()}
        data-testid="start-next-consultation"
      >
        {config.primaryAction[lang]}
      </Button>
    </Tooltip>
  );

  return (
    <DashboardFrame
      config={config}
      lang={lang}
      hospitalId={hospitalId}
      primaryAction={primary || undefined}
      panels={{
        'my-queue': (
          <Stack gap={0}>
            {workload.data && (
              <Stack p="sm">
                <WorkloadStats workload={workload.data} />
              </Stack>
            )}
            <Suspense fallback={null}>
              <UrgentResultsCard refreshInterval={config.refreshInterval} mx="sm" mb="sm" />
            </Suspense>
            {queue.isError ? (
              <LoadError error={queue.error} onRetry={() => void queue.refetch()} />
            ) : (
              <ExecutionQueueTable
                records={queue.data?.results ?? []}
                total={queue.data?.count ?? 0}
                page={queuePage}
                pageSize={PAGE_SIZE}
                onPageChange={setQueuePage}
                fetching={queue.isFetching && !queue.data}
                emptyText={t('doctor.queueEmpty')}
              />
            )}
          </Stack>
        ),
        completed: completed.isError ? (
          <LoadError error={completed.error} onRetry={() => void completed.refetch()} />
        ) : (
          <ExecutionQueueTable
            mode="completed"
            records={completed.data?.results ?? []}
            total={completed.data?.count ?? 0}
            page={donePage}
            pageSize={PAGE_SIZE}
            onPageChange={setDonePage}
            fetching={completed.isFetching && !completed.data}
            emptyText={t('doctor.completedEmpty')}
          />
        ),
        schedule: (
          <Suspense
            fallback={
              <Text c="dimmed" p="lg">
                {t('tabs.schedule.description')}
              </Text>
            }
          >
            <DoctorSchedulePanel />
          </Suspense>
        ),
      }}
    />
  );
}
