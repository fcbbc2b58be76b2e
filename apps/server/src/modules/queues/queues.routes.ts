import { ZIdParams, ZPageQuery } from '@greensen/shared/contracts/common';
import {
  ZAssignBody,
  ZAssignResult,
  ZConsultation,
  ZDepartmentList,
  ZDepartmentQueue,
  ZDepartmentQueueQuery,
  ZDoctor,
  ZDoctorList,
  ZDoctorListQuery,
  ZExecutionQueue,
  ZExecutionQueueQuery,
  ZWorkload,
} from '@greensen/shared/contracts/executions';
import { ACTION_GROUPS } from '@greensen/shared/domain/permissions';
import { SPECIFICATION_GROUPS } from '@greensen/shared/domain/roles';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { departmentKind } from '../../db/schema/index.js';
import { contextOf } from '../../lib/context.js';
import { defineMessages } from '../../lib/i18n.js';
import { pageOf } from '../../lib/pagination.js';
import { QueuesService } from './queues.service.js';

defineMessages({
  'assign.not_assignable': {
    fr: 'Ce patient ne peut plus être affecté (statut « {status} »).',
    en: 'This patient can no longer be assigned (status "{status}").',
  },
  'assign.doctor_unknown': {
    fr: 'Ce praticien n’exerce pas dans cet hôpital.',
    en: 'This practitioner does not work in this hospital.',
  },
  'assign.notify.assigned.title': { fr: 'Nouveau patient : {patient}', en: 'New patient: {patient}' },
  'assign.notify.assigned.message': {
    fr: '{patient} ({record}, n° {queue}) vous a été affecté(e).',
    en: '{patient} ({record}, no. {queue}) has been assigned to you.',
  },
  'assign.notify.reassigned.title': {
    fr: 'Patient réaffecté : {patient}',
    en: 'Patient reassigned: {patient}',
  },
  'assign.notify.reassigned.message': {
    fr: '{patient} ({record}, n° {queue}) est désormais suivi(e) par {doctor}.',
    en: '{patient} ({record}, no. {queue}) is now with {doctor}.',
  },
  'assign.notify.patient_assigned.title': {
    fr: 'Patient en attente de consultation',
    en: 'Patient waiting for consultation',
  },
  'assign.notify.patient_assigned.message': {
    fr: '{patient} ({record}) attend votre consultation.',
    en: '{patient} ({record}) is waiting for your consultation.',
  },
  'consultations.already_started': {
    fr: 'La consultation de ce patient a déjà commencé.',
    en: 'This patient’s consultation has already started.',
  },
  'consultations.not_startable': {
    fr: 'Impossible de commencer une consultation pour cette admission (statut « {status} »).',
    en: 'A consultation cannot start for this admission (status "{status}").',
  },
  'consultations.not_assigned': {
    fr: 'Ce patient ne vous est pas affecté.',
    en: 'This patient is not assigned to you.',
  },
});

const ANY = { access: { scope: 'hospital', module: null, roles: 'any' } } as const;
/**
 * The execution queues and workloads name patients: the specification's groups read them, not the pharmacist or
 * the cashier (decision 0070), whose work is not the consultation flow.
 */
const QUEUES = { access: { scope: 'hospital', module: null, roles: SPECIFICATION_GROUPS } } as const;

export async function queuesRoutes(app: FastifyInstance) {
  const service = new QueuesService(app);
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/departments/',
    {
      config: ANY,
      schema: {
        tags: ['departments'],
        summary: 'Departments of the current hospital',
        querystring: ZPageQuery.extend({
          page_size: ZPageQuery.shape.page_size.default(100),
          // Allow-listed: any other value is a 400 (it reached the database's enum cast as a 500).
          kind: z.enum(departmentKind.enumValues).optional(),
        }),
        response: { 200: ZDepartmentList },
      },
    },
    async (request) => {
      const q = request.query;
      const res = await service.departments(contextOf(request), q.kind, q.page, q.page_size);
      return pageOf(request, q, res.count, res.rows);
    },
  );

  r.get(
    '/api/departments/:id/execution-queue/',
    {
      config: QUEUES,
      schema: {
        tags: ['departments'],
        summary: 'Unassigned and assigned visits of a department, by triage level then arrival',
        params: ZIdParams,
        querystring: ZDepartmentQueueQuery,
        response: { 200: ZDepartmentQueue },
      },
    },
    async (request) => {
      const q = request.query;
      const res = await service.departmentQueue(
        contextOf(request),
        request.params.id,
        q.status,
        q.page,
        q.page_size,
      );
      return pageOf(request, q, res.count, res.rows);
    },
  );

  r.get(
    '/api/doctors/',
    {
      config: ANY,
      schema: {
        tags: ['doctors'],
        summary: 'Practitioners of the hospital with their departments and today’s load',
        querystring: ZDoctorListQuery,
        response: { 200: ZDoctorList },
      },
    },
    async (request) => {
      const { page, page_size, ...f } = request.query;
      const res = await service.doctors(contextOf(request), f, page, page_size);
      return pageOf(request, request.query, res.count, res.rows);
    },
  );

  r.get(
    '/api/doctors/:id/',
    {
      config: ANY,
      schema: { tags: ['doctors'], summary: 'A practitioner', params: ZIdParams, response: { 200: ZDoctor } },
    },
    async (request) => service.doctor(contextOf(request), request.params.id),
  );

  r.get(
    '/api/doctors/:id/execution-queue/',
    {
      config: QUEUES,
      schema: {
        tags: ['doctors'],
        summary: 'A practitioner’s executions by triage level then arrival (status open | completed | all)',
        params: ZIdParams,
        querystring: ZExecutionQueueQuery,
        response: { 200: ZExecutionQueue },
      },
    },
    async (request) => {
      const q = request.query;
      const res = await service.doctorQueue(
        contextOf(request),
        request.params.id,
        q.status,
        q.page,
        q.page_size,
      );
      return pageOf(request, q, res.count, res.rows as never[]);
    },
  );

  r.get(
    '/api/doctors/:id/workload/',
    {
      config: QUEUES,
      schema: {
        tags: ['doctors'],
        summary: 'Today’s load of a practitioner',
        params: ZIdParams,
        response: { 200: ZWorkload },
      },
    },
    async (request) => service.workload(contextOf(request), request.params.id),
  );

  r.post(
    '/api/assign-patient/',
    {
      config: {
        access: {
          scope: 'hospital',
          module: 'admissions',
          roles: ACTION_GROUPS['patient.assign'],
        },
      },
      schema: {
        tags: ['admissions'],
        summary: 'Assign (or re-assign) a waiting visit to a practitioner; notifies them',
        body: ZAssignBody,
        response: { 200: ZAssignResult },
      },
    },
    async (request) =>
      service.assign(contextOf(request), request.body.admission, request.body.doctor) as never,
  );

  r.post(
    '/api/admissions/:id/start-consultation/',
    {
      config: {
        access: { scope: 'hospital', module: 'consultations', roles: ACTION_GROUPS['consultation.start'] },
      },
      schema: {
        tags: ['consultations'],
        summary: 'Start the consultation of a visit (the assigned practitioner or a head doctor)',
        params: ZIdParams,
        response: { 201: ZConsultation },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await service.startConsultation(contextOf(request), request.params.id)),
  );
}
