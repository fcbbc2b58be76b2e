import { ZSetupState } from '@greensen/shared/contracts/setup';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contextOf } from '../../lib/context.js';
import { defineMessages, requestLang } from '../../lib/i18n.js';
import { ZDetail, ZFieldErrors, ZLoginResponse } from '../auth/auth.schemas.js';
import { userBody } from '../auth/auth.service.js';
import { ZSetupBody } from './setup.schemas.js';
import { SetupService } from './setup.service.js';

defineMessages({
  'setup.not_found': {
    fr: "Ce lien d'installation n'est pas valide, a expiré ou a déjà servi.",
    en: 'This setup link is not valid, has expired or was already used.',
  },
});

/** Per IP: the setup is done once; a handful of tries a minute is plenty (a wrong token is a 404). */
const LIMIT = { max: 10, timeWindow: 60_000 } as const;

/**
 * The first start of a real installation (decision 0021): public routes that work only with a printed setup
 * link, on an installation with no hospital and no account; 404 otherwise.
 */
export async function setupRoutes(app: FastifyInstance) {
  const service = new SetupService(app);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['setup'];

  r.get(
    '/api/setup/:token/',
    {
      config: { access: { public: true }, rateLimit: LIMIT },
      schema: {
        tags,
        summary:
          'Whether a setup link still works (404 once used, expired, or when the installation has data)',
        params: z.object({ token: z.string().max(512) }),
        response: { 200: ZSetupState, 404: ZDetail },
      },
    },
    async (request) => service.state(request.params.token),
  );

  r.post(
    '/api/setup/',
    {
      config: { access: { public: true }, rateLimit: LIMIT },
      schema: {
        tags,
        summary: 'Creates the first hospital and its first administrator with the setup link, and signs in',
        body: ZSetupBody,
        response: { 201: ZLoginResponse, 400: ZFieldErrors, 404: ZDetail },
      },
    },
    async (request, reply) => {
      const { user, ...pair } = await service.complete(contextOf(request), request.body);
      reply.code(201);
      return { ...pair, user: userBody(user, requestLang(request)) };
    },
  );
}
