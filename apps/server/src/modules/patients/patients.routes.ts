import { ZIdParams } from '@greensen/shared/contracts/common';
import {
  ZArchiveBody,
  ZDuplicateCheck,
  ZDuplicateConflict,
  ZDuplicateResult,
  ZPatient,
  ZPatientCreate,
  ZPatientDetail,
  ZPatientList,
  ZPatientListQuery,
  ZPatientUpdate,
} from '@greensen/shared/contracts/patients';
import { ACTION_GROUPS } from '@greensen/shared/domain/permissions';
import type { DashboardGroup } from '@greensen/shared/domain/roles';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contextOf } from '../../lib/context.js';
import { defineMessages, requestLang, translate } from '../../lib/i18n.js';
import { pageOf } from '../../lib/pagination.js';
import { toSummary } from './patients.repository.js';
import { PatientsService } from './patients.service.js';

defineMessages({
  'patients.duplicates_found': {
    fr: 'Des patients semblables existent déjà. Ouvrez le dossier existant ou confirmez la création.',
    en: 'Similar patients already exist. Open the existing record or confirm the creation.',
  },
  'patients.archived': { fr: 'Ce dossier patient est archivé.', en: 'This patient record is archived.' },
  'patients.version_mismatch': {
    fr: 'Ce dossier a été modifié entre-temps : relisez-le avant de le changer.',
    en: 'This record was changed in the meantime: read it again before changing it.',
  },
  'patients.birth_date_required': {
    fr: 'Indiquez la date de naissance ou un âge estimé.',
    en: 'Give the date of birth or an estimated age.',
  },
  'patients.birth_date_range': {
    fr: 'La date de naissance doit être comprise entre 1900 et aujourd’hui.',
    en: 'The date of birth must be between 1900 and today.',
  },
  'patients.phone_invalid': { fr: 'Numéro de téléphone invalide.', en: 'Invalid phone number.' },
  'patients.email_invalid': { fr: 'Adresse e-mail invalide.', en: 'Invalid email address.' },
});

const access = (roles: readonly DashboardGroup[] | 'any') =>
  ({ access: { scope: 'hospital', module: 'patients', roles } }) as const;

export async function patientsRoutes(app: FastifyInstance) {
  const service = new PatientsService(app);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['patients'];

  r.get(
    '/api/patients/',
    {
      config: access('any'),
      schema: {
        tags,
        summary:
          'Patients of the hospital; `search` by name (accent/typo tolerant), record number, phone, national id',
        querystring: ZPatientListQuery,
        response: { 200: ZPatientList },
      },
    },
    async (request) => {
      const result = await service.list(contextOf(request), request.query);
      return pageOf(request, request.query, result.count, result.rows.map(toSummary), {
        countCapped: result.capped,
      });
    },
  );

  r.post(
    '/api/patients/check-duplicates/',
    {
      config: access(ACTION_GROUPS['patient.register']),
      schema: {
        tags,
        summary: 'Probable duplicates of a patient about to be registered',
        body: ZDuplicateCheck,
        response: { 200: ZDuplicateResult },
      },
    },
    async (request) => ({ duplicates: await service.checkDuplicates(contextOf(request), request.body) }),
  );

  r.post(
    '/api/patients/',
    {
      config: access(ACTION_GROUPS['patient.register']),
      schema: {
        tags,
        summary: 'Register a patient (409 with the probable duplicates unless confirm_duplicate)',
        body: ZPatientCreate,
        response: { 201: ZPatient, 409: ZDuplicateConflict },
      },
    },
    async (request, reply) => {
      const result = await service.create(contextOf(request), request.body);
      if ('duplicates' in result) {
        return reply.status(409).send({
          detail: translate(requestLang(request), 'patients.duplicates_found'),
          duplicates: result.duplicates,
        });
      }
      return reply.status(201).send(result.patient);
    },
  );

  r.get(
    '/api/patients/:id/',
    {
      config: access('any'),
      schema: {
        tags,
        summary: 'A patient record with its visits',
        params: ZIdParams,
        response: { 200: ZPatientDetail },
      },
    },
    async (request) => service.get(contextOf(request), request.params.id),
  );

  r.patch(
    '/api/patients/:id/',
    {
      config: access(ACTION_GROUPS['patient.register']),
      schema: {
        tags,
        summary: 'Edit a patient record',
        params: ZIdParams,
        body: ZPatientUpdate,
        response: { 200: ZPatient },
      },
    },
    async (request) => service.update(contextOf(request), request.params.id, request.body),
  );

  r.post(
    '/api/patients/:id/archive/',
    {
      config: access(ACTION_GROUPS['patient.archive']),
      schema: {
        tags,
        summary: 'Archive a patient record with a reason (records are never deleted)',
        params: ZIdParams,
        body: ZArchiveBody,
        response: { 200: ZPatient },
      },
    },
    async (request) => service.archive(contextOf(request), request.params.id, request.body.reason),
  );
}
