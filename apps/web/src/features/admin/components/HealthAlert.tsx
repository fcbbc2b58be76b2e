/**
 * What administrators see when this instance is degraded (decision 0058): Redis lost, the job worker stopped, or
 * the background jobs held after a restore — each with what it means and what to do. Nothing when all is well.
 */
import { Alert, List } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useHealth } from '../api/health';

export function HealthAlert() {
  const { t } = useTranslation('jobs');
  const { data } = useHealth();
  if (!data || data.status === 'ok') return null;
  const items: string[] = [];
  if (data.redis === 'unavailable') items.push(t('health.redis'));
  if (data.jobs_worker === 'held') items.push(t('health.held'));
  if (data.jobs_worker === 'stopped') items.push(t('health.stopped'));
  if (data.database === 'unavailable') items.push(t('health.database'));
  if (data.file_store === 'unavailable') items.push(t('health.fileStore'));
  return (
    <Alert color="orange" icon={<IconAlertTriangle size={18} />} title={t('health.title')} role="alert">
      <List size="sm" spacing={4}>
        {items.map((item) => (
          <List.Item key={item}>{item}</List.Item>
        ))}
      </List>
    </Alert>
  );
}
