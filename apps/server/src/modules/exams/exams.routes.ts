import { ZIdParams, ZPageQuery } from '@greensen/shared/contracts/common';
import {
  ZCatalogueList,
  ZCatalogueQuery,
  ZExamAlerts,
  ZExamCancelBody,
  ZExamList,
  ZExamListQuery,
  ZExamOrderCreate,
  ZExamOrderCreated,
  ZExamOrderDetail,
  ZExamResultsBody,
  ZExamVersionBody,
} from '@greensen/shared/contracts/exams';
import { ACTION_GROUPS } from '@greensen/shared/domain/permissions';
import type { DashboardGroup } from '@greensen/shared/domain/roles';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contextOf } from '../../lib/context.js';
import { defineMessages } from '../../lib/i18n.js';
import { pageOf } from '../../lib/pagination.js';
import { ExamsService } from './exams.service.js';

defineMessages({
  'exams.exam_required': {
    fr: 'Choisissez au moins un examen (exam ou exams, pas les deux).',
    en: 'Choose at least one exam (exam or exams, not both).',
  },
  'exams.exam_duplicate': {
    fr: 'Le même examen est demandé deux fois.',
    en: 'The same exam is ordered twice.',
  },
  'exams.exam_unknown': {
    // The request's text is never echoed back (it could be anything): the position of the exam says which one.
    fr: "L'examen n° {position} n'est pas dans le catalogue.",
    en: 'Exam no. {position} is not in the catalogue.',
  },
  'exams.patient_unknown': { fr: 'Patient introuvable.', en: 'Patient not found.' },
  'exams.consultation_unknown': { fr: 'Consultation introuvable.', en: 'Consultation not found.' },
  'exams.consultation_other_patient': {
    fr: 'Cette consultation concerne un autre patient.',
    en: 'This consultation is about another patient.',
  },
  'exams.consultation_closed': {
    fr: 'Cette consultation est terminée : prescrivez l’examen directement pour le patient.',
    en: 'This consultation is closed: order the exam directly for the patient.',
  },
  'exams.consultation_forbidden': {
    fr: 'Vous ne pouvez pas prescrire d’examen depuis cette consultation.',
    en: 'You may not order exams from this consultation.',
  },
  'exams.no_performing_department': {
    fr: 'Cet hôpital n’a pas de service « {department} » pour réaliser cet examen.',
    en: 'This hospital has no "{department}" department to perform this exam.',
  },
  'exams.department_kind.laboratory': { fr: 'Laboratoire', en: 'Laboratory' },
  'exams.department_kind.imaging': { fr: 'Imagerie', en: 'Imaging' },
  'exams.illegal_move': {
    fr: 'Action impossible : l’examen est au statut « {status} ».',
    en: 'Not possible: the exam is "{status}".',
  },
  'exams.stale': {
    fr: 'Cet examen a été modifié entre-temps. Rechargez la page pour voir la dernière version.',
    en: 'This exam was changed meanwhile. Reload the page to see the latest version.',
  },
  'exams.status.requested': { fr: 'demandé', en: 'requested' },
  'exams.status.in_progress': { fr: 'en cours', en: 'in progress' },
  'exams.status.completed': { fr: 'résultats saisis', en: 'results entered' },
  'exams.status.validated': { fr: 'validé', en: 'validated' },
  'exams.status.cancelled': { fr: 'annulé', en: 'cancelled' },
  'exams.forbidden.start': {
    fr: 'Seul le service qui réalise l’examen peut le commencer.',
    en: 'Only the performing department may start this exam.',
  },
  'exams.forbidden.results': {
    fr: 'Seul le service qui réalise l’examen peut en saisir les résultats.',
    en: 'Only the performing department may enter the results.',
  },
  'exams.forbidden.validate': {
    fr: 'Seul un médecin ou biologiste du service qui réalise l’examen peut le valider.',
    en: 'Only a doctor of the performing department may validate the results.',
  },
  'exams.forbidden.cancel': {
    fr: 'Seul le prescripteur ou un chef de service peut annuler cet examen.',
    en: 'Only the requester or a head doctor may cancel this exam.',
  },
  'exams.forbidden.acknowledge': {
    fr: 'Seul le médecin prescripteur peut accuser réception de ce résultat.',
    en: 'Only the requesting doctor may acknowledge this result.',
  },
  'exams.field_unknown': { fr: 'Champ inconnu pour cet examen.', en: 'Unknown field for this exam.' },
  'exams.value_required': { fr: 'Valeur requise.', en: 'A value is required.' },
  'exams.value_not_number': { fr: 'Un nombre est attendu.', en: 'A number is expected.' },
  'exams.value_out_of_bounds': {
    fr: 'Valeur invraisemblable : entre {min} et {max}.',
    en: 'Implausible value: between {min} and {max}.',
  },
  'exams.value_too_precise': {
    fr: 'Au plus {decimals} décimale(s).',
    en: 'At most {decimals} decimal place(s).',
  },
  'exams.choice_invalid': {
    fr: 'Choisissez une valeur de la liste.',
    en: 'Choose a value from the list.',
  },
  'exams.value_invalid': { fr: 'Valeur invalide.', en: 'Invalid value.' },
  'exams.text_too_long': {
    fr: 'Texte trop long ({max} caractères au plus).',
    en: 'Text too long (at most {max} characters).',
  },
  'exams.report_required': {
    fr: 'Le compte rendu est requis.',
    en: 'The report is required.',
  },
  'exams.results_required': {
    fr: 'Saisissez les résultats ou un compte rendu.',
    en: 'Enter the results or a report.',
  },
  'exams.notify.normal.title': { fr: 'Résultat validé : {exam}', en: 'Result validated: {exam}' },
  'exams.notify.abnormal.title': { fr: 'Résultat anormal : {exam}', en: 'Abnormal result: {exam}' },
  'exams.notify.urgent_abnormal.title': {
    fr: 'Résultat urgent anormal : {exam}',
    en: 'Urgent abnormal result: {exam}',
  },
  'exams.notify.normal.message': {
    fr: '{patient} ({record}) — {order} validé par {validator}.',
    en: '{patient} ({record}) — {order} validated by {validator}.',
  },
  'exams.notify.abnormal.message': {
    fr: '{patient} ({record}) — {order} validé par {validator}, avec des valeurs anormales.',
    en: '{patient} ({record}) — {order} validated by {validator}, with abnormal values.',
  },
  'exams.notify.urgent_abnormal.message': {
    fr: '{patient} ({record}) — {order} validé par {validator}, avec des valeurs anormales. À voir en priorité.',
    en: '{patient} ({record}) — {order} validated by {validator}, with abnormal values. Please review first.',
  },
});

