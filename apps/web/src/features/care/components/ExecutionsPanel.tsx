/**
 * The executions of a care plan (issue 20): what is still to do — as task cards (done in one tap, not done,
 * reassigned) — then the timeline of what was recorded: done (by whom, at the real time; late ones marked), not
 * done (with the reason), cancelled.
 */
import type { TCareExecution } from '@greensen/shared/contracts/care';
import { Badge, Group, Pagination, Skeleton, Stack, Text, Timeline, Title } from '@mantine/core';
import { IconCheck, IconHandStop, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { nursesOf, TaskList, useSelfAsNurse } from '../../../lib/clinical/components/care/TaskList';
import { formatDateTime } from '../../../lib/format';
import { LoadError } from '../../../lib/page-states';
import { usePlanExecutions } from '../api/care-file';

const PAGE_SIZE = 50;

const BULLETS = {
  done: { color: 'green', Icon: IconCheck },
  not_done: { color: 'orange', Icon: IconHandStop },
  cancelled: { color: 'gray', Icon: IconX },
} as const;

function Recorded({ execution: e }: { execution: TCareExecution }) {
  const { t } = useTranslation('care');
  if (e.status === 'done')
    return (
      <Text size="sm" c="dimmed">
        {t('executions.doneBy', { name: e.done_by?.full_name ?? '—', time: formatDateTime(e.done_at) })}
      </Text>
    );
  if (e.status === 'not_done')
    return (
      <Text size="sm" c="dimmed">
        {t('executions.notDoneBecause', {
          reason: e.not_done_reason ? t(`tasks.reasons.${e.not_done_reason}`) : '—',
        })}
      </Text>
    );
  return (
    <Text size="sm" c="dimmed">
      {t('executions.cancelled')}
    </Text>
  );
}

export function ExecutionsPanel({ plan }: { plan: string }) {
  const { t } = useTranslation('care');
  const self = useSelfAsNurse();
  const [page, setPage] = useState(1);
  const query = usePlanExecutions(plan, page, PAGE_SIZE);
  if (query.isError) return <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  if (query.isPending) return <Skeleton h={200} />;
  const all = query.data.results;
  const open = all
    .filter((e) => e.status === 'scheduled')
    .map((execution) => ({
      type: 'execution' as const,
      scheduled_at: execution.scheduled_at,
      late: execution.late,
      execution,
    }));
  const recorded = all.filter((e) => e.status !== 'scheduled');
  const pages = Math.max(1, Math.ceil(query.data.count / PAGE_SIZE));
  return (
    <Stack gap="md" data-testid="executions">
      <Title order={4}>{t('executions.toDo')}</Title>
      <TaskList
        tasks={open}
        currentUser={self}
        nurses={nursesOf(open)}
        emptyText={t('executions.nothingToDo')}
      />
      <Title order={4}>{t('executions.history')}</Title>
      {recorded.length === 0 ? (
        <Text c="dimmed">{t('executions.noHistory')}</Text>
      ) : (
        <Timeline bulletSize={26} lineWidth={2}>
          {recorded.map((e) => {
            const bullet = BULLETS[e.status as keyof typeof BULLETS] ?? BULLETS.cancelled;
            return (
              <Timeline.Item
                key={e.id}
                color={bullet.color}
                bullet={<bullet.Icon size={14} />}
                title={
                  <Group gap="xs">
                    <Text fw={600}>{e.order.title}</Text>
                    {e.late && e.status === 'done' && (
                      <Badge color="red" variant="light" size="sm">
                        {t('tasks.late')}
                      </Badge>
                    )}
                  </Group>
                }
              >
                <Text size="xs" c="dimmed">
                  {t('executions.planned', { time: formatDateTime(e.scheduled_at) })}
                </Text>
                <Recorded execution={e} />
                {e.note && (
                  <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                    {e.note}
                  </Text>
                )}
              </Timeline.Item>
            );
          })}
        </Timeline>
      )}
      {pages > 1 && <Pagination total={pages} value={page} onChange={setPage} />}
    </Stack>
  );
}
