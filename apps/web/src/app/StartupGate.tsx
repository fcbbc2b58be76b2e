/**
 * App start (spec §4): content shows only after initialization — the public configuration is loaded and,
 * when authenticated, the user refreshed. A failure shows 'Failed to initialize application' with a retry.
 */
import type { Language } from '@greensen/shared/domain/constants';
import { Alert, Button, Center, Stack } from '@mantine/core';
import { IconAlertCircle, IconRefresh } from '@tabler/icons-react';
import { type QueryClient, useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { configQueryOptions } from '../lib/app-config';
import { holdShellRequests } from '../lib/first-data';
import { refreshUser } from '../lib/profile';
import { useAuthStore } from '../stores/auth';
import { prefetchPage } from './page-prefetch';
import { StartupLoader } from './StartupLoader';

let userRefreshed = false;
/** The start-up refresh of the signed-in user, shared by `beginStartup` and the gate (null once failed). */
let userRefresh: Promise<void> | null = null;

/** For tests: forget that the user was refreshed at start-up. */
export function resetStartupState(): void {
  userRefreshed = false;
  userRefresh = null;
}

function refreshUserOnce(): Promise<void> {
  userRefresh ??= refreshUser().then(
    () => {
      userRefreshed = true;
    },
    (error: unknown) => {
      userRefresh = null; // a retry starts a new one
      throw error;
    },
  );
  return userRefresh;
}

/**
 * Starts what the gate waits for — the public configuration and, when signed in, the user — as the app starts,
 * beside the strings of its language (main.tsx), instead of after the first render: one round trip less before
 * the first screen on slow links (issue 16).
 */
export function beginStartup(
  queryClient: QueryClient,
  pathname = window.location.pathname,
  search = window.location.search,
): void {
  void queryClient.prefetchQuery(configQueryOptions());
  if (!useAuthStore.getState().isAuthenticated) return;
  const hospitalBefore = useAuthStore.getState().currentHospitalId;
  const refreshed = refreshUserOnce();
  refreshed.then(
    () => {
      // The refresh chose another hospital (the saved one is no longer the user's): what was started for the
      // saved one is not shown.
      if (hospitalBefore && useAuthStore.getState().currentHospitalId !== hospitalBefore)
        queryClient.removeQueries({ predicate: (query) => query.queryKey.includes(hospitalBefore) });
    },
    () => {},
  );
  // Issue 38: the page's chunks and first data beside the refresh; the shell's own requests wait for them.
  holdShellRequests();
  void prefetchPage(queryClient, pathname, search, refreshed);
}

export function StartupGate({ lang, children }: { lang: Language; children: ReactNode }) {
  const { t } = useTranslation('common');
  const config = useQuery(configQueryOptions());
  const isAuthenticated = useAuthStore((state) => state.isAuthenticated);
  const [userReady, setUserReady] = useState(userRefreshed || !isAuthenticated);
  // The user could not be fetched because no answer came (offline): the session is kept, a retry is offered.
  const [userUnreachable, setUserUnreachable] = useState(false);
  const [attempt, setAttempt] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` re-runs the refresh on retry.
  useEffect(() => {
    if (userRefreshed || !isAuthenticated) {
      setUserReady(true);
      return;
    }
    let active = true;
    refreshUserOnce().then(
      () => {
        if (active) setUserReady(true);
      },
      () => {
        if (active) setUserUnreachable(true);
      },
    );
    return () => {
      active = false;
    };
  }, [isAuthenticated, attempt]);

  if ((config.isError && !config.data) || userUnreachable) {
    return (
      <Center mih="100vh" p="md">
        <Stack align="center" maw={420}>
          <Alert color="red" icon={<IconAlertCircle />} title={t('startup.failed')} w="100%">
            {t('startup.failedHint')}
          </Alert>
          <Button
            leftSection={<IconRefresh size={18} />}
            loading={config.isFetching}
            onClick={() => {
              if (config.isError) void config.refetch();
              if (userUnreachable) {
                setUserUnreachable(false);
                setAttempt((n) => n + 1);
              }
            }}
          >
            {t('actions.retry')}
          </Button>
        </Stack>
      </Center>
    );
  }

  if (!config.data || !userReady) return <StartupLoader lang={lang} />;
  return <>{children}</>;
}
