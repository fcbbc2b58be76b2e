import {
  ZDhis2DataValueSet,
  ZDhis2ExportQuery,
  ZDhis2Mapping,
  ZDhis2MappingUpdate,
} from '@greensen/shared/contracts/dhis2';
import { ACTION_GROUPS } from '@greensen/shared/domain/permissions';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contextOf } from '../../lib/context.js';
import { defineMessages } from '../../lib/i18n.js';
import { Dhis2Service } from './dhis2.service.js';

defineMessages({
  'dhis2.id_uid': {
    fr: 'Un identifiant DHIS2 (UID) : 11 caractères, une lettre puis des lettres ou des chiffres.',
    en: 'A DHIS2 identifier (UID): 11 characters, a letter then letters or digits.',
  },
  'dhis2.id_code': {
    fr: 'Un code DHIS2 : au plus 50 caractères, sans espace au début ni à la fin.',
    en: 'A DHIS2 code: at most 50 characters, no space at either end.',
  },
  'dhis2.indicator_twice': {
    fr: 'Cet indicateur est déjà associé plus haut.',
    en: 'This indicator is already mapped above.',
  },
  'dhis2.period': {
    fr: 'Une période DHIS2 : un mois AAAAMM (202610) ou une semaine ISO AAAAWn (2026W7).',
    en: 'A DHIS2 period: a month YYYYMM (202610) or an ISO week YYYYWn (2026W7).',
  },
  'dhis2.not_configured': {
    fr: 'Un administrateur doit d’abord enregistrer la correspondance DHIS2 de l’hôpital.',
    en: 'An administrator must first save the hospital’s DHIS2 mapping.',
  },
});

/** DHIS2 export (issue 24, decision 0039): the hospital's mapping (its administrators) and the data value set. */
export async function dhis2Routes(app: FastifyInstance) {
  const service = new Dhis2Service(app);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['stats'];
  const admins = ACTION_GROUPS['stats.dhis2_mapping'];

  r.get(
    '/api/stats/dhis2/mapping/',
    {
      config: { access: { scope: 'hospital', module: 'analytics', roles: admins } },
      schema: {
        tags,
        summary:
          "The hospital's DHIS2 mapping: organisation unit, data sets, indicator → data element + combos",
        response: { 200: ZDhis2Mapping },
      },
    },
    async (request) => service.mapping(contextOf(request)),
  );

  r.put(
    '/api/stats/dhis2/mapping/',
    {
      config: { access: { scope: 'hospital', module: 'analytics', roles: admins } },
      schema: {
        tags,
        summary: "Replaces the hospital's DHIS2 mapping (its administrators; audited)",
        body: ZDhis2MappingUpdate,
        response: { 200: ZDhis2Mapping },
      },
    },
    async (request) => service.saveMapping(contextOf(request), request.body),
  );

  r.get(
    '/api/stats/dhis2/dataValueSet/',
    {
      config: { access: { scope: 'hospital', module: 'analytics', roles: ACTION_GROUPS['stats.read'] } },
      schema: {
        tags,
        summary:
          'The DHIS2 data value set (Web API dataValueSets JSON) of a month (period=YYYYMM) or an ISO week ' +
          '(period=YYYYWn, IDSR indicators only), for the mapped indicators; audited',
        querystring: ZDhis2ExportQuery,
        response: { 200: ZDhis2DataValueSet },
      },
    },
    async (request, reply) => {
      const set = await service.dataValueSet(contextOf(request), request.query.period);
      reply.header('content-disposition', `attachment; filename="dhis2-${set.period}.json"`);
      return set;
    },
  );
}
