import type { TemplateErrorReason } from '@greensen/shared/contracts/documents';
import { Liquid, LiquidError, Tag, type TagToken, type TopLevelToken } from 'liquidjs';
import { escapeMarkdown } from './markdown.js';

/**
 * The template language of document models (decision 0023): Liquid through `liquidjs`, a sandboxed engine made
 * for untrusted templates, configured so that a body reaches nothing but the variables it is given:
 * - own properties only (no `constructor`, `__proto__`, prototype methods), variables given as plain data;
 * - no file system: `include`, `render` and `layout` are refused at parse time (and the in-memory partials map
 *   is empty); unknown filters are errors (`strictFilters`);
 * - bounded: the body's length (`parseLimit`), the render time (`renderLimit`) and memory (`memoryLimit`),
 *   and the produced text's length;
 * - every `{{ value }}` is escaped for the Markdown it lands in (`outputEscape`), so a patient's name is text,
 *   never markup; the Markdown becomes escaped HTML or PDF text, never HTML.
 */

export const PARSE_LIMIT = 40_000;
export const RENDER_LIMIT_MS = 1_000;
export const MEMORY_LIMIT = 4_000_000;
export const OUTPUT_LIMIT = 200_000;

/** A refused body: where (1-based line and column) and why. */
export class TemplateError extends Error {
  constructor(
    readonly reason: TemplateErrorReason,
    readonly line: number,
    readonly column: number,
  ) {
    super(`template ${reason} at ${line}:${column}`);
  }
}

const FORBIDDEN_TAGS = ['include', 'render', 'layout', 'block'];

class ForbiddenTag extends Tag {
  constructor(token: TagToken, remain: TopLevelToken[], liquid: Liquid) {
    super(token, remain, liquid);
    throw new TemplateError('forbidden_tag', 0, 0);
  }
  *render() {
    // never reached: the constructor refuses the tag
  }
}

function markdownEscape(value: unknown): string {
  if (value === null || value === undefined) return '';
  return escapeMarkdown(String(value));
}

function makeEngine(strictVariables: boolean): Liquid {
  const engine = new Liquid({
    ownPropertyOnly: true,
    strictFilters: true,
    strictVariables,
    lenientIf: true,
    jsTruthy: false,
    // In-memory partials only, and none: nothing is read from disk.
    templates: {},
    relativeReference: false,
    dynamicPartials: false,
    parseLimit: PARSE_LIMIT,
    renderLimit: RENDER_LIMIT_MS,
    memoryLimit: MEMORY_LIMIT,
    outputEscape: markdownEscape,
    greedy: false,
  });
  for (const name of FORBIDDEN_TAGS) engine.registerTag(name, ForbiddenTag);
  // `raw` would skip the escaping: it escapes like any output.
  engine.registerFilter('raw', (v: unknown) => v);
  return engine;
}

const lenient = makeEngine(false);
const strict = makeEngine(true);

/** The filters a body may use (listed for the editor's help). */
export const TEMPLATE_FILTERS = Object.keys(lenient.filters).sort();

function positionOf(err: unknown): [number, number] {
  const token = (err as { token?: { getPosition?: () => number[] } }).token;
  const pos = token?.getPosition?.();
  return pos && pos.length >= 2 ? [pos[0]!, pos[1]!] : [1, 1];
}

function reasonOf(err: unknown): TemplateErrorReason {
  const chain: unknown[] = [];
  for (let e: unknown = err, depth = 0; e && depth < 5; depth++) {
    chain.push(e);
    e = (e as { originalError?: unknown; cause?: unknown }).originalError ?? (e as { cause?: unknown }).cause;
  }
  for (const e of chain) if (e instanceof TemplateError) return e.reason;
  const message = chain.map((e) => String((e as Error).message ?? '')).join(' | ');
  if (/undefined variable/i.test(message)) return 'unknown_variable';
  if (/undefined filter/i.test(message)) return 'unknown_filter';
  if (/tag .* not found/i.test(message)) return 'unknown_tag';
  if (/limit exceeded/i.test(message)) return 'limit_exceeded';
  return 'syntax';
}

function toTemplateError(err: unknown): TemplateError {
  if (err instanceof TemplateError && err.line > 0) return err;
  const [line, column] = LiquidError.is(err) ? positionOf(err) : [1, 1];
  return new TemplateError(reasonOf(err), line, column);
}

/** Parses a body (throws TemplateError). */
function parse(engine: Liquid, body: string) {
  try {
    return engine.parse(body);
  } catch (err) {
    throw toTemplateError(err);
  }
}

export type Variables = Record<string, unknown>;

/** Whether `path` (segments from a root variable) exists in `data`, own properties only. */
function resolves(data: unknown, segments: readonly unknown[]): boolean {
  let cur: unknown = data;
  for (const seg of segments) {
    if (typeof seg !== 'string' && typeof seg !== 'number') return true; // a computed index: checked at render
    if (Array.isArray(cur)) {
      if (typeof seg === 'number' || /^\d+$/.test(seg)) cur = cur[Number(seg)] ?? cur[0];
      else if (seg === 'first' || seg === 'last') cur = cur[0];
      else if (seg === 'size') return true;
      else return false;
      continue;
    }
    if (typeof cur === 'string') return seg === 'size' || seg === 'first' || seg === 'last';
    if (cur === null || typeof cur !== 'object' || !Object.hasOwn(cur, String(seg))) return false;
    cur = (cur as Record<string, unknown>)[String(seg)];
  }
  return true;
}

/**
 * Checks a body against the variables of its kind (`demo`: the demo data, which has every variable and a row in
 * every list): it must parse, name no variable outside them (static analysis of every global path, taken
 * branch or not), and render with the demo data with undefined variables as errors, within the limits.
 */
export function validateTemplate(body: string, demo: Variables): void {
  if (body.length > PARSE_LIMIT) throw new TemplateError('limit_exceeded', 1, 1);
  const tpl = parse(strict, body);
  let analysis: ReturnType<Liquid['analyzeSync']>;
  try {
    analysis = strict.analyzeSync(tpl);
  } catch (err) {
    throw toTemplateError(err);
  }
  for (const [, uses] of Object.entries(analysis.globals)) {
    for (const use of uses) {
      const segments = use.segments.map((s) => (typeof s === 'object' ? null : s));
      if (!resolves(demo, segments))
        throw new TemplateError('unknown_variable', use.location.row, use.location.col);
    }
  }
  renderWith(strict, tpl, demo);
}

function renderWith(engine: Liquid, tpl: ReturnType<Liquid['parse']>, variables: Variables): string {
  let out: string;
  try {
    out = engine.renderSync(tpl, structuredClone(variables));
  } catch (err) {
    throw toTemplateError(err);
  }
  if (out.length > OUTPUT_LIMIT) throw new TemplateError('limit_exceeded', 1, 1);
  return out;
}

/** Parsed bodies of the models in use (a few per hospital), the oldest dropped first. */
const parsed = new Map<string, ReturnType<Liquid['parse']>>();
const PARSED_MAX = 200;
function parsedBody(body: string) {
  let tpl = parsed.get(body);
  if (!tpl) {
    tpl = parse(lenient, body);
    if (parsed.size >= PARSED_MAX) parsed.delete(parsed.keys().next().value!);
    parsed.set(body, tpl);
  }
  return tpl;
}

/** Renders a (validated) body with real variables: missing values print as nothing. */
export function renderTemplate(body: string, variables: Variables): string {
  const out = renderWith(lenient, parsedBody(body), variables);
  return `${out
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()}\n`;
}
