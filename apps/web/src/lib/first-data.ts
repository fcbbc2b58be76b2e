/**
 * The screen's first data before the shell's own requests (issue 38, docs/decisions/0087-first-data-first.md).
 *
 * - A page names the queries of its first screen (`FirstQueries`, beside the page, built from the same query
 *   options the page uses): the app starts them by path as it starts (app/page-prefetch.ts), beside the user's
 *   refresh, so that the page finds them in the cache instead of asking once its chunks are in and rendered.
 * - The shell's secondary requests — the notification list, the messaging's unread count, the hospital's
 *   settings, what waits in the other hospitals — wait until the page's first data is in (no query in flight
 *   once the shell is on screen, and the page's chunks started by path are in: `holdShellRequestsFor`), or `SHELL_REQUESTS_MAX_WAIT_MS` at the latest. The embedded database answers
 *   one query at a time: asked together, they queued the page's own data behind them. They are held only when
 *   the app starts signed in (`holdShellRequests`, app/StartupGate.tsx); otherwise they go at once. The installable
 *   app's worker registers after them too (its precache downloads every file of the build).
 */
import type { FetchQueryOptions, QueryClient, QueryKey } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import type { User } from '../stores/user';
import type { ModuleScope } from './app-config';

/** What a page's first queries depend on, known before the user's refresh (the persisted session). */
export interface FirstDataContext {
  hospitalId: string;
  userId: string | null;
  /** The persisted user (roles, departments) and current department: the choices a page makes from them. */
  user: User | null;
  currentDepartmentId: string | null;
  /** The installation's modules (the configuration, asked with the page). */
  scope: ModuleScope;
  /** The address's query string (a page's choices kept in it: the calendar's view, week and scope). */
  search: URLSearchParams;
  /**
   * The answer of one of the page's queries (started when not yet): for first queries the page asks only once
   * another's answer is in (billing's invoices after its staff check, from the departments' kinds).
   */
  answer: <T, K extends QueryKey>(query: FetchQueryOptions<T, Error, T, K>) => Promise<T>;
  /** The user once the start-up refresh is in (the roles the page will see); rejects when it fails. */
  refreshedUser: () => Promise<User | null>;
}

/** A first-screen query: the page's own query options (the key and the function that fetches it). */
export interface FirstQuery {
  queryKey: QueryKey;
  queryFn?: unknown;
  staleTime?: unknown;
}

/** A first query as `QueryClient.prefetchQuery` takes it (the page's own options object, unchanged). */
export function asFetchOptions(query: FirstQuery): FetchQueryOptions {
  return query as FetchQueryOptions;
}

/** First queries the page asks for once an answer is in (a choice it makes from that answer). */
export interface LaterFirstQueries {
  later: Promise<readonly FirstQuery[]>;
}

/**
 * The queries a page asks for first, from the same query options objects it uses: at once, or `later` (after an
 * answer the page waits for as well).
 */
export type FirstQueries = (context: FirstDataContext) => readonly (FirstQuery | LaterFirstQueries)[];

/** The longest the shell's secondary requests wait for the page's first data (a page that never settles). */
export const SHELL_REQUESTS_MAX_WAIT_MS = 3_000;

let released = true;
let maxWait = SHELL_REQUESTS_MAX_WAIT_MS;
const listeners = new Set<() => void>();
/** The page's chunks started by path and not yet in (app/page-prefetch.ts): the page cannot paint before them. */
let chunksPending = 0;
/** Looks again whether the first data is in, once a held chunk is in (set while `releaseAfterFirstData` runs). */
let recheck: (() => void) | null = null;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether the shell's secondary requests may go. */
export function shellRequestsReleased(): boolean {
  return released;
}

/** The app starts signed in: the shell's secondary requests wait for the page's first data (`maxWaitMs` at most). */
export function holdShellRequests(maxWaitMs = SHELL_REQUESTS_MAX_WAIT_MS): void {
  released = false;
  maxWait = maxWaitMs;
}

/**
 * The page's chunks, started by path as the app starts: the shell's secondary requests (and the idle preloading
 * after them) also wait for these, so that they do not take the browser's connections and main thread while the
 * page, its data already in, still waits for its code or its strings (the pharmacist's home). Failures count as in.
 */
export function holdShellRequestsFor(chunks: Promise<unknown>): void {
  if (released) return;
  chunksPending += 1;
  void chunks
    .catch(() => {})
    .finally(() => {
      chunksPending -= 1;
      recheck?.();
    });
}

/** The page's first data is in (or the wait is over): the shell's secondary requests go. */
export function releaseShellRequests(): void {
  if (released) return;
  released = true;
  for (const listener of [...listeners]) listener();
}

/**
 * Whether background fetching (idle preloading) should still wait: the shell's secondary requests are held, or the
 * screen's own data is on its way (a slow link would queue it behind the chunks).
 */
export function screenStillLoading(queryClient: QueryClient): () => boolean {
  return () => !released || queryClient.isFetching() > 0;
}

/** Resolves once the shell's secondary requests may go (at once when they are not held). */
export function whenShellRequestsReleased(): Promise<void> {
  if (released) return Promise.resolve();
  return new Promise((resolve) => {
    const off = subscribe(() => {
      off();
      resolve();
    });
  });
}

/** For components: true once the shell's secondary requests may go (re-renders then). */
export function useShellRequestsReleased(): boolean {
  return useSyncExternalStore(subscribe, shellRequestsReleased, shellRequestsReleased);
}

/**
 * Called once the shell and its page are mounted (their queries are then started): releases the shell's
 * secondary requests when no query is in flight any more, or after `maxWaitMs`. Returns the clean-up.
 */
export function releaseAfterFirstData(queryClient: QueryClient, maxWaitMs = maxWait): () => void {
  if (released) return () => {};
  const check = () => {
    if (chunksPending === 0 && queryClient.isFetching() === 0) releaseShellRequests();
  };
  recheck = check;
  const unsubscribe = queryClient.getQueryCache().subscribe(() => {
    // After the cache's change is applied (a query that ends is counted out at its next notification).
    queueMicrotask(check);
  });
  const timer = setTimeout(releaseShellRequests, maxWaitMs);
  // The first look once every effect of the commit has run: the page's queries, mounted after the shell's
  // effects, have started by then.
  const first = setTimeout(check, 0);
  const off = subscribe(() => {
    unsubscribe();
    clearTimeout(timer);
    clearTimeout(first);
    recheck = null;
  });
  return () => {
    unsubscribe();
    clearTimeout(timer);
    clearTimeout(first);
    off();
    recheck = null;
  };
}
