/**
 * The `web` project's files share one module graph (vitest.config.ts): each file starts from the app's module state
 * as a fresh page has it — no toast, no cached query, the stores as created, French — whatever the file before it
 * left there. (Not in the `web:isolated` project: importing the stores here would load the modules its files
 * replace with `vi.mock` before the replacement.)
 */
import { cleanNotifications, cleanNotificationsQueue } from '@mantine/notifications';
import { vi } from 'vitest';
import type { StoreApi } from 'zustand';
import { releaseShellRequests } from '../lib/first-data';
import { i18n } from '../lib/i18n';
import { queryClient } from '../lib/query-client';
import { useAuthStore } from '../stores/auth';
import { useLockStore } from '../stores/lock';
import { useNotificationsStore } from '../stores/notifications';
import { usePreferencesStore } from '../stores/preferences';
import { useRefreshFlagsStore } from '../stores/refresh-flags';
import { useUserStore } from '../stores/user';

cleanNotifications();
cleanNotificationsQueue();
queryClient.clear();
// A file that ended while the shell's secondary requests were held (decision 0087) leaves them released.
releaseShellRequests();
const reset = <T>(store: StoreApi<T>) => store.setState(store.getInitialState(), true);
reset(useAuthStore);
reset(useLockStore);
reset(useNotificationsStore);
reset(usePreferencesStore);
reset(useRefreshFlagsStore);
reset(useUserStore);
localStorage.clear();
sessionStorage.clear();
vi.useRealTimers();
if (i18n.language !== 'fr') await i18n.changeLanguage('fr');
