import type { FastifyRequest } from 'fastify';

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
