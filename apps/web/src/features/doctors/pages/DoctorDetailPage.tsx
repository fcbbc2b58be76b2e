/** /doctors/:id: profile, today's workload, queue (triage level then arrival), schedule placeholder. */
import { roleLabel } from '@greensen/shared/domain/roles';
import { Badge, Group, Paper, Skeleton, Stack, Tabs, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useDoctorQueue } from '../../../lib/clinical/api/doctor-queue';
import { ExecutionQueueTable } from '../../../lib/clinical/components/ExecutionQueueTable';
import { WorkloadStats } from '../../../lib/clinical/components/WorkloadStats';
import { uiLanguage } from '../../../lib/i18n';
import { LoadError } from '../../../lib/page-states';
import { useDoctor } from '../api/get-doctor';

const PAGE_SIZE = 20;

export default function DoctorDetailPage() {
  const { id = '' } = useParams();
  const { t } = useTranslation('doctors');
  const query = useDoctor(id);
  const [page, setPage] = useState(1);
  const queue = useDoctorQueue(id, { status: 'open', page, pageSize: PAGE_SIZE });
  const lang = uiLanguage();

  if (query.isPending) {
    return (
      <Stack gap="md">
        <Skeleton h={40} w="40%" />
        <Skeleton h={90} />
        <Skeleton h={200} />
      </Stack>
    );
  }
  if (query.isError) return <LoadError error={query.error} onRetry={() => void query.refetch()} />;
  const doctor = query.data;

  return (
    <Stack gap="md">
      <div>
        <Title order={2}>
          {doctor.title_prefix ? `${doctor.title_prefix} ` : ''}
          {doctor.full_name}
        </Title>
        <Group gap="xs" mt={4}>
          {doctor.role_codes.map((code) => (
            <Badge key={code} variant="light">
              {roleLabel(code, lang)}
            </Badge>
          ))}
          <Text size="sm" c="dimmed">
            {doctor.email}
            {doctor.departments.length > 0 && ` · ${doctor.departments.map((d) => d.name).join(', ')}`}
          </Text>
        </Group>
      </div>
      <WorkloadStats workload={doctor.workload} />
      <Paper withBorder radius="md" p={0}>
        <Tabs defaultValue="queue" keepMounted={false}>
          <Tabs.List px="sm">
            <Tabs.Tab value="queue">{t('tabs.queue')}</Tabs.Tab>
            <Tabs.Tab value="schedule">{t('tabs.schedule')}</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="queue">
            {queue.isError ? (
              <LoadError error={queue.error} onRetry={() => void queue.refetch()} />
            ) : (
              <ExecutionQueueTable
                records={queue.data?.results ?? []}
                total={queue.data?.count ?? 0}
                page={page}
                pageSize={PAGE_SIZE}
                onPageChange={setPage}
                fetching={queue.isFetching}
                emptyText={t('queue.empty')}
              />
            )}
          </Tabs.Panel>
          <Tabs.Panel value="schedule" p="lg">
            <Text c="dimmed">{t('schedulePlaceholder')}</Text>
          </Tabs.Panel>
        </Tabs>
      </Paper>
    </Stack>
  );
}
