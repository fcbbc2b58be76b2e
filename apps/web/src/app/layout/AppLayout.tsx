/**
 * The signed-in application shell (Mantine AppShell): header with hospital and department selectors,
 * the offline queue's count (issue 40), notifications bell slot, colour mode, language and user menu; side navigation of the allowed modules,
 * collapsed behind a burger under 992 px. A user without hospital sees the waiting-for-assignment page.
 */
import { AppShell, Burger, Divider, Group, Image, Stack, Text, UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { ModalsProvider } from '@mantine/modals';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation } from 'react-router';
import { useInactivityLock } from '../../lib/inactivity-lock';
import { languageFromPath } from '../../lib/language';
import { OfflineBanner, OfflineQueueButton } from '../../lib/offline/OfflineStatus';
import { useLocalizedPath } from '../../lib/use-localized-path';
import { useUserStore } from '../../stores/user';
import { ModuleGuard } from '../guards/ModuleGuard';
import { StartupLoader } from '../StartupLoader';
import { ColorModeControl } from './ColorModeControl';
import { DepartmentSelector, HospitalSwitcher } from './ContextSelectors';
import { LanguageSwitch } from './LanguageSwitch';
import { ModuleNav } from './ModuleNav';
import { NotificationsBellSlot } from './NotificationsBellSlot';
import { DelayedSpeechIndicator, PlatformEffects } from './PlatformEffects';
import { UserMenu } from './UserMenu';

const WaitingAssignmentPage = lazy(() => import('../../features/auth/pages/WaitingAssignmentPage'));

export function AppLayout() {
  const user = useUserStore((state) => state.user);
  const { pathname } = useLocation();
  const lang = languageFromPath(pathname);
  useInactivityLock();

  if (!user) return <StartupLoader lang={lang} />;
  if (user.hospitals.length === 0) {
    return (
      <Suspense fallback={<StartupLoader lang={lang} />}>
        <WaitingAssignmentPage />
      </Suspense>
    );
  }
  return (
    <ModalsProvider>
      <Shell lang={lang} />
    </ModalsProvider>
  );
}

function Shell({ lang }: { lang: 'fr' | 'en' }) {
  const { t } = useTranslation('shell');
  const [opened, { toggle, close }] = useDisclosure(false);
  const to = useLocalizedPath();

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 250, breakpoint: 'md', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap" gap="sm">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="md"
              size="sm"
              aria-label={opened ? t('nav.close') : t('nav.open')}
            />
            {/* "Greensen — Accueil": the visible name is part of the link's name (axe label-content-name-mismatch). */}
            <UnstyledButton component={Link} to={to('/')} aria-label={`Greensen — ${t('home')}`}>
              <Group gap={8} wrap="nowrap">
                <Image src="/favicon.svg" alt="" w={30} h={30} />
                <Text fw={700} fz="lg" c="var(--mantine-color-greensen-text)" visibleFrom="lg">
                  Greensen
                </Text>
              </Group>
            </UnstyledButton>
            <Group gap="xs" wrap="nowrap" visibleFrom="sm">
              <HospitalSwitcher w={{ base: 160, md: 210, lg: 250 }} />
              <DepartmentSelector w={{ base: 140, md: 170, lg: 230 }} />
            </Group>
          </Group>
          <Group gap={6} wrap="nowrap">
            <DelayedSpeechIndicator lang={lang} />
            <OfflineQueueButton />
            <NotificationsBellSlot />
            <ColorModeControl />
            <LanguageSwitch />
            <UserMenu />
          </Group>
        </Group>
      </AppShell.Header>

      <AppShell.Navbar p="sm">
        <Stack gap="xs" hiddenFrom="sm" mb="sm">
          <HospitalSwitcher w="100%" />
          <DepartmentSelector w="100%" />
          <Divider />
        </Stack>
        <ModuleNav onNavigate={close} />
      </AppShell.Navbar>

      <AppShell.Main>
        <PlatformEffects />
        <OfflineBanner />
        <ModuleGuard>
          <Outlet />
        </ModuleGuard>
      </AppShell.Main>
    </AppShell>
  );
}
