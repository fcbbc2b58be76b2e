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
import { loadAppointmentCalendar } from '../features/appointments/components/calendar-loader';
import {
  loadAdminDashboard,
  loadDoctorDashboard,
  loadNurseDashboard,
  loadSecretaryDashboard,
  loadUrgentResultsCard,
} from '../features/dashboard/components/dashboard-loaders';
import { configQueryOptions, moduleScopeOf } from '../lib/app-config';
import {
  asFetchOptions,
  type FirstQueries,
  type FirstQuery,
  holdShellRequestsFor,
  type LaterFirstQueries,
} from '../lib/first-data';
import { preloadComponent } from '../lib/lazy-component';
import { useAuthStore } from '../stores/auth';
import { rolesInHospital, useUserStore } from '../stores/user';
import { loadCashierHome, loadPharmacistHome } from './home-screen-loaders';
import { type PageLoader, pageLoaders, withRestStyles } from './page-loaders';

interface PrefetchEntry {
  /** The route's page chunk (and its sub-chunks asked for at once), with the stylesheets it needs. */
  chunks: readonly (() => Promise<unknown>)[];
  /** The page's first queries (app/first-queries.ts, in the shell's chunk), or none. */
  first: () => Promise<FirstQueries | undefined>;
}

const firstQueries = () => import('./first-queries');
const byPath = (path: string) => () => firstQueries().then((m) => m.FIRST_BY_PATH[path]);
const byHome = (kind: DashboardKind) => () => firstQueries().then((m) => m.FIRST_BY_HOME[kind]);
/** A page whose chunks are asked for by path but whose queries start as it renders. */
const noFirstQueries = () => Promise.resolve(undefined);

/** The signed-in pages whose first screen is started by path (the paths without the /en prefix). */
const BY_PATH: Readonly<Record<string, PrefetchEntry>> = {
  '/medications': { chunks: [pageLoaders.medications], first: byPath('/medications') },
  '/documents': { chunks: [pageLoaders.documents], first: byPath('/documents') },
  '/billing': { chunks: [pageLoaders.billing], first: byPath('/billing') },
  '/hospitalizations': { chunks: [pageLoaders.hospitalizations], first: byPath('/hospitalizations') },
  // The calendar's own chunk (the event calendar) is lazy inside the page: asked beside it. Its first queries
  // follow the page's own choice of view, week and scope (calendar-first.ts).
  '/calendar': {
    chunks: [pageLoaders.calendar, () => preloadComponent(loadAppointmentCalendar)],
    first: byPath('/calendar'),
  },
};

/** The home page ('/' and '/dashboard') by the dashboard it opens on: the page's chunk and the dashboard's. */
const HOME: Partial<Readonly<Record<DashboardKind, PrefetchEntry>>> = {
  admin: {
    chunks: [pageLoaders.dashboard, () => preloadComponent(loadAdminDashboard)],
    first: byHome('admin'),
  },
  doctor: {
    chunks: [
      pageLoaders.dashboard,
      () => preloadComponent(loadDoctorDashboard),
      () => preloadComponent(loadUrgentResultsCard),
    ],
    first: byHome('doctor'),
  },
  nurse: {
    chunks: [pageLoaders.dashboard, () => preloadComponent(loadNurseDashboard)],
    first: noFirstQueries,
  },
  secretary: {
    chunks: [pageLoaders.dashboard, () => preloadComponent(loadSecretaryDashboard)],
    first: noFirstQueries,
  },
  // The pharmacist's and the cashier's tabs (registered by app/home-screens.ts, with the strings beyond the first
  // screens') beside the dashboard's chunk.
  pharmacist: {
    chunks: [pageLoaders.dashboard, () => preloadComponent(loadPharmacistHome)],
    first: byHome('pharmacist'),
  },
  cashier: {
    chunks: [pageLoaders.dashboard, () => preloadComponent(loadCashierHome)],
    first: noFirstQueries,
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

/** The chunks asked for by path as the app started, or null (none). */
let startChunks: Promise<unknown> | null = null;

/** How long the app's first render waits for them at most (a slow link: the page then shows its loaders). */
export const START_CHUNKS_MAX_WAIT_MS = 1_000;

/**
 * Resolves once the chunks asked for by path as the app started are in (failures count as in: the page asks
 * again), or after `maxWaitMs`. main.tsx renders the app then (issue 38): the page renders with all its code at once
 * — a lazy part still loading shows its loader, and React then holds what replaces a loader until 300 ms after
 * it appeared (lib/lazy-component.tsx). Nothing is lost on screen: until the router has the page's own chunk, the
 * app shows nothing anyway.
 */
export function startChunksLoaded(maxWaitMs = START_CHUNKS_MAX_WAIT_MS): Promise<void> {
  if (!startChunks) return Promise.resolve();
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    startChunks.then(
      () => {},
      () => {},
    ),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, maxWaitMs);
    }),
  ]).finally(() => clearTimeout(timer));
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
  // The shell's own requests wait for these too (the page cannot paint before its code and strings), and so does
  // the app's first render (`startChunksLoaded`).
  startChunks = Promise.all(entry.chunks.map((load) => withRestStyles(load as PageLoader)()));
  holdShellRequestsFor(startChunks);
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
