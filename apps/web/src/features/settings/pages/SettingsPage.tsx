/** /settings: language, colour mode, notification sound, session lock PIN. */
import type { Language } from '@greensen/shared/domain/constants';
import { Button, Group, Paper, SegmentedControl, Stack, Switch, Text, Title } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconLock, IconLockOff, IconPassword } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { api } from '../../../lib/api-client';
import { type ColorModePreference, useColorMode } from '../../../lib/color-scheme';
import { lockSession } from '../../../lib/inactivity-lock';
import { languageFromPath, localizePath } from '../../../lib/language';
import { toast } from '../../../lib/toast';
import { useSwitchLanguage } from '../../../lib/use-switch-language';
import { usePreferencesStore } from '../../../stores/preferences';
import { type User, useUserStore } from '../../../stores/user';

function Section({
  title,
  description,
  children,
}: {
  title: string;
  description: string;
  children: React.ReactNode;
}) {
  return (
    <Paper withBorder radius="md" p="lg">
      <Stack gap="sm">
        <div>
          <Title order={4}>{title}</Title>
          <Text c="dimmed" size="sm">
            {description}
          </Text>
        </div>
        {children}
      </Stack>
    </Paper>
  );
}

export default function SettingsPage() {
  const { t } = useTranslation('settings');
  const { pathname } = useLocation();
  const lang = languageFromPath(pathname);
  const switchLanguage = useSwitchLanguage();
  const [mode, setMode] = useColorMode();
  const ownSound = usePreferencesStore((state) => state.notificationSound);
  const hospitalSound = usePreferencesStore((state) => state.hospitalNotificationSound);
  const sound = ownSound ?? hospitalSound;
  const setSound = usePreferencesStore((state) => state.setNotificationSound);
  const user = useUserStore((state) => state.user);
  const [removing, setRemoving] = useState(false);

  const removePin = () =>
    modals.openConfirmModal({
      title: t('pin.removeTitle'),
      children: <Text size="sm">{t('pin.removeConfirm')}</Text>,
      labels: { confirm: t('pin.remove'), cancel: t('cancel') },
      confirmProps: { color: 'red' },
      onConfirm: async () => {
        setRemoving(true);
        try {
          await api.delete('pin/');
          const fresh = await api.get<User>('profile/');
          useUserStore.getState().setUser(fresh);
          toast({ kind: 'success', title: t('pin.removed') });
        } catch {
          toast({ kind: 'error', title: t('pin.removeFailed') });
        } finally {
          setRemoving(false);
        }
      },
    });

  return (
    <Stack gap="lg" maw={760}>
      <Title order={2}>{t('title')}</Title>
      <Section title={t('language.title')} description={t('language.description')}>
        <SegmentedControl
          value={lang}
          onChange={(value) => value !== lang && switchLanguage(value as Language)}
          data={[
            { value: 'fr', label: 'Français' },
            { value: 'en', label: 'English' },
          ]}
          style={{ alignSelf: 'flex-start' }}
        />
      </Section>
      <Section title={t('colorMode.title')} description={t('colorMode.description')}>
        <SegmentedControl
          value={mode}
          onChange={(value) => setMode(value as ColorModePreference)}
          data={[
            { value: 'system', label: t('colorMode.system') },
            { value: 'light', label: t('colorMode.light') },
            { value: 'dark', label: t('colorMode.dark') },
          ]}
          style={{ alignSelf: 'flex-start' }}
        />
      </Section>
      <Section title={t('sound.title')} description={t('sound.description')}>
        <Switch
          checked={sound}
          onChange={(event) => setSound(event.currentTarget.checked)}
          label={sound ? t('sound.on') : t('sound.off')}
        />
        <Group gap="xs" data-testid="sound-source">
          <Text size="sm" c="dimmed">
            {ownSound === null
              ? t('sound.followsHospital', { state: t(hospitalSound ? 'sound.on' : 'sound.off') })
              : t('sound.ownChoice', { state: t(hospitalSound ? 'sound.on' : 'sound.off') })}
          </Text>
          {ownSound !== null && (
            <Button size="compact-sm" variant="subtle" onClick={() => setSound(null)}>
              {t('sound.useHospital')}
            </Button>
          )}
        </Group>
      </Section>
      <Section title={t('pin.title')} description={t('pin.description')}>
        <Text size="sm">{user?.has_pin ? t('pin.statusSet') : t('pin.statusNone')}</Text>
        <Group>
          <Button
            component={Link}
            to={localizePath('/pin-setup', lang)}
            leftSection={<IconPassword size={18} />}
          >
            {user?.has_pin ? t('pin.change') : t('pin.set')}
          </Button>
          {user?.has_pin && (
            <Button
              variant="light"
              color="red"
              leftSection={<IconLockOff size={18} />}
              loading={removing}
              onClick={removePin}
            >
              {t('pin.remove')}
            </Button>
          )}
          <Button variant="default" leftSection={<IconLock size={18} />} onClick={lockSession}>
            {t('pin.lockNow')}
          </Button>
        </Group>
      </Section>
    </Stack>
  );
}
