import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors, ResponseSerializationError } from 'fastify-type-provider-zod';
import { type ZodType, z } from 'zod';
import { ApiError, type FieldErrors } from '../lib/errors.js';
import { defineMessages, isMessageKey, type Lang, requestLang, translate } from '../lib/i18n.js';
import { isPreSerialized, PRE_SERIALIZED } from '../lib/pre-serialized.js';
import { FHIR_JSON, outcomeOfErrorBody } from '../modules/fhir/fhir.bundle.js';

const locales = { fr: z.locales.fr(), en: z.locales.en() };

defineMessages({
  'validation.null_character': {
    fr: 'Le caractère nul (U+0000) n’est pas accepté.',
    en: 'The null character (U+0000) is not accepted.',
  },
  'validation.ill_formed_unicode': {
    fr: 'Texte invalide : un caractère Unicode est incomplet (demi-paire de substitution).',
    en: 'Invalid text: a Unicode character is incomplete (lone surrogate).',
  },
  'error.url_invalid': { fr: 'Adresse invalide.', en: 'Invalid address.' },
  'error.url_too_long': { fr: 'Adresse trop longue.', en: 'Address too long.' },
});

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * The first string that PostgreSQL cannot take as text (a NUL character) or that is not valid Unicode (a lone
 * surrogate: JSON and the database reject it), with its path and the message to answer, or null.
 */
function badText(value: unknown, path: PropertyKey[] = []): { path: PropertyKey[]; message: string } | null {
  if (typeof value === 'string') {
    if (value.includes('\u0000')) return { path, message: 'validation.null_character' };
    if (LONE_SURROGATE.test(value)) return { path, message: 'validation.ill_formed_unicode' };
    return null;
  }
  if (path.length > 32 || value === null || typeof value !== 'object') return null;
  for (const [k, v] of Object.entries(value)) {
    const found = badText(v, [...path, k]);
    if (found) return found;
  }
  return null;
}

/**
 * Validates with the route's zod schema, keeping what the error handler needs to translate issues. What the
 * route would receive is also refused when a string of it holds a NUL character or a lone surrogate: a 400 on
 * that field, not a database error.
 */
export const validatorCompiler =
  ({ schema }: { schema: ZodType }) =>
  (data: unknown) => {
    const result = schema.safeParse(data, { reportInput: true });
    if (result.success) {
      const bad = badText(result.data);
      if (!bad) return { value: result.data };
      const issue = { code: 'custom', path: bad.path, message: bad.message, input: '' };
      return { error: Object.assign(new Error('validation'), { zodIssues: [issue as Issue] }) };
    }
    const error = Object.assign(new Error('validation'), { zodIssues: result.error.issues });
    return { error };
  };

/**
 * Checks an answer against the route's response schema and writes it as JSON: what the schema does not name is
 * left out (never leaked), and an answer that does not match is a 500 (`ResponseSerializationError`), as with
 * fastify-type-provider-zod's own compiler. An answer made by `preSerialize` was checked when it was made and is
 * sent as it is. fastify-type-provider-zod's compiler encodes (`safeEncode`), which refuses transforms, so our
 * response schemas hold none, and parsing them gives the same result in half the time (docs/performance.md).
 */
export function serializerCompiler(route: {
  schema: ZodType | { properties: ZodType };
  method: string;
  url: string;
}) {
  const { schema, method, url } = route;
  const zod = schema instanceof z.ZodType ? schema : schema.properties;
  return (data: unknown) => {
    if (isPreSerialized(data)) return data[PRE_SERIALIZED];
    const result = zod.safeParse(data);
    if (!result.success) throw new ResponseSerializationError(method, url, { cause: result.error });
    return JSON.stringify(result.data);
  };
}

/**
 * Answers of the router itself (malformed percent-encoding, a path segment longer than allowed), in the shape of
 * DESIGN §4 instead of Fastify's own (which echoes the URL). Passed as Fastify's `frameworkErrors`.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const lang = requestLang(request);
  // The FHIR endpoint's answers are OperationOutcomes, these too (issue 39).
  const answer = request.url.startsWith('/fhir/')
    ? (status: number, body: Record<string, unknown>) =>
        reply
          .status(status)
          .type(FHIR_JSON)
          .serializer((payload) => JSON.stringify(payload))
          .send(outcomeOfErrorBody(status, body))
    : (status: number, body: Record<string, unknown>) => send(reply, status, body);
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH')
    return answer(414, { detail: translate(lang, 'error.url_too_long') });
  if (error.code === 'FST_ERR_BAD_URL')
    return answer(400, { non_field_errors: [translate(lang, 'error.url_invalid')] });
  return answer(error.statusCode && error.statusCode < 500 ? error.statusCode : 400, {
    detail: translate(lang, 'validation.invalid'),
  });
}

type Issue = z.core.$ZodIssue & { input?: unknown };

function issueMessage(issue: Issue, lang: Lang): string {
  if (isMessageKey(issue.message)) return translate(lang, issue.message);
  const text = locales[lang].localeError?.(issue as never);
  if (typeof text === 'string') return text;
  if (text && typeof text === 'object' && 'message' in text) return String(text.message);
  return translate(lang, 'validation.invalid');
}

/** `{field: [messages]}` with `non_field_errors` for issues about the whole body (DESIGN §4). */
export function fieldErrorsFromIssues(issues: Issue[], lang: Lang): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of issues) {
    const field = issue.path.length ? issue.path.map(String).join('.') : 'non_field_errors';
    const list = out[field] ?? [];
    const message = issueMessage(issue, lang);
    if (!list.includes(message)) list.push(message);
    out[field] = list;
  }
  return out;
}

