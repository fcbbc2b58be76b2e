import { ZIdParams } from '@greensen/shared/contracts/common';
import {
  ZAddendum,
  ZAddendumCreate,
  ZConsultationCancel,
  ZConsultationComplete,
  ZConsultationConflict,
  ZConsultationCreate,
  ZConsultationDetail,
  ZConsultationList,
  ZConsultationListQuery,
  ZConsultationUpdate,
  ZDiagnosis,
  ZDiagnosisCreate,
  ZDiagnosisList,
  ZDiagnosisListQuery,
  ZDiagnosisParams,
  ZDiagnosisUpdate,
  ZPatientDiagnosisList,
  ZPatientDiagnosisQuery,
} from '@greensen/shared/contracts/consultations';
import { ACTION_GROUPS } from '@greensen/shared/domain/permissions';
import type { DashboardGroup } from '@greensen/shared/domain/roles';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contextOf } from '../../lib/context.js';
import { defineMessages, requestLang, translate } from '../../lib/i18n.js';
import { pageOf } from '../../lib/pagination.js';
import { ConsultationsService, type StaleVersion } from './consultations.service.js';
import { ConsultationDiagnosesService } from './diagnoses.service.js';

defineMessages({
  'consultations.forbidden': {
    fr: 'Vous n’avez pas accès à cette consultation.',
    en: 'You do not have access to this consultation.',
  },
  'consultations.read_only': {
    fr: 'Vous pouvez lire cette consultation, mais pas la modifier.',
    en: 'You may read this consultation but not change it.',
  },
  'consultations.locked': {
    fr: 'Cette consultation est terminée : elle ne se modifie plus, ajoutez un addendum.',
    en: 'This consultation is completed: it can no longer be changed; add an addendum.',
  },
  'consultations.cancelled': {
    fr: 'Cette consultation a été annulée.',
    en: 'This consultation was cancelled.',
  },
  'consultations.stale_version': {
    fr: 'La consultation a été modifiée entre-temps (version {version}). Rechargez-la avant d’enregistrer.',
    en: 'The consultation was changed in the meantime (version {version}). Reload it before saving.',
  },
  'consultations.addendum_not_completed': {
    fr: 'Un addendum s’ajoute à une consultation terminée ; modifiez directement une consultation en cours.',
    en: 'Addenda are added to completed consultations; edit a consultation in progress directly.',
  },
  'consultations.primary_diagnosis_required': {
    fr: 'Indiquez un diagnostic principal.',
    en: 'Record a primary diagnosis.',
  },
  'consultations.outcome_required': {
    fr: 'Choisissez l’issue de la consultation.',
    en: 'Choose the outcome of the consultation.',
  },
  'consultations.follow_up_date_required': {
    fr: 'Indiquez la date du suivi.',
    en: 'Give the follow-up date.',
  },
  'consultations.follow_up_date_past': {
    fr: 'La date du suivi ne peut pas être passée.',
    en: 'The follow-up date cannot be in the past.',
  },
  'consultations.patient_unknown': { fr: 'Patient introuvable.', en: 'Patient not found.' },
  'consultations.department_unknown': { fr: 'Service introuvable.', en: 'Department not found.' },
  'consultations.department_required': {
    fr: 'Choisissez le service : vous n’êtes rattaché(e) à aucun service de cet hôpital.',
    en: 'Choose the department: you belong to no department of this hospital.',
  },
  'consultations.diagnosis_code_or_text': {
    fr: 'Choisissez un code CIM-10 ou saisissez un diagnostic en texte libre.',
    en: 'Choose an ICD-10 code or type a free-text diagnosis.',
  },
  'consultations.diagnosis_code_and_text': {
    fr: 'Un code CIM-10 ou un texte libre, pas les deux.',
    en: 'An ICD-10 code or a free text, not both.',
  },
  'consultations.diagnosis_code_unknown': {
    fr: 'Ce code ne figure pas dans la CIM-10.',
    en: 'This code is not in the ICD-10 catalogue.',
  },
  'consultations.diagnosis_duplicate': {
    fr: 'Le diagnostic {code} est déjà posé pour cette consultation.',
    en: 'Diagnosis {code} is already recorded for this consultation.',
  },
  'consultations.date_out_of_range': {
    fr: 'Date hors des limites (1900 à 2199).',
    en: 'Date out of range (1900 to 2199).',
  },
  'consultations.diagnosis_filter_invalid': {
    fr: 'Indiquez le début d’un code CIM-10 (par exemple B50).',
    en: 'Give the beginning of an ICD-10 code (for example B50).',
  },
});

