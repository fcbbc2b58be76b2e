import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { requestLang, translate } from '../lib/i18n.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Id of the web build being served (from its manifest), or the configured BUILD_ID. */
    buildId: string;
  }
}

/**
 * Serves the built web app, compressed at build time (brotli, else gzip: decision 0017): hashed assets cached for
 * a year as immutable, everything else (index.html, build.json) revalidated on every use, and
 * `index.html` for every non-API GET that matches no file (client-side routes). Unknown /api/ and /ws/ paths
 * stay JSON 404s.
 */
export default fp(
  async (app: FastifyInstance, opts: { webDist: string | undefined; buildId: string }) => {
    const root = opts.webDist;
    const hasWeb = !!root && existsSync(join(root, 'index.html'));
    let buildId = opts.buildId;
    if (hasWeb && root) {
      try {
        const manifest = JSON.parse(readFileSync(join(root, 'build.json'), 'utf8')) as { build_id?: string };
        if (manifest.build_id) buildId = manifest.build_id;
      } catch {
        // no manifest: keep the configured id
      }
      await app.register(fastifyStatic, {
        root,
        wildcard: false,
        index: false,
        // The build writes `.br` and `.gz` beside every text file (apps/web/vite.config.ts): sent as they are,
        // with Content-Encoding and Vary: Accept-Encoding, the plain file when the client takes neither.
        preCompressed: true,
        setHeaders(res, path) {
          if (path.includes('/assets/')) res.header('cache-control', 'public, max-age=31536000, immutable');
          else res.header('cache-control', 'no-cache');
        },
      });
    }
    app.decorate('buildId', buildId);

    app.setNotFoundHandler((request, reply) => {
      const path = request.url.split('?')[0] ?? '';
      const isApi = path === '/api' || path.startsWith('/api/') || path.startsWith('/ws/');
      if (!isApi && hasWeb && (request.method === 'GET' || request.method === 'HEAD')) {
        if (/\.[a-z0-9]{1,8}$/i.test(path)) {
          // a missing asset (e.g. an old chunk after a deploy) is a real 404, not the app shell
          return reply.status(404).type('text/plain; charset=utf-8').send('Not found');
        }
        return reply.header('cache-control', 'no-cache').sendFile('index.html');
      }
      return reply
        .status(404)
        .type('application/json; charset=utf-8')
        .send({ detail: translate(requestLang(request), 'error.route_not_found') });
    });
  },
  { name: 'spa', dependencies: ['errors'] },
);
