import { SEARCH_DEPRECATED_ALIAS } from '@greensen/shared/contracts/common';
import type { FastifyRequest, RouteOptions } from 'fastify';

/** Absolute URL of another page of the current list, keeping the other query parameters. */
export function pageUrl(request: FastifyRequest, page: number): string {
  const url = new URL(request.url, `${request.protocol}://${request.host}`);
  url.searchParams.set('page', String(page));
  return url.toString();
}

/** `{count, next, previous, results}` (DESIGN §4). */
export function pageOf<T>(
  request: FastifyRequest,
  query: { page: number; page_size: number },
  count: number,
  results: T[],
  extra: { countCapped?: boolean } = {},
) {
  const hasNext =
    query.page * query.page_size < count ||
    (extra.countCapped === true && results.length === query.page_size);
  return {
    count,
    ...(extra.countCapped !== undefined ? { count_capped: extra.countCapped } : {}),
    next: hasNext ? pageUrl(request, query.page + 1) : null,
    previous: query.page > 1 ? pageUrl(request, query.page - 1) : null,
    results,
  };
}

export const offsetOf = (query: { page: number; page_size: number }) => (query.page - 1) * query.page_size;

/**
 * `q`, the former name of six lists' text search, still accepted for one release (issue 36, decision 0061): on
 * every route whose query schema declares `search` (the shared `zSearch()`), a `q` given without `search` becomes
 * `search` before validation, and is dropped either way, so that services read `search` only. Wired once for every
 * route by `app.ts`'s `onRoute` hook.
 */
export function acceptDeprecatedSearchAlias(route: RouteOptions): void {
  const query = route.schema?.querystring as { shape?: Record<string, unknown> } | undefined;
  if (!query?.shape || !('search' in query.shape)) return;
  const move = async (request: FastifyRequest) => {
    const params = request.query as Record<string, unknown> | null;
    if (!params || !(SEARCH_DEPRECATED_ALIAS in params)) return;
    if (params.search === undefined) params.search = params[SEARCH_DEPRECATED_ALIAS];
    delete params[SEARCH_DEPRECATED_ALIAS];
  };
  const existing = route.preValidation;
  route.preValidation = existing ? [move, ...[existing].flat()] : move;
}