const DB_UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  '57P01',
  '57P02',
  '57P03',
]);

function isDatabaseUnavailable(err: unknown): boolean {
  let e: unknown = err;
  for (let depth = 0; e && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (DB_UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) return true;
    const message = (e as { message?: unknown }).message;
    if (
      typeof message === 'string' &&
      /Connection terminated|timeout exceeded when trying to connect|Query read timeout|not queryable/i.test(
        message,
      )
    )
      return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * Error bodies are always the shapes above: they are serialized as they are, never through the route's response
 * schema for that status (a route documenting its own 400 must not turn a validation error into a 500).
 */
function send(reply: FastifyReply, status: number, body: Record<string, unknown>) {
  return reply
    .status(status)
    .type('application/json; charset=utf-8')
    .serializer((payload) => JSON.stringify(payload))
    .send(body);
}

export function errorBody(err: ApiError, lang: Lang): Record<string, unknown> {
  if (err.statusCode === 400 && err.extra.fields) {
    const fields: FieldErrors = {};
    for (const [k, msgs] of Object.entries(err.extra.fields))
      fields[k] = msgs.map((m) => translate(lang, m, err.extra.params));
    return fields;
  }
  const body: Record<string, unknown> = { detail: translate(lang, err.key, err.extra.params) };
  if (err.extra.code) body.code = err.extra.code;
  if (err.extra.body) Object.assign(body, err.extra.body);
  return body;
}

/**
 * The status and body (DESIGN §4) of an error answer. The API's error handler sends them as they are; the FHIR
 * endpoint (modules/fhir) sends the same answer as an OperationOutcome.
 */
export function errorAnswer(
  error: FastifyError & { zodIssues?: Issue[] },
  request: FastifyRequest,
): { status: number; body: Record<string, unknown> } {
  const lang = requestLang(request);
  const answer = (status: number, body: Record<string, unknown>) => ({ status, body });
  if (error instanceof ApiError) {
    if (error.statusCode >= 500) request.log.error({ err: { code: error.extra.code } }, error.key);
    return answer(error.statusCode, errorBody(error, lang));
  }
  if (error.zodIssues) return answer(400, fieldErrorsFromIssues(error.zodIssues, lang));
  if (error.validation || hasZodFastifySchemaValidationErrors(error)) {
    return answer(400, { non_field_errors: [translate(lang, 'validation.invalid')] });
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return answer(415, { detail: translate(lang, 'error.unsupported_media_type') });
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return answer(413, { detail: translate(lang, 'error.body_too_large') });
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return answer(400, { non_field_errors: [translate(lang, 'error.invalid_json')] });
  }
  if (error.statusCode === 429) return answer(429, { detail: translate(lang, 'error.too_many_requests') });
  if (error.statusCode === 400 && error instanceof SyntaxError) {
    return answer(400, { non_field_errors: [translate(lang, 'error.invalid_json')] });
  }
  if (isDatabaseUnavailable(error)) {
    request.log.warn({ err: { code: (error as { code?: string }).code } }, 'database unavailable');
    return answer(503, { detail: translate(lang, 'error.database_unavailable') });
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return answer(error.statusCode, { detail: translate(lang, 'validation.invalid') });
  }
  request.log.error({ err: error }, 'unhandled error');
  return answer(500, { detail: translate(lang, 'error.internal') });
}

export default fp(
  async (app: FastifyInstance) => {
    // The API speaks JSON only: a text/plain body is a 415 like any other type, not a string to validate.
    app.removeContentTypeParser('text/plain');
    app.setErrorHandler((error: FastifyError & { zodIssues?: Issue[] }, request: FastifyRequest, reply) => {
      const { status, body } = errorAnswer(error, request);
      return send(reply, status, body);
    });
  },
  { name: 'errors' },
);
