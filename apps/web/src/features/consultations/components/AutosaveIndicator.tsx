/** "Brouillon enregistré à 10:42": where the automatic draft saving stands. */
import { Button, Group, Loader, Text } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconPencil } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../../../lib/format';
import type { AutosaveStatus } from './useAutosave';

export function AutosaveIndicator({
  status,
  savedAt,
  updatedAt,
  onRetry,
}: {
  status: AutosaveStatus;
  savedAt: Date | null;
  /** The record's last change, shown before the first save of the session. */
  updatedAt: string;
  onRetry: () => void;
}) {
  const { t } = useTranslation('consultations');
  let content: React.ReactNode;
  switch (status) {
    case 'pending':
      content = (
        <>
          <IconPencil size={16} />
          <Text size="sm" c="dimmed">
            {t('autosave.pending')}
          </Text>
        </>
      );
      break;
    case 'saving':
      content = (
        <>
          <Loader size={14} />
          <Text size="sm" c="dimmed">
            {t('autosave.saving')}
          </Text>
        </>
      );
      break;
    case 'invalid':
    case 'error':
    case 'conflict':
      content = (
        <>
          <IconAlertTriangle size={16} color="var(--mantine-color-orange-6)" />
          <Text size="sm" c="orange">
            {t(`autosave.${status}`)}
          </Text>
          {status === 'error' && (
            <Button size="compact-xs" variant="light" color="orange" onClick={onRetry}>
              {t('autosave.retry')}
            </Button>
          )}
        </>
      );
      break;
    default:
      content = (
        <>
          <IconCircleCheck size={16} color="var(--mantine-color-green-6)" />
          <Text size="sm" c="dimmed">
            {savedAt
              ? t('autosave.saved', { time: formatTime(savedAt.toISOString()) })
              : t('autosave.idle', { time: formatTime(updatedAt) })}
          </Text>
        </>
      );
  }
  return (
    <Group gap={6} wrap="nowrap" aria-live="polite" data-testid="autosave-status" data-status={status}>
      {content}
    </Group>
  );
}
