/**
 * The nurse dashboard's `tasks` tab (issue 20): the executions and doses due in the shift (GET
 * /api/nurses/{id}/tasks/, the signed-in nurse), ordered by time and priority, late ones in red, overdue doses
 * included; done in one tap, not done with a reason, reassigned. "Mine" (assigned to her, or nobody's in her
 * departments) or her departments' ("Service", the charge nurse's view); still to do, or the whole shift. Its
 * query sits under the dashboard's key: the 60 s refresh and the `dashboard` refresh flag refetch it.
 */
import { Badge, Group, Pagination, SegmentedControl, Skeleton, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type TaskFilters, useNurseTasks } from '../../../lib/clinical/api/care';
import { nursesOf, TaskList, useSelfAsNurse } from '../../../lib/clinical/components/care/TaskList';
import { formatTime } from '../../../lib/format';
import { LoadError } from '../../../lib/page-states';
import { usePermissions } from '../../../lib/permissions';

const PAGE_SIZE = 30;

export default function NurseTasksPanel() {
  const { t } = useTranslation('care');
  const { userId, groups } = usePermissions();
  const self = useSelfAsNurse();
  const [filters, setFilters] = useState<TaskFilters>({
    scope: groups.includes('queue_manager') && !groups.includes('nurse') ? 'ward' : 'mine',
    status: 'open',
    page: 1,
    pageSize: PAGE_SIZE,
  });
  const query = useNurseTasks(userId, filters);
  const data = query.data;
  const pages = data ? Math.max(1, Math.ceil(data.count / PAGE_SIZE)) : 1;

  return (
    <Stack gap="sm" p="sm" data-testid="nurse-tasks">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Group gap="xs">
          <SegmentedControl
            size="md"
            value={filters.scope}
            onChange={(scope) => setFilters((f) => ({ ...f, scope: scope as TaskFilters['scope'], page: 1 }))}
            data={[
              { value: 'mine', label: t('tasks.scope.mine') },
              { value: 'ward', label: t('tasks.scope.ward') },
            ]}
          />
          <SegmentedControl
            size="md"
            value={filters.status}
            onChange={(status) =>
              setFilters((f) => ({ ...f, status: status as TaskFilters['status'], page: 1 }))
            }
            data={[
              { value: 'open', label: t('tasks.status.open') },
              { value: 'all', label: t('tasks.status.all') },
            ]}
          />
        </Group>
        {data && (
          <Group gap="xs">
            <Text size="sm" c="dimmed">
              {t('shift.label', { from: formatTime(data.shift.start), to: formatTime(data.shift.end) })}
            </Text>
            {data.overdue > 0 && (
              <Badge
                color="red"
                size="lg"
                leftSection={<IconAlertTriangle size={14} />}
                data-testid="overdue-count"
              >
                {t('tasks.overdue', { count: data.overdue })}
              </Badge>
            )}
          </Group>
        )}
      </Group>
      {query.isError ? (
        <LoadError error={query.error} onRetry={() => void query.refetch()} />
      ) : !data ? (
        <Stack gap="xs" data-testid="tasks-loading">
          <Skeleton h={72} />
          <Skeleton h={72} />
          <Skeleton h={72} />
        </Stack>
      ) : (
        <>
          <TaskList
            tasks={data.results}
            currentUser={self}
            nurses={nursesOf(data.results)}
            emptyText={filters.status === 'open' ? t('tasks.emptyOpen') : t('tasks.empty')}
          />
          {pages > 1 && (
            <Group justify="center">
              <Pagination
                size="md"
                total={pages}
                value={filters.page}
                onChange={(page) => setFilters((f) => ({ ...f, page }))}
              />
            </Group>
          )}
        </>
      )}
    </Stack>
  );
}
