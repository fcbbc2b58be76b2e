import { ZIcd10Detail, ZIcd10List, ZIcd10ListQuery, ZIcd10Params } from '@greensen/shared/contracts/icd10';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contextOf } from '../../lib/context.js';
import { defineMessages } from '../../lib/i18n.js';
import { pageOf } from '../../lib/pagination.js';
import { Icd10Service } from './icd10.service.js';

defineMessages({
  'icd10.not_found': {
    fr: 'Ce code CIM-10 n’existe pas dans le catalogue.',
    en: 'This ICD-10 code is not in the catalogue.',
  },
  'icd10.code_invalid': {
    fr: 'Code CIM-10 invalide (ex. : B50 ou B50.9).',
    en: 'Invalid ICD-10 code (e.g. B50 or B50.9).',
  },
});

// The catalogue serves the diagnoses of consultations: the consultations module's rule applies (secretaries
// are refused), every role allowed that module may search it.
const access = { access: { scope: 'hospital', module: 'consultations', roles: 'any' } } as const;

export async function icd10Routes(app: FastifyInstance) {
  const service = new Icd10Service(app);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['icd10'];

  r.get(
    '/api/icd10/',
    {
      config: access,
      schema: {
        tags,
        summary:
          'ICD-10 / CIM-10 catalogue: `search` by code prefix or words (French or English, accent and typo ' +
          'tolerant); without search, the chapters or the children of `parent`',
        querystring: ZIcd10ListQuery,
        response: { 200: ZIcd10List },
      },
    },
    async (request) => {
      const result = await service.list(contextOf(request), request.query);
      return pageOf(request, request.query, result.count, result.rows);
    },
  );

  r.get(
    '/api/icd10/:code/',
    {
      config: access,
      schema: {
        tags,
        summary: 'One ICD-10 entry with its parents (chapter first) and its children',
        params: ZIcd10Params,
        response: { 200: ZIcd10Detail },
      },
    },
    async (request) => service.get(contextOf(request), request.params.code),
  );
}
