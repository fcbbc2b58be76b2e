import type { TNotification } from '@greensen/shared/contracts/notifications';
import {
  ActionIcon,
  Box,
  Button,
  Center,
  Divider,
  Group,
  Loader,
  ScrollArea,
  SegmentedControl,
  Stack,
  Text,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { IconCheck, IconChecks, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { navigateTo } from '../../../lib/navigation';
import { useNotificationsStore } from '../../../stores/notifications';
import { NOTIFICATIONS_NS } from '../i18n';
import { notificationTarget } from '../notification-helpers';
import { NotificationIcon } from './NotificationIcon';

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** '5 minutes ago' / 'il y a 5 minutes' in the UI language. */
export function timeAgo(iso: string, lang: string, now = Date.now()): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  const format = new Intl.RelativeTimeFormat(lang, { numeric: 'auto' });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit);
  }
  return format.format(0, 'minute');
}

function NotificationItem({ notification, onOpen }: { notification: TNotification; onOpen: () => void }) {
  const { t, i18n } = useTranslation(NOTIFICATIONS_NS);
  const markAsRead = useNotificationsStore((s) => s.markAsRead);
  const remove = useNotificationsStore((s) => s.deleteNotification);
  const unread = !notification.is_read;

  const open = () => {
    if (unread) void markAsRead([notification.id]);
    const target = notificationTarget(notification);
    if (target) {
      onOpen();
      navigateTo(target);
    }
  };

  return (
    <Group
      gap="sm"
      wrap="nowrap"
      align="flex-start"
      px="md"
      py="sm"
      bg={unread ? 'var(--mantine-color-default-hover)' : undefined}
      data-testid="notification-item"
      data-unread={unread || undefined}
    >
      <UnstyledButton onClick={open} style={{ flex: 1, minWidth: 0 }}>
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <NotificationIcon type={notification.notification_type} />
          <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
            <Text size="sm" fw={unread ? 700 : 500} lineClamp={2}>
              {notification.title}
            </Text>
            {notification.message ? (
              <Text size="xs" c="dimmed" lineClamp={3}>
                {notification.message}
              </Text>
            ) : null}
            <Text
              size="xs"
              c="dimmed"
              title={new Date(notification.created_at).toLocaleString(i18n.language)}
            >
              {t(`types.${notification.notification_type}`, { defaultValue: '' })}
              {' · '}
              {timeAgo(notification.created_at, i18n.language)}
            </Text>
          </Stack>
        </Group>
      </UnstyledButton>
      <Stack gap={4}>
        {unread ? (
          <Tooltip label={t('panel.markRead')} withinPortal={false}>
            <ActionIcon
              variant="subtle"
              size="sm"
              color="green"
              aria-label={t('panel.markRead')}
              onClick={() => void markAsRead([notification.id])}
            >
              <IconCheck size={16} />
            </ActionIcon>
          </Tooltip>
        ) : null}
        <Tooltip label={t('panel.delete')} withinPortal={false}>
          <ActionIcon
            variant="subtle"
            size="sm"
            color="gray"
            aria-label={t('panel.delete')}
            onClick={() => void remove(notification.id)}
          >
            <IconTrash size={16} />
          </ActionIcon>
        </Tooltip>
      </Stack>
    </Group>
  );
}

/** The notification panel: newest first, filter, mark one or all read, delete, load more. */
export function NotificationPanel({ onNavigate }: { onNavigate: () => void }) {
  const { t } = useTranslation(NOTIFICATIONS_NS);
  const notifications = useNotificationsStore((s) => s.notifications);
  const unreadCount = useNotificationsStore((s) => s.unreadCount);
  const loading = useNotificationsStore((s) => s.loading);
  const hasNext = useNotificationsStore((s) => s.hasNext);
  const status = useNotificationsStore((s) => s.status);
  const fetchNotifications = useNotificationsStore((s) => s.fetchNotifications);
  const loadMore = useNotificationsStore((s) => s.loadMore);
  const markAsRead = useNotificationsStore((s) => s.markAsRead);
  const visible = status === 'unread' ? notifications.filter((n) => !n.is_read) : notifications;

  return (
    <Box>
      <Group justify="space-between" px="md" py="sm" wrap="nowrap">
        <Stack gap={0}>
          <Text fw={700}>{t('panel.title')}</Text>
          {unreadCount > 0 ? (
            <Text size="xs" c="dimmed">
              {t('panel.unread', { count: unreadCount })}
            </Text>
          ) : null}
        </Stack>
        <Button
          variant="subtle"
          size="compact-sm"
          leftSection={<IconChecks size={16} />}
          disabled={unreadCount === 0}
          onClick={() => void markAsRead()}
        >
          {t('panel.markAllRead')}
        </Button>
      </Group>
      <Box px="md" pb="sm">
        <SegmentedControl
          fullWidth
          size="xs"
          aria-label={t('filter.label')}
          value={status === 'unread' ? 'unread' : 'all'}
          onChange={(value) => void fetchNotifications(value === 'unread' ? 'unread' : 'all')}
          data={[
            { value: 'all', label: t('filter.all') },
            { value: 'unread', label: t('filter.unread') },
          ]}
        />
      </Box>
      <Divider />
      <ScrollArea.Autosize mah={420} type="auto">
        {visible.length === 0 && loading ? (
          <Center py="xl">
            <Loader size="sm" aria-label={t('panel.loading')} />
          </Center>
        ) : null}
        {visible.length === 0 && !loading ? (
          <Text size="sm" c="dimmed" ta="center" py="xl" px="md">
            {status === 'unread' ? t('panel.emptyUnread') : t('panel.empty')}
          </Text>
        ) : null}
        <Stack gap={0}>
          {visible.map((n) => (
            <NotificationItem key={n.id} notification={n} onOpen={onNavigate} />
          ))}
        </Stack>
        {hasNext ? (
          <Center py="sm">
            <Button variant="light" size="xs" loading={loading} onClick={() => void loadMore()}>
              {t('panel.loadMore')}
            </Button>
          </Center>
        ) : null}
      </ScrollArea.Autosize>
    </Box>
  );
}
