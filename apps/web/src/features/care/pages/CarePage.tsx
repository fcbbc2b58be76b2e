/**
 * /care (Soins, issue 20): the care of a department or ward. Tabs: the patients (ward view: NEWS2, late tasks,
 * doses due), the round (the vitals of every patient in one screen, live NEWS2), the ward's tasks of the shift
 * (done, not done, reassigned — the charge nurse's view), and the handoffs not yet acknowledged.
 *
 * `/care?stay=<hospitalization id>` (or `?admission=<id>`, an emergency visit) is how other pages link to a
 * patient's care file without knowing its plan: the plan is opened (the existing one or a new one) and the page
 * goes on to /care/<plan>.
 */
import { Alert, Center, Loader, Pagination, Paper, SegmentedControl, Stack, Tabs, Text } from '@mantine/core';
import { IconClipboardText, IconHeartbeat, IconListCheck, IconUsers } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { HandoffList } from '../../../lib/clinical/components/care/Handoffs';
import { nursesOf, TaskList, useSelfAsNurse } from '../../../lib/clinical/components/care/TaskList';
import { LoadError, PageHeader } from '../../../lib/page-states';
import { useLocalizedPath } from '../../../lib/use-localized-path';
import { type Scope, useOpenPlan, usePrefetchWardMar, useWardExecutions } from '../api/care-file';
import { RoundPanel } from '../components/RoundPanel';
import { ScopePicker } from '../components/ScopePicker';
import { WardPatients } from '../components/WardPatients';

const TASKS_PAGE = 30;

function OpeningPlan({ target }: { target: { hospitalization?: string; admission?: string } }) {
  const { t } = useTranslation('care');
  const navigate = useNavigate();
  const to = useLocalizedPath();
  const open = useOpenPlan();
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    open.mutate(target, { onSuccess: (plan) => navigate(to(`/care/${plan.id}`), { replace: true }) });
  }, [open, target, navigate, to]);
  if (open.isError) return <LoadError error={open.error} onRetry={() => open.mutate(target)} />;
  return (
    <Center py="xl" data-testid="opening-plan">
      <Stack align="center" gap="xs">
        <Loader />
        <Text c="dimmed">{t('opening')}</Text>
      </Stack>
    </Center>
  );
}

function WardTasks({ scope }: { scope: Scope }) {
  const { t } = useTranslation('care');
  const self = useSelfAsNurse();
  const [status, setStatus] = useState<'open' | 'all'>('open');
  const [page, setPage] = useState(1);
  const query = useWardExecutions(scope, status, page, TASKS_PAGE);
  const tasks = (query.data?.results ?? []).map((execution) => ({
    type: 'execution' as const,
    scheduled_at: execution.scheduled_at,
    late: execution.late,
    execution,
  }));
  const pages = query.data ? Math.max(1, Math.ceil(query.data.count / TASKS_PAGE)) : 1;
  return (
    <Stack gap="sm">
      <SegmentedControl
        size="md"
        value={status}
        onChange={(value) => {
          setStatus(value as 'open' | 'all');
          setPage(1);
        }}
        data={[
          { value: 'open', label: t('tasks.status.open') },
          { value: 'all', label: t('tasks.status.all') },
        ]}
        style={{ alignSelf: 'flex-start' }}
      />
      {query.isError ? (
        <LoadError error={query.error} onRetry={() => void query.refetch()} />
      ) : query.isPending ? (
        <Center py="lg">
          <Loader />
        </Center>
      ) : (
        <TaskList
          tasks={tasks}
          currentUser={self}
          nurses={nursesOf(tasks)}
          emptyText={status === 'open' ? t('tasks.emptyOpen') : t('tasks.empty')}
        />
      )}
      {pages > 1 && <Pagination size="md" total={pages} value={page} onChange={setPage} />}
    </Stack>
  );
}

function WardHandoffs({ scope }: { scope: Scope }) {
  const { t } = useTranslation('care');
  const [page, setPage] = useState(1);
  return (
    <HandoffList
      filters={{ box: 'unacknowledged', department: scope.department, ward: scope.ward, page, pageSize: 20 }}
      onPageChange={setPage}
      emptyText={t('handoffs.empty.unacknowledged')}
    />
  );
}

export default function CarePage() {
  const { t } = useTranslation('care');
  const [params] = useSearchParams();
  const [scope, setScope] = useState<Scope>({ department: null, ward: null });
  const [tab, setTab] = useState<string | null>('patients');
  const stay = params.get('stay');
  const admission = params.get('admission');
  const [target] = useState(() => (stay ? { hospitalization: stay } : admission ? { admission } : null));
  // Her unit's MAR, current and next shift, kept for a network cut (issue 40).
  usePrefetchWardMar(scope);
  if (target) return <OpeningPlan target={target} />;

  return (
    <Stack gap="md">
      <PageHeader title={t('title')} subtitle={t('subtitle')} />
      <ScopePicker scope={scope} onChange={setScope} />
      {scope.department === null ? (
        <Alert color="gray">{t('scope.none')}</Alert>
      ) : (
        <Paper withBorder radius="md" p={0}>
          <Tabs value={tab} onChange={setTab} keepMounted={false}>
            <Tabs.List px="sm" style={{ overflowX: 'auto', flexWrap: 'nowrap' }}>
              <Tabs.Tab value="patients" leftSection={<IconUsers size={16} />}>
                {t('tabs.patients')}
              </Tabs.Tab>
              <Tabs.Tab value="round" leftSection={<IconHeartbeat size={16} />}>
                {t('tabs.round')}
              </Tabs.Tab>
              <Tabs.Tab value="tasks" leftSection={<IconListCheck size={16} />}>
                {t('tabs.tasks')}
              </Tabs.Tab>
              <Tabs.Tab value="handoffs" leftSection={<IconClipboardText size={16} />}>
                {t('tabs.handoffs')}
              </Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="patients" p="sm">
              <WardPatients scope={scope} />
            </Tabs.Panel>
            <Tabs.Panel value="round" p="sm">
              <RoundPanel key={`${scope.department}-${scope.ward}`} scope={scope} />
            </Tabs.Panel>
            <Tabs.Panel value="tasks" p="sm">
              <WardTasks scope={scope} />
            </Tabs.Panel>
            <Tabs.Panel value="handoffs" p="sm">
              <WardHandoffs scope={scope} />
            </Tabs.Panel>
          </Tabs>
        </Paper>
      )}
    </Stack>
  );
}
