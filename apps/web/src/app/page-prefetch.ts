/**
 * The page's chunks and first data by path, as the app starts (issue 38, docs/decisions/0087-first-data-first.md):
 * beside the user's refresh (StartupGate.beginStartup) instead of after it, the route's page chunk is asked for
 * and the page's first queries — the same query options objects the page uses (its `FirstQueries`) — are started,
 * so that the page, once rendered, finds its data in the cache. The signed-in session is the persisted one (the
 * current hospital, the user); should the refresh change the hospital, what was fetched for the other is dropped.
 */
import { dashboardsForUser, homeDashboard } from '@greensen/shared/domain/dashboards';
import type { DashboardKind } from '@greensen/shared/domain/roles';
import type { QueryClient } from '@tanstack/react-query';
import { configQueryOptions, moduleScopeOf } from '../lib/app-config';
import {
  asFetchOptions,
  type FirstQueries,
  type FirstQuery,
  holdShellRequestsFor,
  type LaterFirstQueries,
} from '../lib/first-data';
import { useAuthStore } from '../stores/auth';
import { rolesInHospital, useUserStore } from '../stores/user';
import { loadPharmacistHome } from './home-screen-loaders';
import { type PageLoader, pageLoaders, withRestStyles } from './page-loaders';

interface PrefetchEntry {
  /** The route's page chunk (and its sub-chunks asked for at once), with the stylesheets it needs. */
  chunks: readonly (() => Promise<unknown>)[];
  /** The page's first queries (app/first-queries.ts, in the shell's chunk), or none. */
  first: () => Promise<FirstQueries | undefined>;
}

const firstQueries = () => import('./first-queries');
const byPath = (path: string) => () => firstQueries().then((m) => m.FIRST_BY_PATH[path]);

/** The signed-in pages whose first screen is started by path (the paths without the /en prefix). */
const BY_PATH: Readonly<Record<string, PrefetchEntry>> = {
  '/medications': { chunks: [pageLoaders.medications], first: byPath('/medications') },
  '/documents': { chunks: [pageLoaders.documents], first: byPath('/documents') },
  '/billing': { chunks: [pageLoaders.billing], first: byPath('/billing') },
  '/hospitalizations': { chunks: [pageLoaders.hospitalizations], first: byPath('/hospitalizations') },
  // The calendar's own chunk (the event calendar) is lazy inside the page: asked beside it. Its first queries
  // follow the page's own choice of view, week and scope (calendar-first.ts).
  '/calendar': {
    chunks: [pageLoaders.calendar, () => import('../features/appointments/components/AppointmentCalendar')],
    first: byPath('/calendar'),
  },
};

/** The home page ('/' and '/dashboard') by the dashboard it opens on. */
const HOME: Partial<Readonly<Record<DashboardKind, PrefetchEntry>>> = {
  admin: {
    chunks: [pageLoaders.dashboard],
    first: () => firstQueries().then((m) => m.FIRST_BY_HOME.admin),
  },
  doctor: {
    chunks: [
      pageLoaders.dashboard,
      () => import('../features/dashboard/components/DoctorDashboard').then((m) => m.loadUrgentResultsCard()),
    ],
    first: () => firstQueries().then((m) => m.FIRST_BY_HOME.doctor),
  },
  // The pharmacist's tabs (registered by app/home-screens.ts, with the strings beyond the first screens') beside
  // the dashboard's chunk.
  pharmacist: {
    chunks: [pageLoaders.dashboard, loadPharmacistHome],
    first: () => firstQueries().then((m) => m.FIRST_BY_HOME.pharmacist),
  },
};

/** The path without the language prefix and the trailing slash. */
function routePath(pathname: string): string {
  const rest = pathname === '/en' ? '/' : pathname.startsWith('/en/') ? pathname.slice(3) : pathname;
  return rest.length > 1 && rest.endsWith('/') ? rest.slice(0, -1) : rest;
}

/** What the app starts for `pathname` with the persisted session, or null (nothing known for it). */
export function prefetchEntry(pathname: string): PrefetchEntry | null {
  const path = routePath(pathname);
  if (path === '/' || path === '/dashboard') {
    const user = useUserStore.getState().user;
    const hospitalId = useAuthStore.getState().currentHospitalId;
    const home = homeDashboard(dashboardsForUser(rolesInHospital(user, hospitalId)));
    return home ? (HOME[home.kind] ?? null) : null;
  }
  return BY_PATH[path] ?? null;
}

/**
 * The first queries of the page at `pathname`, for the persisted session: none when signed out, or when the module
 * guard would refuse the page (with the installation's configuration, asked with the page: index.html).
 * `refreshed` is the start-up refresh of the user (the roles a page's later queries are decided with).
 */
export async function firstQueriesFor(
  queryClient: QueryClient,
  pathname: string,
  search = '',
  refreshed: Promise<unknown> = Promise.resolve(),
): Promise<readonly (FirstQuery | LaterFirstQueries)[]> {
  const entry = prefetchEntry(pathname);
  const hospitalId = useAuthStore.getState().currentHospitalId;
  if (!entry || !hospitalId || !useAuthStore.getState().isAuthenticated) return [];
  const [first, config, map] = await Promise.all([
    entry.first(),
    queryClient.ensureQueryData(configQueryOptions()),
    firstQueries(),
  ]);
  const { user, currentDepartmentId } = useUserStore.getState();
  if (!first || !map.guardAllows(routePath(pathname), config, user, hospitalId)) return [];
  return first({
    hospitalId,
    userId: user?.id ?? null,
    user,
    currentDepartmentId,
    scope: moduleScopeOf(config),
    search: new URLSearchParams(search),
    answer: (query) => queryClient.ensureQueryData(query),
    refreshedUser: () => refreshed.then(() => useUserStore.getState().user),
  });
}

/**
 * Starts the chunks and the first queries of the page at `pathname` (signed in, with a current hospital): those
 * known at once, then those the page asks once another answer is in, unless the refresh moved the user to another
 * hospital. Resolves once the first are started; failures are left to the page (it asks again).
 */
export async function prefetchPage(
  queryClient: QueryClient,
  pathname: string,
  search = '',
  refreshed: Promise<unknown> = Promise.resolve(),
): Promise<void> {
  const entry = prefetchEntry(pathname);
  if (!entry || !useAuthStore.getState().isAuthenticated) return;
  // The shell's own requests wait for these too (the page cannot paint before its code and strings).
  holdShellRequestsFor(Promise.all(entry.chunks.map((load) => withRestStyles(load as PageLoader)())));
  const hospitalId = useAuthStore.getState().currentHospitalId;
  const start = (query: FirstQuery) => void queryClient.prefetchQuery(asFetchOptions(query));
  try {
    const queries = await firstQueriesFor(queryClient, pathname, search, refreshed);
    for (const query of queries) {
      if (!('later' in query)) start(query);
      else
        query.later.then(
          (later) => {
            if (useAuthStore.getState().currentHospitalId === hospitalId) later.forEach(start);
          },
          () => {},
        );
    }
  } catch {
    // The page's own queries ask again.
  }
}
