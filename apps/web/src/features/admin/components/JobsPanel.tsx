/**
 * The background jobs for administrators (issue 14): the hospital's jobs and the system-wide ones (mail
 * delivery, purges), filtered by state and name, with their tries, when they are due, the last error, and a
 * retry button for failed ones. Hosted by the administration page; also on its own at /admin/jobs.
 */
import { JOB_STATES, type JobState, type TJob } from '@greensen/shared/contracts/jobs';
import { Badge, Button, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-client';
import { PagedQueryTable } from '../../../lib/clinical/components/PagedTable';
import { formatDateTime } from '../../../lib/format';
import { useListPage } from '../../../lib/list-filters';
import { toast } from '../../../lib/toast';
import { useJobs } from '../api/list-jobs';
import { useRetryJob } from '../api/retry-job';
import { HealthAlert } from './HealthAlert';

const PAGE_SIZE = 20;

/** The jobs the server defines today (the name filter); others show under their raw name. */
export const KNOWN_JOBS = ['mail.deliver', 'maintenance.purge'] as const;

export const STATE_COLORS: Record<JobState, string> = {
  queued: 'blue',
  running: 'yellow',
  done: 'green',
  failed: 'red',
};

export function JobStateBadge({ state }: { state: JobState }) {
  const { t } = useTranslation('jobs');
  return (
    <Badge color={STATE_COLORS[state]} variant="light" size="sm" style={{ minWidth: 'max-content' }}>
      {t(`states.${state}`)}
    </Badge>
  );
}

function RetryButton({ job }: { job: TJob }) {
  const { t } = useTranslation('jobs');
  const retry = useRetryJob();
  async function run() {
    try {
      await retry.mutateAsync(job.id);
      toast({ kind: 'success', title: t('retry.done'), description: jobName(t, job.name) });
    } catch (error) {
      toast({
        kind: 'error',
        title: t('retry.failed'),
        description: isApiError(error) ? error.message : undefined,
      });
    }
  }
  return (
    <Button
      size="compact-xs"
      variant="light"
      leftSection={<IconRefresh size={12} />}
      loading={retry.isPending}
      onClick={() => void run()}
      aria-label={t('retry.label', { name: jobName(t, job.name) })}
    >
      {t('retry.action')}
    </Button>
  );
}

/** A job's label: its translated name when known (`names.mail.deliver`), else the name itself. */
function jobName(t: (key: string, options?: Record<string, unknown>) => string, name: string): string {
  return t(`names.${name}`, { defaultValue: name });
}

export function JobsPanel() {
  const { t } = useTranslation('jobs');
  const [state, setState] = useState<JobState | null>(null);
  const [name, setName] = useState<string | null>(null);
  const { page, setPage, resetPage } = useListPage();
  const query = useJobs({ state, name, page, pageSize: PAGE_SIZE });
  const filtered = Boolean(state || name);

  return (
    <Stack gap="md" data-testid="jobs-panel">
      <HealthAlert />
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" maw={640}>
        <Select
          label={t('filters.state')}
          placeholder={t('filters.all')}
          data={JOB_STATES.map((value) => ({ value, label: t(`states.${value}`) }))}
          value={state}
          onChange={(value) => resetPage(setState)(value as JobState | null)}
          clearable
        />
        <Select
          label={t('filters.name')}
          placeholder={t('filters.all')}
          data={KNOWN_JOBS.map((value) => ({ value, label: jobName(t, value) }))}
          value={name}
          onChange={resetPage(setName)}
          clearable
        />
      </SimpleGrid>
      <PagedQueryTable<TJob>
        query={query}
        pageSize={PAGE_SIZE}
        page={page}
        onPageChange={setPage}
        noRecordsText={filtered ? t('emptyFiltered') : t('empty')}
        columns={[
          {
            accessor: 'name',
            title: t('columns.name'),
            render: (job) => (
              <Stack gap={2}>
                <Text size="sm" fw={600}>
                  {jobName(t, job.name)}
                </Text>
                <Text size="xs" c="dimmed" ff="monospace">
                  {job.name}
                  {job.hospital === null ? ` · ${t('systemWide')}` : ''}
                </Text>
              </Stack>
            ),
          },
          {
            accessor: 'state',
            title: t('columns.state'),
            noWrap: true,
            render: (job) => <JobStateBadge state={job.state} />,
          },
          {
            accessor: 'attempts',
            title: t('columns.attempts'),
            noWrap: true,
            render: (job) => (
              <Text size="sm" aria-label={t('attempts', { count: job.attempts, max: job.max_attempts })}>
                {job.attempts} / {job.max_attempts}
              </Text>
            ),
          },
          {
            accessor: 'run_at',
            title: t('columns.runAt'),
            render: (job) => (
              <Stack gap={2}>
                <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                  {formatDateTime(job.run_at)}
                </Text>
                {job.finished_at && (
                  <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                    {t('finishedAt', { time: formatDateTime(job.finished_at) })}
                  </Text>
                )}
              </Stack>
            ),
          },
          {
            accessor: 'last_error',
            title: t('columns.lastError'),
            // The retry button sits under the error, so that it stays in view on a tablet.
            render: (job) => (
              <Stack gap={6} align="flex-start">
                {job.last_error ? (
                  <Text
                    size="xs"
                    c="red"
                    lineClamp={3}
                    style={{ wordBreak: 'break-word' }}
                    title={job.last_error}
                  >
                    {job.last_error}
                  </Text>
                ) : (
                  <Text size="xs" c="dimmed">
                    —
                  </Text>
                )}
                {job.state === 'failed' && <RetryButton job={job} />}
              </Stack>
            ),
          },
        ]}
      />
    </Stack>
  );
}
