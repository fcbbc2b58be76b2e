/**
 * /care/:id (issue 20): the care file of a stay or an emergency visit — its plan (the id is the plan's, or the
 * stay's or visit's: the page then takes the plan's address, issue 37). The
 * patient with allergies, the bed, the latest NEWS2; actions: a set of vitals, the SBAR handoff, the stay (or
 * visit) page. Tabs: the care plan's orders, the executions (to do, then the timeline of what was recorded), the
 * temperature chart (lazily drawn, with its table, printable), the MAR, and the handoffs.
 */
import { news2Applies } from '@greensen/shared/domain/news2';
import { Badge, Button, Group, Paper, Skeleton, Stack, Tabs, Text, Title } from '@mantine/core';
import {
  IconBed,
  IconChartLine,
  IconClipboardList,
  IconClipboardText,
  IconHeartbeat,
  IconListCheck,
  IconPencil,
  IconPill,
} from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { ApiError } from '../../../lib/api-client';
import { useHandoff, useHandoffDraft } from '../../../lib/clinical/api/care';
import { HandoffFormModal, HandoffView } from '../../../lib/clinical/components/care/Handoffs';
import { News2Badge } from '../../../lib/clinical/components/care/News2Badge';
import { PatientBanner } from '../../../lib/clinical/components/PatientBanner';
import { formatDateTime, formatTime } from '../../../lib/format';
import { DetailQueryState, LoadError } from '../../../lib/page-states';
import { usePermissions } from '../../../lib/permissions';
import { useLocalizedPath } from '../../../lib/use-localized-path';
import { useOpenPlan, usePlan } from '../api/care-file';
import { ChartPanel } from '../components/ChartPanel';
import { ExecutionsPanel } from '../components/ExecutionsPanel';
import { MarPanel } from '../components/MarPanel';
import { OrdersPanel } from '../components/OrdersPanel';
import { VitalsModal } from '../components/VitalsModal';

type Dialog = 'vitals' | 'handoff' | null;

/**
 * The handoff of the current shift for this patient: the one written (to read, or acknowledge), else the way to
 * write it. (The list of handoffs has no per-plan filter; the current shift's is the one the draft names.)
 */
function PlanHandoffs({
  plan,
  patientName,
  canWrite,
}: {
  plan: string;
  patientName: string;
  canWrite: boolean;
}) {
  const { t } = useTranslation('care');
  const draft = useHandoffDraft(plan);
  const existing = useHandoff(draft.data?.existing ?? null);
  const [writing, setWriting] = useState(false);
  if (draft.isError) return <LoadError error={draft.error} onRetry={() => void draft.refetch()} />;
  if (draft.isPending || (draft.data.existing && existing.isPending)) return <Skeleton h={160} />;
  return (
    <Stack gap="sm" data-testid="plan-handoffs">
      <Group justify="space-between" wrap="wrap">
        <Text size="sm" c="dimmed">
          {t('shift.label', {
            from: formatTime(draft.data.shift.start),
            to: formatTime(draft.data.shift.end),
          })}
        </Text>
        {canWrite && (
          <Button size="md" leftSection={<IconPencil size={18} />} onClick={() => setWriting(true)}>
            {existing.data ? t('handoffs.rewrite') : t('handoffs.write')}
          </Button>
        )}
      </Group>
      {existing.data ? (
        <HandoffView handoff={existing.data} />
      ) : (
        <Text c="dimmed" ta="center" py="lg">
          {t('handoffs.empty.plan')}
        </Text>
      )}
      {writing && (
        <HandoffFormModal plan={plan} patientName={patientName} onClose={() => setWriting(false)} />
      )}
    </Stack>
  );
}

