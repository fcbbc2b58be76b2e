import {
  ZAdmission,
  ZAdmissionCreate,
  ZAdmissionList,
  ZAdmissionListQuery,
  ZAdmissionStatusBody,
  ZAdmissionUpdate,
  ZCancelBody,
} from '@greensen/shared/contracts/admissions';
import { ZIdParams } from '@greensen/shared/contracts/common';
import { ACTION_GROUPS } from '@greensen/shared/domain/permissions';
import type { DashboardGroup } from '@greensen/shared/domain/roles';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contextOf } from '../../lib/context.js';
import { defineMessages } from '../../lib/i18n.js';
import { pageOf } from '../../lib/pagination.js';
import { AdmissionsService } from './admissions.service.js';

defineMessages({
  'admissions.patient_unknown': { fr: 'Patient introuvable.', en: 'Patient not found.' },
  'admissions.department_unknown': { fr: 'Service introuvable.', en: 'Department not found.' },
  'admissions.department_no_visits': {
    fr: 'Ce service ne reçoit pas de patients en visite (laboratoire, imagerie, pharmacie, administration…).',
    en: 'This department does not receive patient visits (laboratory, imaging, pharmacy, administration…).',
  },
  'admissions.type_department': {
    fr: 'Ce type de visite ne correspond pas au service : les urgences ne reçoivent que des urgences, une visite de maternité va en maternité.',
    en: 'This visit type does not fit the department: the emergency department takes emergencies only, a maternity visit goes to a maternity.',
  },
  'admissions.already_open': {
    fr: 'Ce patient a déjà une admission en cours.',
    en: 'This patient already has an open admission.',
  },
  'admissions.closed': { fr: 'Cette admission est terminée.', en: 'This admission has ended.' },
  'admissions.illegal_transition': {
    fr: 'Impossible de passer une admission du statut « {from} » au statut « {to} ».',
    en: 'An admission cannot move from "{from}" to "{to}".',
  },
  'admissions.reason_required': { fr: 'Indiquez un motif.', en: 'Give a reason.' },
});

const access = (roles: readonly DashboardGroup[] | 'any') =>
  ({ access: { scope: 'hospital', module: 'admissions', roles } }) as const;

export async function admissionsRoutes(app: FastifyInstance) {
  const service = new AdmissionsService(app);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['admissions'];

  r.get(
    '/api/admissions/',
    {
      config: access('any'),
      schema: {
        tags,
        summary:
          'Admissions; filters status (comma list), department, admission_type, date, doctor, patient, search',
        querystring: ZAdmissionListQuery,
        response: { 200: ZAdmissionList },
      },
    },
    async (request) => {
      const { page, page_size, ...filters } = request.query;
      const result = await service.list(contextOf(request), filters, page, page_size);
      return pageOf(request, request.query, result.count, result.rows);
    },
  );

  r.post(
    '/api/admissions/',
    {
      config: access(ACTION_GROUPS['admission.create']),
      schema: {
        tags,
        summary: 'Admit a patient (status waiting, queue number of the day)',
        body: ZAdmissionCreate,
        response: { 201: ZAdmission },
      },
    },
    async (request, reply) => reply.status(201).send(await service.create(contextOf(request), request.body)),
  );

  r.get(
    '/api/admissions/:id/',
    {
      config: access('any'),
      schema: { tags, summary: 'An admission', params: ZIdParams, response: { 200: ZAdmission } },
    },
    async (request) => service.get(contextOf(request), request.params.id),
  );

  r.patch(
    '/api/admissions/:id/',
    {
      config: access(ACTION_GROUPS['admission.create']),
      schema: {
        tags,
        summary: 'Edit an open admission',
        params: ZIdParams,
        body: ZAdmissionUpdate,
        response: { 200: ZAdmission },
      },
    },
    async (request) => service.update(contextOf(request), request.params.id, request.body),
  );

  r.post(
    '/api/admissions/:id/status/',
    {
      config: access(ACTION_GROUPS['admission.status']),
      schema: {
        tags,
        summary: 'Move an admission along its status machine (illegal move → 409)',
        params: ZIdParams,
        body: ZAdmissionStatusBody,
        response: { 200: ZAdmission },
      },
    },
    async (request) =>
      service.changeStatus(
        contextOf(request),
        request.params.id,
        request.body.status,
        request.body.reason ?? null,
      ),
  );

  r.post(
    '/api/admissions/:id/cancel/',
    {
      config: access(ACTION_GROUPS['admission.cancel']),
      schema: {
        tags,
        summary: 'Cancel an admission with a reason',
        params: ZIdParams,
        body: ZCancelBody,
        response: { 200: ZAdmission },
      },
    },
    async (request) =>
      service.changeStatus(contextOf(request), request.params.id, 'cancelled', request.body.reason),
  );
}