const access = (roles: readonly DashboardGroup[] | 'any') =>
  ({ access: { scope: 'hospital', module: 'exams', roles } }) as const;

export async function examsRoutes(app: FastifyInstance) {
  const service = new ExamsService(app);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['exams'];

  r.get(
    '/api/exams/catalogue/',
    {
      config: access('any'),
      schema: {
        tags,
        summary: 'The exam catalogue (search in French or English, by code; kind lab | imaging)',
        querystring: ZCatalogueQuery,
        response: { 200: ZCatalogueList },
      },
    },
    async (request) => {
      const { page, page_size, ...f } = request.query;
      const res = await service.catalogue(f, page, page_size);
      return pageOf(request, request.query, res.count, res.rows);
    },
  );

  r.get(
    '/api/exams/alerts/',
    {
      config: access('any'),
      schema: {
        tags,
        summary: 'My validated abnormal results not acknowledged yet (urgent first), for the dashboard',
        querystring: ZPageQuery,
        response: { 200: ZExamAlerts },
      },
    },
    async (request) => {
      const q = request.query;
      const res = await service.alerts(contextOf(request), q.page, q.page_size);
      return { ...pageOf(request, q, res.count, res.rows), urgent_count: res.urgent };
    },
  );

  r.get(
    '/api/exams/',
    {
      config: access('any'),
      schema: {
        tags,
        summary:
          'Exam orders: the laboratory and imaging worklist (urgent first, then the oldest) and histories',
        querystring: ZExamListQuery,
        response: { 200: ZExamList },
      },
    },
    async (request) => {
      const { page, page_size, ...f } = request.query;
      const res = await service.list(contextOf(request), f, page, page_size);
      return pageOf(request, request.query, res.count, res.rows);
    },
  );

  r.post(
    '/api/exams/',
    {
      config: access(ACTION_GROUPS['exam.order']),
      schema: {
        tags,
        summary:
          'Order one exam (`exam`) or several (`exams`) for a patient, directly or from a consultation',
        body: ZExamOrderCreate,
        response: { 201: ZExamOrderCreated },
      },
    },
    async (request, reply) => reply.status(201).send(await service.order(contextOf(request), request.body)),
  );

  r.get(
    '/api/exams/:id/',
    {
      config: access('any'),
      schema: {
        tags,
        summary: 'An exam order in full',
        params: ZIdParams,
        response: { 200: ZExamOrderDetail },
      },
    },
    async (request) => service.get(contextOf(request), request.params.id),
  );

  r.post(
    '/api/exams/:id/start/',
    {
      config: access(ACTION_GROUPS['exam.perform']),
      schema: {
        tags,
        summary: 'Start the work (sample taken, study begun): requested → in_progress',
        params: ZIdParams,
        body: ZExamVersionBody.nullish(),
        response: { 200: ZExamOrderDetail },
      },
    },
    async (request) => service.start(contextOf(request), request.params.id, request.body?.version),
  );

  r.put(
    '/api/exams/:id/results/',
    {
      config: access(ACTION_GROUPS['exam.perform']),
      schema: {
        tags,
        summary: 'Enter or correct the results (flags computed by the server) → completed; 409 when stale',
        params: ZIdParams,
        body: ZExamResultsBody,
        response: { 200: ZExamOrderDetail },
      },
    },
    async (request) => service.results(contextOf(request), request.params.id, request.body),
  );

  r.post(
    '/api/exams/:id/validate/',
    {
      config: access(ACTION_GROUPS['exam.validate']),
      schema: {
        tags,
        summary: 'Validate the results → validated; notifies the requesting doctor',
        params: ZIdParams,
        body: ZExamVersionBody.nullish(),
        response: { 200: ZExamOrderDetail },
      },
    },
    async (request) => service.validate(contextOf(request), request.params.id, request.body?.version),
  );

  r.post(
    '/api/exams/:id/cancel/',
    {
      config: access(ACTION_GROUPS['exam.cancel']),
      schema: {
        tags,
        summary: 'Cancel an order with a reason (before its results)',
        params: ZIdParams,
        body: ZExamCancelBody,
        response: { 200: ZExamOrderDetail },
      },
    },
    async (request) => service.cancel(contextOf(request), request.params.id, request.body.reason),
  );

  r.post(
    '/api/exams/:id/acknowledge/',
    {
      config: access(ACTION_GROUPS['exam.acknowledge']),
      schema: {
        tags,
        summary: 'The requesting doctor has seen the validated result',
        params: ZIdParams,
        response: { 200: ZExamOrderDetail },
      },
    },
    async (request) => service.acknowledge(contextOf(request), request.params.id),
  );
}
