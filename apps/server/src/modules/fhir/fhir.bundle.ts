/** Pure helpers of the FHIR endpoint: Bundles, OperationOutcomes, search parameter values (issue 39). */

/** The content type of every answer of the endpoint. */
export const FHIR_JSON = 'application/fhir+json; charset=utf-8';

export type FhirResource = { resourceType: string; id?: string; [key: string]: unknown };

/** `meta` of every resource: the version and the time of the last change. */
export function metaOf(version: number | string, lastUpdated: Date | string) {
  return {
    versionId: String(version),
    lastUpdated: (lastUpdated instanceof Date ? lastUpdated : new Date(lastUpdated)).toISOString(),
  };
}

/** The weak ETag of a version (`W/"3"`), and the version an `If-Match` header names (null when unreadable). */
export const etagOf = (version: number | string) => `W/"${version}"`;
export function versionOfIfMatch(header: string): number | null {
  const m = /^\s*(?:W\/)?"(\d{1,9})"\s*$/.exec(header);
  return m ? Number(m[1]) : null;
}

export type IssueCode =
  | 'invalid'
  | 'required'
  | 'value'
  | 'not-found'
  | 'forbidden'
  | 'login'
  | 'conflict'
  | 'duplicate'
  | 'processing'
  | 'not-supported'
  | 'too-costly'
  | 'throttled'
  | 'exception'
  | 'transient';

/** The issue code of an HTTP error status. */
export function issueCodeOf(status: number): IssueCode {
  if (status === 401) return 'login';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not-found';
  if (status === 409 || status === 412) return 'conflict';
  if (status === 413) return 'too-costly';
  if (status === 415) return 'not-supported';
  if (status === 429) return 'throttled';
  if (status === 503) return 'transient';
  if (status >= 500) return 'exception';
  return 'invalid';
}

export interface OutcomeIssue {
  code: IssueCode;
  diagnostics: string;
  expression?: string[];
  severity?: 'error' | 'warning' | 'information';
}

export function operationOutcome(issues: OutcomeIssue[]) {
  return {
    resourceType: 'OperationOutcome',
    issue: issues.map((i) => ({
      severity: i.severity ?? 'error',
      code: i.code,
      diagnostics: i.diagnostics,
      ...(i.expression?.length ? { expression: i.expression } : {}),
    })),
  };
}

/**
 * The OperationOutcome of an error answer of the API (DESIGN §4 body: `{detail}` or `{field: [messages]}`): one
 * issue per message, with the field as its expression.
 */
export function outcomeOfErrorBody(status: number, body: Record<string, unknown>) {
  const code = issueCodeOf(status);
  const issues: OutcomeIssue[] = [];
  if (typeof body.detail === 'string') issues.push({ code, diagnostics: body.detail });
  for (const [field, messages] of Object.entries(body)) {
    if (field === 'detail' || !Array.isArray(messages)) continue;
    for (const m of messages)
      if (typeof m === 'string')
        issues.push({
          code,
          diagnostics: m,
          ...(field === 'non_field_errors' ? {} : { expression: [field] }),
        });
  }
  if (issues.length === 0) issues.push({ code, diagnostics: String(status) });
  return operationOutcome(issues);
}

export interface Page {
  count: number;
  offset: number;
}

/**
 * A `searchset` Bundle: `total`, the matches (`mode: match`) then the included resources (`mode: include`), and
 * `self`/`first`/`previous`/`next` links built from the request's own URL with `_offset`/`_count` changed.
 */
export function searchset(opts: {
  url: URL;
  total: number;
  page: Page;
  matches: FhirResource[];
  included?: FhirResource[];
  baseUrl: string;
}) {
  const { url, total, page } = opts;
  const link = (relation: string, offset: number) => {
    const u = new URL(url);
    u.searchParams.set('_count', String(page.count));
    u.searchParams.set('_offset', String(offset));
    return { relation, url: u.toString() };
  };
  const links = [link('self', page.offset), link('first', 0)];
  if (page.offset > 0) links.push(link('previous', Math.max(0, page.offset - page.count)));
  if (page.count > 0 && page.offset + page.count < total) links.push(link('next', page.offset + page.count));
  const entry = (r: FhirResource, mode: 'match' | 'include') => ({
    fullUrl: `${opts.baseUrl}/${r.resourceType}/${r.id}`,
    resource: r,
    search: { mode },
  });
  return {
    resourceType: 'Bundle',
    type: 'searchset',
    total,
    link: links,
    entry: [
      ...opts.matches.map((r) => entry(r, 'match')),
      ...(opts.included ?? []).map((r) => entry(r, 'include')),
    ],
  };
}

export type Comparator = 'eq' | 'ge' | 'gt' | 'le' | 'lt';

/**
 * A date search value (`ge2024-01-01`, `2024-03`, `lt2024-03-01T10:00:00Z`) as a half-open range
 * [start, end) and its comparator, or null when unreadable. A partial date covers its whole year, month or day.
 */
export function dateRange(value: string): { cmp: Comparator; start: Date; end: Date } | null {
  const m = /^(eq|ge|gt|le|lt)?(\d{4})(?:-(\d{2})(?:-(\d{2})(T[0-9:.]+(?:Z|[+-]\d{2}:\d{2}))?)?)?$/.exec(
    value,
  );
  if (!m) return null;
  const cmp = (m[1] ?? 'eq') as Comparator;
  const [y, mo, d, time] = [Number(m[2]), m[3] ? Number(m[3]) : null, m[4] ? Number(m[4]) : null, m[5]];
  let start: Date;
  let end: Date;
  if (time) {
    start = new Date(`${m[2]}-${m[3]}-${m[4]}${time}`);
    end = new Date(start.getTime() + 1000);
  } else if (d !== null && mo !== null) {
    start = new Date(Date.UTC(y, mo - 1, d));
    end = new Date(Date.UTC(y, mo - 1, d + 1));
  } else if (mo !== null) {
    start = new Date(Date.UTC(y, mo - 1, 1));
    end = new Date(Date.UTC(y, mo, 1));
  } else {
    start = new Date(Date.UTC(y, 0, 1));
    end = new Date(Date.UTC(y + 1, 0, 1));
  }
  if (Number.isNaN(start.getTime()) || (mo !== null && (mo < 1 || mo > 12))) return null;
  return { cmp, start, end };
}

/** `system|code`, `|code` or `code`. */
export function tokenOf(value: string): { system: string | null; code: string } {
  const bar = value.indexOf('|');
  if (bar < 0) return { system: null, code: value };
  return { system: value.slice(0, bar) || null, code: value.slice(bar + 1) };
}

/** The id a reference parameter names (`Patient/{id}` or `{id}`), or null for another type. */
export function referenceId(value: string, type: string): string | null {
  const slash = value.lastIndexOf('/');
  if (slash < 0) return value;
  return value.slice(0, slash).endsWith(type) ? value.slice(slash + 1) : null;
}

/** The values of a parameter given once or repeated. */
export const valuesOf = (v: string | string[] | undefined): string[] =>
  v === undefined ? [] : Array.isArray(v) ? v : [v];
