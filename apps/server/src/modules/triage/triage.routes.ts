import { ZIdParams } from '@greensen/shared/contracts/common';
import {
  ZTriage,
  ZTriageCreate,
  ZTriageList,
  ZTriageListQuery,
  ZTriageSuggestBody,
  ZTriageSuggestion,
  ZWaitingRoom,
  ZWaitingRoomQuery,
} from '@greensen/shared/contracts/triage';
import { ACTION_GROUPS } from '@greensen/shared/domain/permissions';
import type { DashboardGroup } from '@greensen/shared/domain/roles';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contextOf } from '../../lib/context.js';
import { defineMessages } from '../../lib/i18n.js';
import { pageOf } from '../../lib/pagination.js';
import { TriageService } from './triage.service.js';

defineMessages({
  'triage.admission_unknown': { fr: 'Admission introuvable.', en: 'Admission not found.' },
  'triage.level_invalid': {
    fr: 'Ce niveau n’appartient pas à l’échelle de tri de l’hôpital.',
    en: 'This level is not on the hospital’s triage scale.',
  },
  'triage.override_reason_required': {
    fr: 'Indiquez pourquoi le niveau diffère du niveau suggéré.',
    en: 'Say why the level differs from the suggested one.',
  },
  'triage.diastolic_above_systolic': {
    fr: 'La pression diastolique doit être inférieure à la systolique.',
    en: 'The diastolic pressure must be below the systolic one.',
  },
});

const access = (roles: readonly DashboardGroup[] | 'any') =>
  ({ access: { scope: 'hospital', module: 'triage', roles } }) as const;

export async function triageRoutes(app: FastifyInstance) {
  const service = new TriageService(app);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['triage'];

  r.get(
    '/api/triage/',
    {
      config: access('any'),
      schema: {
        tags,
        summary:
          'The live waiting room: visits not yet triaged first, then by triage level, then arrival; the wait against the target delay',
        querystring: ZWaitingRoomQuery,
        response: { 200: ZWaitingRoom },
      },
    },
    async (request) => {
      const q = request.query;
      const result = await service.waitingRoom(contextOf(request), q.department, q.page, q.page_size);
      return { ...pageOf(request, q, result.count, result.rows), scale: result.scale };
    },
  );

  r.post(
    '/api/triage/',
    {
      config: access(ACTION_GROUPS['triage.record']),
      schema: {
        tags,
        summary: 'Record a triage (vitals, complaint, level)',
        body: ZTriageCreate,
        response: { 201: ZTriage },
      },
    },
    async (request, reply) => reply.status(201).send(await service.create(contextOf(request), request.body)),
  );

  r.post(
    '/api/triage/suggest/',
    {
      config: access('any'),
      schema: {
        tags,
        summary: 'The level the vitals call for on the hospital’s scale',
        body: ZTriageSuggestBody,
        response: { 200: ZTriageSuggestion },
      },
    },
    async (request) => service.suggest(contextOf(request), request.body.vitals, request.body.discriminators),
  );

  r.get(
    '/api/triage/records/',
    {
      config: access('any'),
      schema: {
        tags,
        summary: 'Triage records (filter admission, patient)',
        querystring: ZTriageListQuery,
        response: { 200: ZTriageList },
      },
    },
    async (request) => {
      const { page, page_size, ...f } = request.query;
      const result = await service.list(contextOf(request), f, page, page_size);
      return pageOf(request, request.query, result.count, result.rows);
    },
  );

  r.get(
    '/api/triage/:id/',
    {
      config: access('any'),
      schema: { tags, summary: 'A triage record', params: ZIdParams, response: { 200: ZTriage } },
    },
    async (request) => service.get(contextOf(request), request.params.id),
  );
}
