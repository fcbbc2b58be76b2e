/**
 * Pieces every list and form contract shares (DESIGN §4).
 */
import { z } from 'zod';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/** `page` and `page_size` (max 100) of every list. */
export const ZPageQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
});

/**
 * The text search of a list (issue 36, decision 0061): one name everywhere, `search` (the specification's patient
 * list, Django REST Framework's convention). `q`, the former name of six lists, is still accepted for one release:
 * declared deprecated in the OpenAPI document, and moved to `search` before validation by the server
 * (`apps/server/src/lib/pagination.ts`), so that nothing past the schema reads it. Spread into a list's query:
 * `ZPageQuery.extend({ ...zSearch(), … })`.
 */
export const SEARCH_DEPRECATED_ALIAS = 'q';

export function zSearch<const Required extends boolean = false>(
  options: { max?: number; min?: number; required?: Required } = {},
) {
  const text = z
    .string()
    .trim()
    .min(options.min ?? 0)
    .max(options.max ?? 100);
  return {
    search: (options.required ? text : text.optional()) as Required extends true
      ? typeof text
      : z.ZodOptional<typeof text>,
    [SEARCH_DEPRECATED_ALIAS]: z.string().optional().meta({
      deprecated: true,
      description: 'Deprecated: the former name of `search`, accepted until the next release.',
    }),
  } as const;
}

/** `{count, next, previous, results}`; `next`/`previous` are absolute URLs or null. */
export const zPage = <T extends z.ZodType>(item: T) =>
  z.object({
    count: z.number().int(),
    /** True when `count` is a lower bound (large searches stop counting at a cap). */
    count_capped: z.boolean().optional(),
    next: z.string().nullable(),
    previous: z.string().nullable(),
    results: z.array(item),
  });

export const ZIdParams = z.object({ id: z.uuid() });

/** `true`/`false` in a query string. */
export const zQueryBoolean = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

export const zDateTime = z.iso.datetime({ offset: true });
