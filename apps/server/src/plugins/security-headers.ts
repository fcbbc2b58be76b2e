import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

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
 * Security headers on every answer, refusals and errors included (registered before the plugins that refuse
 * requests), and `Cache-Control: no-store` on the API's. @fastify/helmet rebuilt helmet's middleware — parsing the CSP directives again — on every request:
 * a third of the CPU of a signed-in API call (decision 0013).
 */
export default fp(
  async (app: FastifyInstance, options: HelmetOptions) => {
    const headers = helmetHeaders(options);
    // API answers carry patient data: no browser or proxy keeps a copy.
    const apiHeaders = { ...headers, 'cache-control': 'no-store' };
    app.addHook('onRequest', (request, reply, done) => {
      reply.headers(request.url.startsWith('/api/') ? apiHeaders : headers);
      done();
    });
  },
  { name: 'security-headers' },
);
