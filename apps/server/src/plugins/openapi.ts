import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/** Where the API's documentation lives (a page, its assets and the OpenAPI document). */
export const API_DOCS_PREFIX = '/api/docs';

/** Whether a path (a route's or a request's, query string included) is under the API's documentation. */
export function isApiDocsPath(path: string): boolean {
  return (
    path === API_DOCS_PREFIX ||
    path.startsWith(`${API_DOCS_PREFIX}/`) ||
    path.startsWith(`${API_DOCS_PREFIX}?`)
  );
}

/** OpenAPI 3 generated from the routes' zod schemas: /api/docs (interactive) and /api/docs/openapi.json. */
export default fp(
  async (app: FastifyInstance, opts: { version: string }) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.0.3',
        info: {
          title: 'Greensen API',
          description:
            "API du système d'information hospitalier Greensen / Greensen hospital information system API",
          version: opts.version,
        },
        components: {
          securitySchemes: {
            bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
            hospital: { type: 'apiKey', in: 'header', name: 'Hospital-ID' },
          },
        },
      },
      transform: jsonSchemaTransform,
    });
    await app.register(swaggerUi, {
      routePrefix: API_DOCS_PREFIX,
      staticCSP: true,
      uiConfig: { docExpansion: 'list', deepLinking: true },
      uiHooks: {},
    });
    app.get(
      `${API_DOCS_PREFIX}/openapi.json`,
      { config: { access: { public: true } }, schema: { hide: true } },
      async () => app.swagger(),
    );
  },
  { name: 'openapi' },
);
