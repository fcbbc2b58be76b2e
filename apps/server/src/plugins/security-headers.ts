import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';
import { isApiDocsPath } from './openapi.js';

/**
 * The headers helmet sets for `options`, worked out once. Ours depend on no request (no nonces, no functions
 * in the directives), so every answer can carry the same ones. helmet throws here, at start-up, on an invalid
 * option or directive.
 */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown;
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    failure = err;
  });
  if (failure) throw failure;
  return headers;
}

/**
 * The headers of the API's JSON answers (OWASP REST Security Cheat Sheet): they carry patient data, so no
 * browser or proxy keeps a copy (`no-store`); nothing may load, run or frame them (`default-src 'none'`,
 * `frame-ancestors 'none'`, `DENY`), even when opened as a page; no sniffing, no referrer, same-origin
 * reads only; HSTS as the pages have it. The page headers that only mean something for a document (the app's
 * policy, DNS prefetch, COOP, Origin-Agent-Cluster, download options, Flash policies) are left out: half the
 * bytes of a small answer (docs/performance.md).
 */
export function jsonApiHeaders(pageHeaders: Record<string, string>): Record<string, string> {
  const hsts = pageHeaders['strict-transport-security'];
  return {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cross-origin-resource-policy': 'same-origin',
    'cache-control': 'no-store',
    ...(hsts ? { 'strict-transport-security': hsts } : {}),
  };
}

/**
 * Greensen's helmet options: the app's Content-Security-Policy, HSTS when served over HTTPS. Shared with the
 * bench's reference hello-world (bench/hello-server.mjs), which must send the very same headers.
 */
export function appHelmetOptions(publicUrl: string): HelmetOptions {
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Mantine writes its CSS variables into <style> elements at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", 'ws:', 'wss:'],
        mediaSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        // The in-app viewer frames a document fetched with the session (a blob: URL; decision 0024).
        frameSrc: ["'self'", 'blob:'],
        frameAncestors: ["'none'"],
        workerSrc: ["'self'", 'blob:'],
        manifestSrc: ["'self'"],
      },
    },
    crossOriginEmbedderPolicy: false,
    hsts: publicUrl.startsWith('https://') ? { maxAge: 15552000, includeSubDomains: true } : false,
  };
}

/**
 * Security headers on every answer, refusals and errors included (registered before the plugins that refuse
 * requests): helmet's set on pages, `jsonApiHeaders` on the API's answers (its documentation page aside), all
 * worked out once — @fastify/helmet rebuilt helmet's middleware, parsing the CSP again, on every request: a
 * third of the CPU of a signed-in API call (decision 0013).
 */
export default fp(
  async (app: FastifyInstance, options: HelmetOptions) => {
    const headers = helmetHeaders(options);
    const apiHeaders = jsonApiHeaders(headers);
    // The API's interactive documentation is a page (its own scripts and styles): the page headers.
    const docsHeaders = { ...headers, 'cache-control': 'no-store' };
    app.addHook('onRequest', (request, reply, done) => {
      const url = request.url;
      reply.headers(!url.startsWith('/api/') ? headers : isApiDocsPath(url) ? docsHeaders : apiHeaders);
      done();
    });
  },
  { name: 'security-headers' },
);
