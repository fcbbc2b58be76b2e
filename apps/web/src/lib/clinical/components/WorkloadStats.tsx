/** A doctor's workload for today: waiting, in progress, completed, average consultation time. */
import { Paper, SimpleGrid, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatMinutes } from '../../format';

export function WorkloadStats({
  workload,
}: {
  workload: {
    waiting: number;
    in_progress: number;
    completed_today: number;
    average_consultation_minutes: number | null;
  };
}) {
  const { t } = useTranslation('doctors');
  const stats = [
    { label: t('columns.waiting'), value: workload.waiting },
    { label: t('columns.inProgress'), value: workload.in_progress },
    { label: t('columns.completed'), value: workload.completed_today },
    { label: t('columns.average'), value: formatMinutes(workload.average_consultation_minutes) },
  ];
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
      {stats.map((stat) => (
        <Paper key={stat.label} withBorder radius="md" p="sm">
          <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
            {stat.label}
          </Text>
          <Text fw={700} size="xl">
            {stat.value}
          </Text>
        </Paper>
      ))}
    </SimpleGrid>
  );
}
