import type { z } from 'zod';

/**
 * A valid example of a zod 4 schema, for the request fixtures of the security harness: the matrix sends it as
 * the body or query of each route, and the fuzzer and the mass-assignment properties start from it.
 *
 * - `required`: only what the schema requires (optional and defaulted fields are left out);
 * - `full`: every field, optional ones included.
 * `hint(key, schema)` may supply the value of a field by name (ids of fixture rows, a phone number…). The result
 * is not guaranteed to pass cross-field refinements; callers parse it with the schema to find out.
 */
export interface SampleOptions {
  mode?: 'required' | 'full';
  hint?: (key: string, schema: z.ZodType) => unknown;
}

type Def = { type: string; [k: string]: unknown };
type Check = { check: string; [k: string]: unknown };

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;
const checksOf = (schema: z.ZodType): Check[] =>
  ((defOf(schema).checks as Array<{ _zod: { def: Check } }> | undefined) ?? []).map((c) => c._zod.def);

/** Whether a field may be left out of an object (optional, defaulted, or optional inside a pipe). */
export function isOptional(schema: z.ZodType): boolean {
  return (schema as unknown as { _zod: { optin?: string } })._zod.optin === 'optional';
}

/** The shape of an object schema (through refinements, pipes and optional wrappers), or null. */
export function objectShape(schema: z.ZodType | undefined): Record<string, z.ZodType> | null {
  let s = schema;
  for (let depth = 0; s && depth < 10; depth++) {
    const def = defOf(s);
    if (def.type === 'object') return def.shape as Record<string, z.ZodType>;
    if (def.type === 'pipe') s = def.in as z.ZodType;
    else if (['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch'].includes(def.type))
      s = def.innerType as z.ZodType;
    else return null;
  }
  return null;
}

const SAMPLE_UUID = '0190a6f4-7d3c-7b3e-9c1a-2f4e5d6c7b8a';

function stringSample(schema: z.ZodType): string {
  const def = defOf(schema);
  const checks = checksOf(schema);
  let min = 0;
  let max = Number.POSITIVE_INFINITY;
  let pattern: RegExp | undefined;
  let format = def.format as string | undefined;
  for (const c of checks) {
    if (c.check === 'min_length') min = Math.max(min, c.minimum as number);
    if (c.check === 'max_length') max = Math.min(max, c.maximum as number);
    if (c.check === 'length_equals') min = max = c.length as number;
    if (c.check === 'string_format') {
      if (c.format === 'regex') pattern = c.pattern as RegExp;
      else format ??= c.format as string;
    }
  }
  switch (format) {
    case 'uuid':
    case 'guid':
      return SAMPLE_UUID;
    case 'email':
      return 'sample.user@example.test';
    case 'date':
      return '1990-06-15';
    case 'datetime':
      return '2026-01-15T10:30:00Z';
    case 'time':
      return '10:30:00';
    case 'url':
      return 'https://example.test/';
  }
  if (pattern) {
    // A few patterns of the contracts: phone numbers, usernames, codes.
    for (const candidate of ['+243810000001', 'sample_user', 'A00', 'A000', 'X', '123456', 'abc']) {
      if (pattern.test(candidate) && candidate.length >= min && candidate.length <= max) return candidate;
    }
  }
  const base = 'Échantillon';
  let out = base;
  while (out.length < min) out += base;
  return out.slice(0, Math.max(min, Math.min(out.length, max)));
}

function numberSample(schema: z.ZodType): number {
  let min = Number.NEGATIVE_INFINITY;
  let max = Number.POSITIVE_INFINITY;
  let integer = false;
  for (const c of checksOf(schema)) {
    if (c.check === 'greater_than') min = (c.value as number) + (c.inclusive ? 0 : 1e-6);
    if (c.check === 'less_than') max = (c.value as number) - (c.inclusive ? 0 : 1e-6);
    if (c.check === 'number_format' && String(c.format).includes('int')) integer = true;
  }
  let v: number;
  if (Number.isFinite(min) && Number.isFinite(max)) v = (min + max) / 2;
  else if (Number.isFinite(min)) v = min + 1;
  else if (Number.isFinite(max)) v = Math.min(max, 1);
  else v = 1;
  return integer ? Math.round(v) : Math.round(v * 10) / 10;
}

/** A valid example of `schema` (see the module comment). */
export function sampleOf(schema: z.ZodType, options: SampleOptions = {}, key = ''): unknown {
  const mode = options.mode ?? 'required';
  const def = defOf(schema);
  switch (def.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, field] of Object.entries(def.shape as Record<string, z.ZodType>)) {
        const hinted = options.hint?.(k, field);
        if (hinted !== undefined) {
          out[k] = hinted;
          continue;
        }
        if (mode === 'required' && isOptional(field)) continue;
        const v = sampleOf(field, options, k);
        if (v !== undefined) out[k] = v;
      }
      return out;
    }
    case 'string':
      return stringSample(schema);
    case 'number':
    case 'int':
      return numberSample(schema);
    case 'bigint':
      return 1;
    case 'boolean':
      return true;
    case 'date':
      return '2026-01-15T10:30:00Z';
    case 'enum':
      return Object.values(def.entries as Record<string, string>)[0];
    case 'literal':
      return (def.values as unknown[])[0];
    case 'null':
      return null;
    case 'undefined':
    case 'void':
      return undefined;
    case 'any':
    case 'unknown':
      return 'x';
    case 'array': {
      const min = checksOf(schema).find((c) => c.check === 'min_length')?.minimum as number | undefined;
      if (mode === 'required' && !min) return [];
      return Array.from({ length: Math.max(1, min ?? 1) }, () => sampleOf(def.element as z.ZodType, options));
    }
    case 'record':
      return {};
    case 'tuple':
      return (def.items as z.ZodType[]).map((item) => sampleOf(item, options));
    case 'union':
      return sampleOf((def.options as z.ZodType[])[0]!, options, key);
    case 'intersection':
      return {
        ...(sampleOf(def.left as z.ZodType, options) as object),
        ...(sampleOf(def.right as z.ZodType, options) as object),
      };
    case 'optional':
    case 'nullable':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return sampleOf(def.innerType as z.ZodType, options, key);
    case 'default':
    case 'prefault':
      return sampleOf(def.innerType as z.ZodType, options, key);
    case 'pipe':
      return sampleOf(def.in as z.ZodType, options, key);
    case 'lazy':
      return sampleOf((def.getter as () => z.ZodType)(), options, key);
    case 'transform':
      return undefined;
    default:
      return undefined;
  }
}

/** A query string object (every value a string) from a sample of a querystring schema. */
export function queryOf(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries((value as Record<string, unknown>) ?? {})) {
    if (v === undefined || v === null) continue;
    out[k] = Array.isArray(v) ? v.join(',') : String(v);
  }
  return out;
}