const access = (roles: readonly DashboardGroup[] | 'any') =>
  ({ access: { scope: 'hospital', module: 'consultations', roles } }) as const;

/** Any other state conflict carries only `detail`; a stale draft save also `code` and the current `version`. */
const conflictResponse = { 409: ZConsultationConflict };

function staleReply(request: FastifyRequest, reply: FastifyReply, stale: StaleVersion) {
  return reply.status(409).send({
    detail: translate(requestLang(request), 'consultations.stale_version', { version: stale.version }),
    code: 'stale_version',
    version: stale.version,
  });
}

export async function consultationsRoutes(app: FastifyInstance) {
  const service = new ConsultationsService(app);
  const diagnoses = new ConsultationDiagnosesService(app);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['consultations'];

  r.get(
    '/api/consultations/',
    {
      config: access('any'),
      schema: {
        tags,
        summary:
          'Consultations the caller may read: scope mine|department|all, today, status, date, doctor, department, patient, admission, diagnosis (ICD-10 prefix), search',
        querystring: ZConsultationListQuery,
        response: { 200: ZConsultationList },
      },
    },
    async (request) => {
      const { page, page_size, ...filters } = request.query;
      const result = await service.list(contextOf(request), filters, page, page_size);
      return pageOf(request, request.query, result.count, result.rows);
    },
  );

  r.post(
    '/api/consultations/',
    {
      config: access(ACTION_GROUPS['consultation.create']),
      schema: {
        tags,
        summary: 'Create a consultation directly for a patient (no visit); the author is its doctor',
        body: ZConsultationCreate,
        response: { 201: ZConsultationDetail },
      },
    },
    async (request, reply) => reply.status(201).send(await service.create(contextOf(request), request.body)),
  );

  r.get(
    '/api/consultations/:id/',
    {
      config: access('any'),
      schema: {
        tags,
        summary: 'The consultation record with the caller’s access, addenda and active diagnoses',
        params: ZIdParams,
        response: { 200: ZConsultationDetail },
      },
    },
    async (request) => service.get(contextOf(request), request.params.id),
  );

  r.patch(
    '/api/consultations/:id/',
    {
      config: access(ACTION_GROUPS['consultation.edit']),
      schema: {
        tags,
        summary: 'Draft save of any sections with the version it is based on (older version → 409)',
        params: ZIdParams,
        body: ZConsultationUpdate,
        response: { 200: ZConsultationDetail, ...conflictResponse },
      },
    },
    async (request, reply) => {
      const result = await service.update(contextOf(request), request.params.id, request.body);
      if ('stale' in result) return staleReply(request, reply, result);
      return result;
    },
  );

  r.post(
    '/api/consultations/:id/complete/',
    {
      config: access(ACTION_GROUPS['consultation.edit']),
      schema: {
        tags,
        summary:
          'Complete (lock) the consultation: primary diagnosis and outcome required; the visit moves by outcome',
        params: ZIdParams,
        body: ZConsultationComplete.nullish(),
        response: { 200: ZConsultationDetail, ...conflictResponse },
      },
    },
    async (request, reply) => {
      const result = await service.complete(contextOf(request), request.params.id, request.body?.version);
      if ('stale' in result) return staleReply(request, reply, result);
      return result;
    },
  );

  r.post(
    '/api/consultations/:id/cancel/',
    {
      config: access(ACTION_GROUPS['consultation.edit']),
      schema: {
        tags,
        summary:
          'Cancel a consultation started by mistake (reason); the visit and execution go back to assigned',
        params: ZIdParams,
        body: ZConsultationCancel,
        response: { 200: ZConsultationDetail, ...conflictResponse },
      },
    },
    async (request) => service.cancel(contextOf(request), request.params.id, request.body.reason),
  );

  r.post(
    '/api/consultations/:id/addenda/',
    {
      config: access(ACTION_GROUPS['consultation.addendum']),
      schema: {
        tags,
        summary: 'Add a dated addendum to a completed consultation (its doctor, a head doctor, …)',
        params: ZIdParams,
        body: ZAddendumCreate,
        response: { 201: ZAddendum, ...conflictResponse },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await service.addAddendum(contextOf(request), request.params.id, request.body.text)),
  );

  r.get(
    '/api/consultations/:id/diagnoses/',
    {
      config: access('any'),
      schema: {
        tags,
        summary: 'The active diagnoses of a consultation, primary first',
        params: ZIdParams,
        querystring: ZDiagnosisListQuery,
        response: { 200: ZDiagnosisList },
      },
    },
    async (request) => {
      const q = request.query;
      const result = await diagnoses.diagnoses(contextOf(request), request.params.id, q.page, q.page_size);
      return pageOf(request, q, result.count, result.rows);
    },
  );

  r.post(
    '/api/consultations/:id/diagnoses/',
    {
      config: access(ACTION_GROUPS['consultation.edit']),
      schema: {
        tags,
        summary:
          'Add a diagnosis: an ICD-10 code of the catalogue or a free text (uncoded); a new primary demotes the previous one',
        params: ZIdParams,
        body: ZDiagnosisCreate,
        response: { 201: ZDiagnosis, ...conflictResponse },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await diagnoses.addDiagnosis(contextOf(request), request.params.id, request.body)),
  );

  r.patch(
    '/api/consultations/:id/diagnoses/:diagnosis_id/',
    {
      config: access(ACTION_GROUPS['consultation.edit']),
      schema: {
        tags,
        summary: 'Change a diagnosis’s rank, certainty or notes (making it primary demotes the previous one)',
        params: ZDiagnosisParams,
        body: ZDiagnosisUpdate,
        response: { 200: ZDiagnosis, ...conflictResponse },
      },
    },
    async (request) =>
      diagnoses.updateDiagnosis(
        contextOf(request),
        request.params.id,
        request.params.diagnosis_id,
        request.body,
      ),
  );

  r.delete(
    '/api/consultations/:id/diagnoses/:diagnosis_id/',
    {
      config: access(ACTION_GROUPS['consultation.edit']),
      schema: {
        tags,
        summary: 'Remove a diagnosis (kept as removed; clinical records are never deleted)',
        params: ZDiagnosisParams,
        response: { 204: z.null(), ...conflictResponse },
      },
    },
    async (request, reply) => {
      await diagnoses.removeDiagnosis(contextOf(request), request.params.id, request.params.diagnosis_id);
      return reply.status(204).send(null);
    },
  );

  r.get(
    '/api/patients/:id/diagnoses/',
    {
      config: access('any'),
      schema: {
        tags: ['consultations', 'patients'],
        summary: 'The patient’s diagnoses from the consultations the caller may read, latest first',
        params: ZIdParams,
        querystring: ZPatientDiagnosisQuery,
        response: { 200: ZPatientDiagnosisList },
      },
    },
    async (request) => {
      const q = request.query;
      const result = await diagnoses.patientDiagnoses(
        contextOf(request),
        request.params.id,
        q.exclude_consultation,
        q.page,
        q.page_size,
      );
      return pageOf(request, q, result.count, result.rows);
    },
  );
}
