/**
 * Background behaviours of the signed-in app: new-build detection, idle preloading of allowed module
 * chunks (at most 4 at once), the hospital's notification sound default, and the speech indicator loaded
 * 1000 ms after mount (fr and en only).
 */
import { SPEECH_INDICATOR_DELAY_MS } from '@greensen/shared/domain/constants';
import { Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconRefresh } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { type ComponentType, lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { watchForNewBuild } from '../../lib/build-check';
import { releaseAfterFirstData, screenStillLoading, whenShellRequestsReleased } from '../../lib/first-data';
import { useHospitalSoundDefault } from '../../lib/hospital-settings';
import { clearOfflineWard } from '../../lib/offline/clinical-queue';
import { preloadWhenIdle } from '../../lib/preload';
import { registerAppServiceWorker, reloadToNewBuild } from '../../lib/pwa';
import { useAuthStore } from '../../stores/auth';
import { commonLoaders, loadersForModule } from '../page-loaders';
import { useAllowedModules } from './ModuleNav';

const NEW_BUILD_NOTICE_ID = 'new-build';

function NewBuildNotice() {
  const { t } = useTranslation('shell');
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap">
      <Text size="sm">{t('newBuild.message')}</Text>
      <Button size="compact-sm" leftSection={<IconRefresh size={14} />} onClick={reloadToNewBuild}>
        {t('newBuild.reload')}
      </Button>
    </Group>
  );
}

export function useNewBuildNotice(): void {
  const { t } = useTranslation('shell');
  // biome-ignore lint/correctness/useExhaustiveDependencies: watch once per mount
  useEffect(() => {
    if (import.meta.env.DEV) return;
    const show = () =>
      notifications.show({
        id: NEW_BUILD_NOTICE_ID,
        title: t('newBuild.title'),
        message: <NewBuildNotice />,
        color: 'blue',
        autoClose: false,
        withCloseButton: true,
      });
    // Issue 40: the installable app's worker, after load; a new build's worker waits for the notice's reload.
    // Issue 38: and after the page's first data (its precache downloads every file of the build).
    void whenShellRequestsReleased().then(() => registerAppServiceWorker(show));
    return watchForNewBuild(show);
  }, []);
}

function useIdlePreload(): void {
  const modules = useAllowedModules();
  const queryClient = useQueryClient();
  const key = modules.map((module) => module.name).join(',');
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-run when the allowed set changes
  useEffect(() => {
    const loaders = [
      ...new Set([...modules.flatMap((module) => loadersForModule(module.name)), ...commonLoaders]),
    ];
    // Not while the screen's own data is on its way (a slow link would queue it behind the chunks), nor before
    // the shell's own requests have gone (they wait for the page's first data: lib/first-data.ts).
    return preloadWhenIdle(loaders, screenStillLoading(queryClient));
  }, [key]);
}

const LazySpeechIndicator = lazy(() =>
  import('../../features/speech/components/SpeechIndicator').catch((error: unknown) => {
    // Speech recognition load failure: logged only (spec §8).
    console.error('[greensen] speech indicator failed to load', error);
    return { default: () => null };
  }),
);

/** The speech indicator, mounted 1000 ms after its slot for fr/en. */
export function DelayedSpeechIndicator({ lang }: { lang: string }) {
  const [show, setShow] = useState(false);
  useEffect(() => {
    if (lang !== 'fr' && lang !== 'en') return;
    const handle = setTimeout(() => setShow(true), SPEECH_INDICATOR_DELAY_MS);
    return () => clearTimeout(handle);
  }, [lang]);
  if (!show) return null;
  const Indicator: ComponentType = LazySpeechIndicator;
  return (
    <Suspense fallback={null}>
      <Indicator />
    </Suspense>
  );
}

/** Issue 40: a change of hospital deletes the previous hospital's ward copy and queued records. */
function useOfflineWardScope(): void {
  const hospital = useAuthStore((state) => state.currentHospitalId);
  const previous = useRef(hospital);
  useEffect(() => {
    if (previous.current && hospital !== previous.current) void clearOfflineWard();
    previous.current = hospital;
  }, [hospital]);
}

/** Issue 38: the shell's secondary requests go once the page's first data is in (lib/first-data.ts). */
function useReleaseAfterFirstData(): void {
  const queryClient = useQueryClient();
  useEffect(() => releaseAfterFirstData(queryClient), [queryClient]);
}

export function PlatformEffects() {
  useReleaseAfterFirstData();
  useNewBuildNotice();
  useOfflineWardScope();
  useIdlePreload();
  useHospitalSoundDefault();
  return null;
}
