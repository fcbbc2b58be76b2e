import type { ZodType } from 'zod';

export const PRE_SERIALIZED: unique symbol = Symbol('pre-serialized');

/**
 * An answer already checked against its route's response schema and written as JSON, sent as it is by the
 * serializer (plugins/errors.ts): for an answer kept and sent many times (the bed board's cache).
 */
export interface PreSerialized {
  readonly [PRE_SERIALIZED]: string;
}

/** Checks `data` against the route's response schema and writes it once. */
export function preSerialize(schema: ZodType, data: unknown): PreSerialized {
  return { [PRE_SERIALIZED]: JSON.stringify(schema.parse(data)) };
}

export const isPreSerialized = (data: unknown): data is PreSerialized =>
  typeof data === 'object' && data !== null && PRE_SERIALIZED in data;
