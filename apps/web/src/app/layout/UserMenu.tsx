/** User menu: profile, settings, sign out. */
import { titlePrefix } from '@greensen/shared/domain/roles';
import { Avatar, Group, Menu, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconChevronDown, IconLogout, IconSettings, IconUser } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { logout } from '../../lib/session';
import { HEADER_DROPDOWN_Z_INDEX } from '../../lib/toast-layer';
import { useLocalizedPath } from '../../lib/use-localized-path';
import { useUserStore } from '../../stores/user';

export function initialsOf(name: string): string {
  return name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((part) => part.charAt(0).toUpperCase())
    .join('');
}

export function displayName(user: { full_name: string; active_roles: { role_code: string }[] }): string {
  const prefix = titlePrefix(user.active_roles[0]?.role_code ?? '');
  return prefix ? `${prefix} ${user.full_name}` : user.full_name;
}

export function UserMenu() {
  const { t } = useTranslation('shell');
  const user = useUserStore((state) => state.user);
  const to = useLocalizedPath();
  if (!user) return null;
  return (
    <Menu position="bottom-end" width={220} withinPortal zIndex={HEADER_DROPDOWN_Z_INDEX}>
      <Menu.Target>
        {/* Named by its content (the name shown, then "Menu utilisateur"), so that the visible text is part of
            the accessible name (axe label-content-name-mismatch); the initials are decoration. */}
        <UnstyledButton data-testid="user-menu">
          <Group gap={8} wrap="nowrap">
            <Avatar color="greensen" radius="xl" size={32} aria-hidden>
              {initialsOf(user.full_name || user.email)}
            </Avatar>
            <Text size="sm" fw={500} visibleFrom="lg" maw={160} truncate>
              {displayName(user)}
            </Text>
            <VisuallyHidden>{t('userMenu.label')}</VisuallyHidden>
            <IconChevronDown size={14} aria-hidden />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{user.email}</Menu.Label>
        <Menu.Item component={Link} to={to('/profile')} leftSection={<IconUser size={16} />}>
          {t('userMenu.profile')}
        </Menu.Item>
        <Menu.Item component={Link} to={to('/settings')} leftSection={<IconSettings size={16} />}>
          {t('userMenu.settings')}
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item color="red" leftSection={<IconLogout size={16} />} onClick={() => logout()}>
          {t('userMenu.signOut')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
