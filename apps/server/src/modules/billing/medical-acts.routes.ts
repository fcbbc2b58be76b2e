import { ZIdParams } from '@greensen/shared/contracts/common';
import {
  ZMedicalActCreate,
  ZMedicalActDetail,
  ZMedicalActList,
  ZMedicalActQuery,
  ZMedicalActUpdate,
  ZPerformedAct,
  ZPerformedActCancel,
  ZPerformedActCreate,
  ZPerformedActList,
  ZPerformedActQuery,
  ZTariffCreate,
} from '@greensen/shared/contracts/medical-acts';
import { ACTION_GROUPS } from '@greensen/shared/domain/permissions';
import type { DashboardGroup } from '@greensen/shared/domain/roles';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { contextOf } from '../../lib/context.js';
import { defineMessages } from '../../lib/i18n.js';
import { pageOf } from '../../lib/pagination.js';
import { MedicalActsService } from './medical-acts.service.js';

defineMessages({
  'medical_acts.code_invalid': {
    fr: 'Code attendu : lettres majuscules, chiffres, « . », « _ » ou « - » (30 caractères au plus).',
    en: 'Expected code: capital letters, digits, ".", "_" or "-" (30 characters at most).',
  },
  'medical_acts.valid_to_before_from': {
    fr: 'La fin de validité précède son début.',
    en: 'The end of validity is before its start.',
  },
  'medical_acts.performed_filter_required': {
    fr: 'Précisez une visite, un séjour ou un patient.',
    en: 'Give a visit, a stay or a patient.',
  },
  'medical_acts.visit_or_stay': {
    fr: 'Un acte se rattache à une visite ou à un séjour (un seul des deux).',
    en: 'An act belongs to a visit or to a stay (exactly one).',
  },
  'medical_acts.code_taken': {
    fr: "Ce code d'acte existe déjà dans l'hôpital.",
    en: 'This act code already exists in the hospital.',
  },
  'medical_acts.link_taken': {
    fr: 'Un autre acte actif est déjà lié à cet examen, ce médicament ou cette source automatique.',
    en: 'Another active act is already linked to this exam, medicine or automatic source.',
  },
  'medical_acts.tariff_overlap': {
    fr: 'Un tarif de cette catégorie couvre déjà une partie de cette période.',
    en: 'A tariff of this category already covers part of this period.',
  },
  'medical_acts.exam_unknown': {
    fr: "Cet examen n'existe pas au catalogue.",
    en: 'No such exam in the catalogue.',
  },
  'medical_acts.presentation_unknown': {
    fr: "Cette présentation n'existe pas.",
    en: 'No such presentation.',
  },
  'medical_acts.encounter_unknown': {
    fr: "Cette visite ou ce séjour n'existe pas dans l'hôpital.",
    en: 'No such visit or stay in the hospital.',
  },
  'medical_acts.act_unknown': {
    fr: "Cet acte n'existe pas ou n'est plus actif.",
    en: 'No such act, or it is no longer active.',
  },
  'medical_acts.in_future': {
    fr: "Un acte ne se date pas dans l'avenir.",
    en: 'An act is not dated in the future.',
  },
  'medical_acts.already_cancelled': { fr: 'Cet acte est déjà annulé.', en: 'This act is already cancelled.' },
  'medical_acts.billed': {
    fr: "Cet acte figure sur une facture : retirez d'abord la ligne (brouillon) ou faites un avoir.",
    en: 'This act is on an invoice: remove the line first (draft) or make a credit note.',
  },
});

/** The catalogue of medical acts and the acts performed (issue 21; `/medical-acts`, decision 0027). */
export async function medicalActsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const acts = new MedicalActsService(app);
  const policy = (roles: readonly DashboardGroup[]) =>
    ({ access: { scope: 'hospital', module: 'medical_acts', roles } }) as const;
  const reader = policy(ACTION_GROUPS['medical_act.read']);
  const manager = policy(ACTION_GROUPS['medical_act.manage']);
  const recorder = policy(ACTION_GROUPS['medical_act.record']);
  const tags = ['medical-acts'];

  r.get(
    '/api/medical-acts/',
    {
      config: reader,
      schema: {
        tags,
        summary: "The hospital's acts with today's tariffs (code or label, category, active)",
        querystring: ZMedicalActQuery,
        response: { 200: ZMedicalActList },
      },
    },
    async (request) => {
      const { page, page_size, ...f } = request.query;
      const { rows, count } = await acts.list(contextOf(request), f, page, page_size);
      return pageOf(request, request.query, count, rows);
    },
  );

  r.post(
    '/api/medical-acts/',
    {
      config: manager,
      schema: {
        tags,
        summary: 'A new act of the catalogue, with its first tariffs',
        body: ZMedicalActCreate,
        response: { 201: ZMedicalActDetail },
      },
    },
    async (request, reply) => reply.status(201).send(await acts.create(contextOf(request), request.body)),
  );

  r.get(
    '/api/medical-acts/performed/',
    {
      config: recorder,
      schema: {
        tags,
        summary: 'Acts performed for a visit, a stay or a patient (clinicians and billing staff)',
        querystring: ZPerformedActQuery,
        response: { 200: ZPerformedActList },
      },
    },
    async (request) => {
      const { page, page_size, ...f } = request.query;
      const { rows, count } = await acts.performed(contextOf(request), f, page, page_size);
      return pageOf(request, request.query, count, rows);
    },
  );

  r.post(
    '/api/medical-acts/performed/',
    {
      config: recorder,
      schema: {
        tags,
        summary: 'Records an act performed for a visit or a stay',
        body: ZPerformedActCreate,
        response: { 201: ZPerformedAct },
      },
    },
    async (request, reply) => reply.status(201).send(await acts.record(contextOf(request), request.body)),
  );

  r.post(
    '/api/medical-acts/performed/:id/cancel/',
    {
      config: recorder,
      schema: {
        tags,
        summary: 'Cancels a performed act with a reason (not once it is on an invoice line)',
        params: ZIdParams,
        body: ZPerformedActCancel,
        response: { 200: ZPerformedAct },
      },
    },
    async (request) => acts.cancel(contextOf(request), request.params.id, request.body.reason),
  );

  r.get(
    '/api/medical-acts/:id/',
    {
      config: reader,
      schema: {
        tags,
        summary: 'An act with all its tariffs (past ones included)',
        params: ZIdParams,
        response: { 200: ZMedicalActDetail },
      },
    },
    async (request) => acts.detail(contextOf(request), request.params.id),
  );

  r.patch(
    '/api/medical-acts/:id/',
    {
      config: manager,
      schema: {
        tags,
        summary: "Changes an act's code, labels, category, links or active flag",
        params: ZIdParams,
        body: ZMedicalActUpdate,
        response: { 200: ZMedicalActDetail },
      },
    },
    async (request) => acts.update(contextOf(request), request.params.id, request.body),
  );

  r.post(
    '/api/medical-acts/:id/tariffs/',
    {
      config: manager,
      schema: {
        tags,
        summary: 'A new price for a payer category from a date (the open tariff is closed the day before)',
        params: ZIdParams,
        body: ZTariffCreate,
        response: { 201: ZMedicalActDetail },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await acts.addTariff(contextOf(request), request.params.id, request.body)),
  );
}