export default function CareDetailPage() {
  const { id = '' } = useParams();
  const { t } = useTranslation('care');
  const to = useLocalizedPath();
  const query = usePlan(id);
  const [tab, setTab] = useState<string | null>('tasks');
  // `?vitals={execution}`: a vitals task opened from a task list, done by the set recorded here (issue 37).
  const [search, setSearch] = useSearchParams();
  const task = search.get('vitals');
  const [dialog, setDialog] = useState<Dialog>(task ? 'vitals' : null);
  const navigate = useNavigate();
  const { can } = usePermissions();
  const openPlan = useOpenPlan();
  // `/care/{stay or visit id}` (issue 37): the server answers the stay's plan, whose address the page takes; a
  // stay without a plan yet gets one opened, as from the ward list, by whoever may write care.
  const planId = query.data?.id;
  const missing = query.error instanceof ApiError && query.error.status === 404;
  const { mutate: open, isIdle } = openPlan;
  useEffect(() => {
    if (planId && planId !== id) navigate(to(`/care/${planId}`), { replace: true });
  }, [planId, id, navigate, to]);
  useEffect(() => {
    if (!missing || !isIdle || !can('care.write')) return;
    open(
      { hospitalization: id },
      { onSuccess: (plan) => navigate(to(`/care/${plan.id}`), { replace: true }) },
    );
  }, [missing, isIdle, can, open, id, navigate, to]);

  if (missing && (openPlan.isPending || openPlan.isSuccess))
    return (
      <DetailQueryState query={{ ...query, isError: false }} blocks={[110, 320]} testId="care-loading" />
    );
  if (query.isPending || query.isError || (planId && planId !== id))
    return <DetailQueryState query={query} blocks={[110, 320]} testId="care-loading" />;
  const plan = query.data;
  const closed = plan.status === 'closed';

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <div style={{ minWidth: 0 }}>
          <Group gap="xs" wrap="wrap">
            <Title order={2}>{t('detail.title', { patient: plan.patient.full_name })}</Title>
            {plan.news2 && (
              <News2Badge
                score={plan.news2.score}
                risk={plan.news2.risk}
                complete={plan.news2.complete}
                testId="plan-news2"
              />
            )}
            {closed && <Badge color="gray">{t('detail.closed')}</Badge>}
            {plan.hypercapnic && (
              <Badge color="grape" variant="light">
                {t('detail.hypercapnic')}
              </Badge>
            )}
          </Group>
          <Text c="dimmed">
            {plan.place
              ? `${plan.place.ward.name} · ${t('place', { room: plan.place.room.name, bed: plan.place.bed.label })}`
              : plan.department.name}
            {plan.doctor ? ` · ${t('detail.doctor', { name: plan.doctor.full_name })}` : ''}
            {` · ${t('detail.since', { time: formatDateTime(plan.since) })}`}
          </Text>
        </div>
        <Group gap="xs" data-no-print>
          {plan.hospitalization ? (
            <Button
              component={Link}
              to={to(`/hospitalizations/${plan.hospitalization}`)}
              variant="default"
              size="md"
              leftSection={<IconBed size={18} />}
            >
              {t('detail.stay')}
            </Button>
          ) : (
            plan.admission && (
              <Button
                component={Link}
                to={to(`/admissions/${plan.admission}`)}
                variant="default"
                size="md"
                leftSection={<IconClipboardList size={18} />}
              >
                {t('detail.visit')}
              </Button>
            )
          )}
          {plan.can.record && !closed && (
            <>
              <Button
                size="md"
                variant="light"
                leftSection={<IconHeartbeat size={18} />}
                onClick={() => setDialog('vitals')}
              >
                {t('detail.vitals')}
              </Button>
              <Button size="md" leftSection={<IconPencil size={18} />} onClick={() => setDialog('handoff')}>
                {t('detail.handoff')}
              </Button>
            </>
          )}
        </Group>
      </Group>

      <PatientBanner patient={plan.patient} />

      <Paper withBorder radius="md" p={0}>
        <Tabs value={tab} onChange={setTab} keepMounted={false}>
          <Tabs.List px="sm" style={{ overflowX: 'auto', flexWrap: 'nowrap' }} data-no-print>
            <Tabs.Tab value="tasks" leftSection={<IconListCheck size={16} />}>
              {t('detail.tabs.tasks')}
            </Tabs.Tab>
            <Tabs.Tab value="orders" leftSection={<IconClipboardList size={16} />}>
              {t('detail.tabs.orders')}
            </Tabs.Tab>
            <Tabs.Tab value="chart" leftSection={<IconChartLine size={16} />}>
              {t('detail.tabs.chart')}
            </Tabs.Tab>
            <Tabs.Tab value="mar" leftSection={<IconPill size={16} />}>
              {t('detail.tabs.mar')}
            </Tabs.Tab>
            <Tabs.Tab value="handoffs" leftSection={<IconClipboardText size={16} />}>
              {t('detail.tabs.handoffs')}
            </Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="tasks" p="sm">
            <ExecutionsPanel plan={plan.id} />
          </Tabs.Panel>
          <Tabs.Panel value="orders" p="sm">
            <OrdersPanel plan={plan.id} canOrder={plan.can.order && !closed} />
          </Tabs.Panel>
          <Tabs.Panel value="chart" p="sm">
            <ChartPanel plan={plan.id} patientName={plan.patient.full_name} />
          </Tabs.Panel>
          <Tabs.Panel value="mar" p="sm">
            <MarPanel
              plan={plan.id}
              patientName={plan.patient.full_name}
              canRecord={plan.can.record && !closed}
            />
          </Tabs.Panel>
          <Tabs.Panel value="handoffs" p="sm">
            <PlanHandoffs
              plan={plan.id}
              patientName={plan.patient.full_name}
              canWrite={plan.can.record && !closed}
            />
          </Tabs.Panel>
        </Tabs>
      </Paper>

      {dialog === 'vitals' && plan.can.record && !closed && (
        <VitalsModal
          plan={plan}
          news2Applies={news2Applies(plan.patient.age)}
          execution={task}
          onClose={() => {
            setDialog(null);
            if (task) setSearch({}, { replace: true });
          }}
        />
      )}
      {dialog === 'handoff' && (
        <HandoffFormModal
          plan={plan.id}
          patientName={plan.patient.full_name}
          onClose={() => setDialog(null)}
        />
      )}
    </Stack>
  );
}
