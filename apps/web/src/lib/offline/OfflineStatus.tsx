/**
 * Issue 40 in the shell: the offline banner (no network, or the ward shown from the device's copy — "données du
 * 14:32") and, in the header while anything waits, the queue's count with the list of records waiting to be sent
 * or refused by the server (its reason; the nurse discards or sends again).
 */
import { ActionIcon, Alert, Badge, Button, Group, Indicator, Popover, Stack, Text } from '@mantine/core';
import { useNetwork } from '@mantine/hooks';
import { IconCloudUpload, IconRefresh, IconTrash, IconWifiOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../format';
import { useQueueItems } from '../offline-queue';
import { TOAST_Z_INDEX } from '../toast-layer';
import { clinicalQueue, discardRecord, retryRecord } from './clinical-queue';
import { useOfflineCopyTime } from './read-cache';

export function OfflineBanner() {
  const { t } = useTranslation('shell');
  const { online } = useNetwork();
  const copyAt = useOfflineCopyTime();
  if (online && !copyAt) return null;
  return (
    <Alert
      color="orange"
      variant="light"
      icon={<IconWifiOff size={18} />}
      mb="sm"
      role="status"
      data-testid="offline-banner"
      title={online ? t('offline.copyTitle') : t('offline.title')}
    >
      {online ? null : t('offline.message')}
      {copyAt && (
        <Text size="sm" fw={600} data-testid="offline-copy-time">
          {t('offline.copyAt', { time: formatTime(copyAt) })}
        </Text>
      )}
    </Alert>
  );
}

export function OfflineQueueButton() {
  const { t } = useTranslation('shell');
  const items = useQueueItems(clinicalQueue());
  if (items.length === 0) return null;
  const refused = items.filter((r) => r.status === 'refused').length;
  return (
    // Above the toasts: the "en attente d'envoi" toast of the record just made must not cover the list she opens.
    <Popover width={360} position="bottom-end" shadow="md" withinPortal zIndex={TOAST_Z_INDEX + 1}>
      <Popover.Target>
        <Indicator label={items.length} size={18} color={refused > 0 ? 'red' : 'orange'} offset={4}>
          <ActionIcon
            variant="subtle"
            size="lg"
            aria-label={t('offline.queueLabel', { count: items.length })}
            data-testid="offline-queue-count"
            data-count={items.length}
          >
            <IconCloudUpload size={20} />
          </ActionIcon>
        </Indicator>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs" data-testid="offline-queue">
          <Text fw={700}>{t('offline.queueTitle', { count: items.length })}</Text>
          {items.map((r) => (
            <Stack
              key={r.key}
              gap={4}
              data-testid="offline-record"
              data-status={r.status}
              style={{ borderTop: '1px solid var(--mantine-color-default-border)', paddingTop: 6 }}
            >
              <Group justify="space-between" wrap="nowrap" gap="xs">
                <Text size="sm" fw={600} style={{ minWidth: 0 }} truncate>
                  {t(`offline.kind.${r.kind}`)} · {r.label}
                </Text>
                <Text size="xs" c="dimmed">
                  {formatTime(r.at)}
                </Text>
              </Group>
              {r.status === 'pending' ? (
                <Badge color="orange" variant="light">
                  {t('offline.pending')}
                </Badge>
              ) : (
                <>
                  <Badge color="red" variant="light">
                    {t('offline.refused')}
                  </Badge>
                  <Text size="sm" c="red" data-testid="offline-reason">
                    {r.reason}
                  </Text>
                  <Group gap="xs">
                    <Button
                      size="compact-sm"
                      variant="light"
                      leftSection={<IconRefresh size={14} />}
                      onClick={() => retryRecord(r.key)}
                    >
                      {t('offline.retry')}
                    </Button>
                    <Button
                      size="compact-sm"
                      variant="subtle"
                      color="red"
                      leftSection={<IconTrash size={14} />}
                      onClick={() => discardRecord(r.key)}
                    >
                      {t('offline.discard')}
                    </Button>
                  </Group>
                </>
              )}
            </Stack>
          ))}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
