import { ActionIcon, Indicator, Popover } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HEADER_DROPDOWN_Z_INDEX } from '../../../lib/toast-layer';
import { useNotificationsStore } from '../../../stores/notifications';
import { NOTIFICATIONS_NS } from '../i18n';
import { useNotificationStream } from '../useNotificationStream';
import { NotificationPanel } from './NotificationPanel';

/** The header bell: unread badge, the notification panel, and the live stream behind them. */
export function NotificationBell() {
  useNotificationStream();
  const { t } = useTranslation(NOTIFICATIONS_NS);
  const [opened, setOpened] = useState(false);
  const unread = useNotificationsStore((s) => s.unreadCount);
  const label = unread > 0 ? t('bell.labelWithUnread', { count: unread }) : t('bell.label');

  return (
    // The indicator wraps the popover so that the popover's target, which receives aria-haspopup and
    // aria-expanded, is the button itself (on the indicator's div they are not allowed: axe aria-allowed-attr).
    <Indicator
      label={unread > 99 ? '99+' : unread}
      size={18}
      color="red"
      offset={6}
      disabled={unread === 0}
      withBorder
      data-testid="notification-badge"
    >
      <Popover
        opened={opened}
        onChange={setOpened}
        width={380}
        position="bottom-end"
        shadow="md"
        radius="md"
        withinPortal
        zIndex={HEADER_DROPDOWN_Z_INDEX}
        trapFocus={false}
      >
        <Popover.Target>
          <ActionIcon
            variant="subtle"
            color="gray"
            size="lg"
            aria-label={label}
            aria-haspopup="dialog"
            aria-expanded={opened}
            onClick={() => setOpened((o) => !o)}
          >
            <IconBell size={20} />
          </ActionIcon>
        </Popover.Target>
        <Popover.Dropdown p={0} maw="calc(100vw - 16px)">
          <NotificationPanel onNavigate={() => setOpened(false)} />
        </Popover.Dropdown>
      </Popover>
    </Indicator>
  );
}
