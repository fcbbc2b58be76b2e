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
