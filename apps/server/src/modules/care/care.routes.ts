import {
  ZCareAssign,
  ZCareAssignResult,
  ZCareCancel,
  ZCareExecution,
  ZCareExecutionList,
  ZCareExecutionQuery,
  ZCareNurseList,
  ZCareNurseQuery,
  ZCareOrder,
  ZCareOrderCreate,
  ZCareOrderList,
  ZCareOrderQuery,
  ZCareOrderStop,
  ZCarePatientList,
  ZCarePatientQuery,
  ZCarePlan,
  ZCarePlanCreate,
  ZCarePlanUpdate,
  ZCareRecord,
  ZCareReschedule,
  ZChart,
  ZChartQuery,
  ZFluid,
  ZFluidCreate,
  ZHandoff,
  ZHandoffAcknowledge,
  ZHandoffCreate,
  ZHandoffDraft,
  ZHandoffList,
  ZHandoffQuery,
  ZMarQuery,
  ZRound,
  ZRoundCreate,
  ZRoundQuery,
  ZRoundResult,
  ZShiftInfo,
  ZTaskList,
  ZTaskQuery,
  ZVitalsCreate,
  ZVitalsList,
  ZVitalsRecord,
  ZWardExecutionQuery,
} from '@greensen/shared/contracts/care';
import { ZIdParams, ZPageQuery } from '@greensen/shared/contracts/common';
import { ZNurseParams } from '@greensen/shared/contracts/hospitalizations';
import {
  ZAdministrationCreateSafe,
  ZDoseRecordSafe,
  ZMarSafe,
  ZStatDoseCreate,
} from '@greensen/shared/contracts/medication-safety';
import { ACTION_GROUPS } from '@greensen/shared/domain/permissions';
import type { DashboardGroup } from '@greensen/shared/domain/roles';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { contextOf } from '../../lib/context.js';
import { defineMessages } from '../../lib/i18n.js';
import { pageOf } from '../../lib/pagination.js';
import { CareService } from './care.service.js';
import { ExecutionsService } from './executions.service.js';
import { HandoffService } from './handoffs.service.js';
import { MarService } from './mar.service.js';
import { materializeDue, OrdersService } from './orders.service.js';
import { TasksService } from './tasks.service.js';
import { VitalsService } from './vitals.service.js';

defineMessages({
  'care.target_required': {
    fr: 'Indiquez le séjour ou la visite (un seul des deux).',
    en: 'Give the stay or the visit (one of them).',
  },
  'care.target_closed': {
    fr: 'Ce séjour ou cette visite est terminé(e).',
    en: 'This stay or visit is over.',
  },
  'care.line_refused': {
    fr: 'La pharmacie a refusé de délivrer ce médicament : il ne peut pas être administré.',
    en: 'The pharmacy refused to dispense this medicine: it cannot be given.',
  },
  'care.plan_closed': {
    fr: 'Le séjour ou la visite de ce plan de soins est terminé(e).',
    en: 'The stay or visit of this care plan is over.',
  },
  'care.other_department': {
    fr: "Ce patient n'est pas dans l'un de vos services.",
    en: 'This patient is not in one of your departments.',
  },
  'care.other_nurse': {
    fr: 'Vous ne pouvez consulter que vos propres tâches.',
    en: 'You can only see your own tasks.',
  },
  'care.signs_required': {
    fr: 'Choisissez au moins une constante à surveiller.',
    en: 'Choose at least one sign to monitor.',
  },
  'care.times_duplicate': {
    fr: 'Chaque heure ne peut figurer qu’une fois.',
    en: 'Each time can appear only once.',
  },
  'care.start_too_old': {
    fr: 'Le début ne peut pas remonter à plus de 24 heures.',
    en: 'The start cannot be more than 24 hours ago.',
  },
  'care.order_not_active': {
    fr: "Cette prescription de soins n'est plus active.",
    en: 'This care order is no longer active.',
  },
  'care.window_invalid': {
    fr: 'La période demandée est invalide ou trop longue.',
    en: 'The requested period is invalid or too long.',
  },
  'care.vitals_required': {
    fr: 'Une surveillance des constantes se valide en saisissant les constantes.',
    en: 'A vital-signs check is done by recording the vital signs.',
  },
  'care.undo_expired': {
    fr: "Ce soin ne peut plus être annulé : seul son auteur le peut, dans la minute qui suit l'enregistrement.",
    en: 'This task can no longer be undone: only whoever recorded it may, within a minute.',
  },
  'care.execution_closed': {
    fr: 'Ce soin a déjà été enregistré ou annulé.',
    en: 'This care task has already been recorded or cancelled.',
  },
  'care.execution_reassigned': {
    fr: 'Ce soin a été attribué à un(e) autre infirmier(ère) entre-temps.',
    en: 'This care task was given to another nurse meanwhile.',
  },
  'care.nurse_unknown': {
    fr: "Cette personne n'est pas un(e) infirmier(ère) actif(ve) de ce service.",
    en: 'This person is not an active nurse of this department.',
  },
  'care.schedule_range': {
    fr: 'Choisissez une heure entre maintenant et les 7 prochains jours.',
    en: 'Choose a time between now and the next 7 days.',
  },
  'care.time_range': {
    fr: "L'heure ne peut pas être dans le futur ni remonter à plus de 24 heures.",
    en: 'The time cannot be in the future or more than 24 hours ago.',
  },
  'care.note_required': {
    fr: 'Précisez la raison.',
    en: 'Give the reason.',
  },
  'care.vitals_empty': {
    fr: 'Saisissez au moins une constante.',
    en: 'Enter at least one vital sign.',
  },
  'care.round_duplicate': {
    fr: 'Ce patient figure deux fois dans la tournée.',
    en: 'This patient appears twice in the round.',
  },
  'care.execution_unknown': {
    fr: "Ce soin n'est pas une surveillance de constantes de ce patient.",
    en: 'This task is not a vital-signs task of this patient.',
  },
  'care.dose_unknown': {
    fr: "Cette heure ne correspond à aucune prise prévue de cette ligne d'ordonnance.",
    en: 'This time is not a scheduled dose of this prescription line.',
  },
  'care.dose_future': {
    fr: 'Cette prise est trop loin dans le futur.',
    en: 'This dose is too far in the future.',
  },
  'care.dose_already_recorded': {
    fr: 'Cette prise a déjà été enregistrée.',
    en: 'This dose has already been recorded.',
  },
  'care.key_reused': {
    fr: 'Cette clé de saisie a déjà servi pour une autre prise.',
    en: 'This submission key was already used for another dose.',
  },
  'care.as_needed_max': {
    fr: 'Le nombre maximal de prises sur 24 heures est atteint.',
    en: 'The maximum number of doses in 24 hours has been reached.',
  },
  'care.handoff_exists': {
    fr: 'La transmission de ce patient pour ce poste est déjà écrite.',
    en: "This patient's handoff for this shift is already written.",
  },
  'care.handoff_own': {
    fr: 'Une transmission est validée par l’équipe suivante, pas par son auteur.',
    en: 'A handoff is acknowledged by the incoming team, not by its author.',
  },
  'care.handoff_acknowledged': {
    fr: 'Cette transmission a déjà été validée.',
    en: 'This handoff has already been acknowledged.',
  },
  'care.notify.execution_assigned.title': { fr: 'Soin attribué', en: 'Care task assigned' },
  'care.notify.execution_assigned.message': {
    fr: '{task} — {patient} ({place}) à {time}.',
    en: '{task} — {patient} ({place}) at {time}.',
  },
  'care.notify.execution_reassigned.title': { fr: 'Soin réattribué', en: 'Care task reassigned' },
  'care.notify.execution_reassigned.message': {
    fr: '{task} — {patient} ({place}) à {time} a changé d’infirmier(ère).',
    en: '{task} — {patient} ({place}) at {time} has a new nurse.',
  },
  'care.notify.execution_scheduled.title': { fr: 'Soin reprogrammé', en: 'Care task rescheduled' },
  'care.notify.execution_scheduled.message': {
    fr: '{task} — {patient} ({place}) : nouvelle heure {time}.',
    en: '{task} — {patient} ({place}): new time {time}.',
  },
  'care.notify.news2_urgent.title': {
    fr: 'NEWS2 {score} : avis médical urgent',
    en: 'NEWS2 {score}: urgent review',
  },
  'care.notify.news2_urgent.message': {
    fr: '{patient} ({place}) : score NEWS2 {score}. Évaluation médicale urgente demandée.',
    en: '{patient} ({place}): NEWS2 score {score}. Urgent medical review requested.',
  },
  'care.notify.news2_emergency.title': {
    fr: 'NEWS2 {score} : urgence vitale',
    en: 'NEWS2 {score}: emergency',
  },
  'care.notify.news2_emergency.message': {
    fr: '{patient} ({place}) : score NEWS2 {score}. Évaluation en urgence immédiate.',
    en: '{patient} ({place}): NEWS2 score {score}. Emergency assessment now.',
  },
});

/**
 * Nursing care (issue 20; specification §2 `/care`, `/care/{id}`, §6 the nurse dashboard, §7
 * `/api/nurses/{nurse_id}/tasks/`). The route list with who may call is at the top of contracts/care.ts.
 */
export async function careRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const care = new CareService(app);
  const orders = new OrdersService(app, care);
  const executions = new ExecutionsService(app, care);
  const vitals = new VitalsService(app, care, executions);
  const mar = new MarService(app, care);
  const tasks = new TasksService(app, care);
  const handoffs = new HandoffService(app, care);
  const policy = (roles: readonly DashboardGroup[] | 'any') =>
    ({ access: { scope: 'hospital', module: 'care', roles } }) as const;
  const read = policy(ACTION_GROUPS['care.read']);
  const write = policy(ACTION_GROUPS['care.write']);
  const tags = ['care'];

  // The executions of the next 48 hours, every 15 minutes (decision 0025); idempotent by (order, slot).
  app.jobs.define({
    name: 'care.materialize',
    payload: z.object({}),
    maxAttempts: 3,
    backoff: { baseMs: 60_000, maxMs: 10 * 60_000 },
    rule: 'care.materialize',
    async run(_payload, { ctx }) {
      const created = await materializeDue(app.db, app.jobs.now());
      ctx.log.info({ created }, 'care executions materialised');
    },
  });
  app.jobs.schedule({ name: 'care.materialize', cron: '*/15 * * * *' });

  r.get(
    '/api/care/shift/',
    {
      config: policy('any'),
      schema: {
        tags,
        summary: 'The current, previous and next nursing shifts of the hospital',
        response: { 200: ZShiftInfo },
      },
    },
    async (request) => care.shift(contextOf(request)),
  );

  r.get(
    '/api/care/patients/',
    {
      config: read,
      schema: {
        tags,
        summary:
          'Open stays and emergency visits of the caller’s departments, with their care plan, NEWS2 and due work',
        querystring: ZCarePatientQuery,
        response: { 200: ZCarePatientList },
      },
    },
    async (request) => {
      const { page, page_size, ...filters } = request.query;
      const { rows, count } = await care.patients(contextOf(request), filters, page, page_size);
      return pageOf(request, request.query, count, rows);
    },
  );

  r.post(
    '/api/care/plans/',
    {
      config: write,
      schema: {
        tags,
        summary: 'Opens the care plan of a stay or an emergency visit (200 with the existing one)',
        body: ZCarePlanCreate,
        response: { 200: ZCarePlan, 201: ZCarePlan },
      },
    },
    async (request, reply) => {
      const ctx = contextOf(request);
      const { hospitalization, admission, ...extra } = request.body;
      const { id, created } = await care.ensurePlan(ctx, { hospitalization, admission }, extra);
      reply.code(created ? 201 : 200);
      return care.detail(ctx, id);
    },
  );

  r.get(
    '/api/care/plans/:id/',
    {
      config: read,
      schema: { tags, summary: 'A care plan', params: ZIdParams, response: { 200: ZCarePlan } },
    },
    async (request) => care.read(contextOf(request), request.params.id),
  );

  r.patch(
    '/api/care/plans/:id/',
    {
      config: write,
      schema: {
        tags,
        summary: 'Changes the hypercapnic flag (NEWS2 SpO₂ scale 2) or the goals of a plan',
        params: ZIdParams,
        body: ZCarePlanUpdate,
        response: { 200: ZCarePlan },
      },
    },
    async (request) => care.update(contextOf(request), request.params.id, request.body),
  );

  r.get(
    '/api/care/plans/:id/orders/',
    {
      config: read,
      schema: {
        tags,
        summary: 'The orders of a plan (active ones by default)',
        params: ZIdParams,
        querystring: ZCareOrderQuery,
        response: { 200: ZCareOrderList },
      },
    },
    async (request) => {
      const { rows, count } = await orders.orders(
        contextOf(request),
        request.params.id,
        request.query.status,
        request.query.page,
        request.query.page_size,
      );
      return pageOf(request, request.query, count, rows);
    },
  );

  r.post(
    '/api/care/plans/:id/orders/',
    {
      config: write,
      schema: {
        tags,
        summary: 'Writes an order (doctor or nurse); its executions of the next 48 hours are created at once',
        params: ZIdParams,
        body: ZCareOrderCreate,
        response: { 201: ZCareOrder },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return orders.createOrder(contextOf(request), request.params.id, request.body);
    },
  );

  r.post(
    '/api/care/orders/:id/stop/',
    {
      config: write,
      schema: {
        tags,
        summary: 'Stops an order: its future executions are cancelled',
        params: ZIdParams,
        body: ZCareOrderStop,
        response: { 200: ZCareOrder },
      },
    },
    async (request) => orders.stopOrder(contextOf(request), request.params.id, request.body.reason),
  );

  r.get(
    '/api/care/plans/:id/executions/',
    {
      config: read,
      schema: {
        tags,
        summary: 'The executions of a plan in a window (default: the current shift)',
        params: ZIdParams,
        querystring: ZCareExecutionQuery,
        response: { 200: ZCareExecutionList },
      },
    },
    async (request) => {
      const { page, page_size, ...f } = request.query;
      const { rows, count } = await executions.planExecutions(
        contextOf(request),
        request.params.id,
        f,
        page,
        page_size,
      );
      return pageOf(request, request.query, count, rows);
    },
  );

  r.get(
    '/api/care/executions/',
    {
      config: read,
      schema: {
        tags,
        summary:
          'The ward-wide view: executions of the caller’s departments (charge nurse, head nurse, doctors)',
        querystring: ZWardExecutionQuery,
        response: { 200: ZCareExecutionList },
      },
    },
    async (request) => {
      const { page, page_size, ...f } = request.query;
      const { rows, count } = await executions.wardExecutions(contextOf(request), f, page, page_size);
      return pageOf(request, request.query, count, rows);
    },
  );

  r.get(
    '/api/care/nurses/',
    {
      config: read,
      schema: {
        tags,
        summary:
          "The nurses a department's task may be given to (its nurses and charge nurses, and the hospital-wide ones)",
        querystring: ZCareNurseQuery,
        response: { 200: ZCareNurseList },
      },
    },
    async (request) => {
      const { page, page_size, department } = request.query;
      const { rows, count } = await executions.nurses(
        contextOf(request),
        department,
        page_size,
        (page - 1) * page_size,
      );
      return pageOf(request, request.query, count, rows);
    },
  );

  r.post(
    '/api/care/executions/:id/assign/',
    {
      config: write,
      schema: {
        tags,
        summary: 'Assigns an execution to a nurse (execution_assigned, or execution_reassigned to both)',
        params: ZIdParams,
        body: ZCareAssign,
        response: { 200: ZCareAssignResult },
      },
    },
    async (request) => executions.assign(contextOf(request), request.params.id, request.body.nurse),
  );

  r.post(
    '/api/care/executions/:id/schedule/',
    {
      config: write,
      schema: {
        tags,
        summary: 'Moves an execution to another time (and nurse): execution_scheduled',
        params: ZIdParams,
        body: ZCareReschedule,
        response: { 200: ZCareExecution },
      },
    },
    async (request) => executions.schedule(contextOf(request), request.params.id, request.body),
  );

  r.post(
    '/api/care/executions/:id/record/',
    {
      config: write,
      schema: {
        tags,
        summary: 'Done (by the caller, at the real time) or not done (with a reason)',
        params: ZIdParams,
        body: ZCareRecord,
        response: { 200: ZCareExecution },
      },
    },
    async (request) => executions.record(contextOf(request), request.params.id, request.body),
  );

  r.post(
    '/api/care/executions/:id/undo/',
    {
      config: write,
      schema: {
        tags,
        summary:
          'Takes back a task the caller recorded (done or not done) less than a minute ago: to do again',
        params: ZIdParams,
        response: { 200: ZCareExecution },
      },
    },
    async (request) => executions.undo(contextOf(request), request.params.id),
  );

  r.post(
    '/api/care/executions/:id/cancel/',
    {
      config: write,
      schema: {
        tags,
        summary: 'Cancels a scheduled execution',
        params: ZIdParams,
        body: ZCareCancel,
        response: { 200: ZCareExecution },
      },
    },
    async (request) => executions.cancel(contextOf(request), request.params.id, request.body.reason),
  );

  r.get(
    '/api/nurses/:nurse_id/tasks/',
    {
      config: policy(['nurse', 'queue_manager', 'doctor', 'head_doctor']),
      schema: {
        tags,
        summary: "A nurse's executions and doses of the shift, overdue ones included, by time then priority",
        params: ZNurseParams,
        querystring: ZTaskQuery,
        response: { 200: ZTaskList },
      },
    },
    async (request) => {
      const result = await tasks.tasks(contextOf(request), request.params.nurse_id, request.query);
      const page = pageOf(request, request.query, result.count, result.results);
      return { ...page, shift: result.shift, overdue: result.overdue };
    },
  );

  r.get(
    '/api/care/rounds/',
    {
      config: read,
      schema: {
        tags,
        summary: 'The patients of a ward (at most 100) for a round of vitals, with their latest set',
        querystring: ZRoundQuery,
        response: { 200: ZRound },
      },
    },
    async (request) => vitals.round(contextOf(request), request.query),
  );

  r.post(
    '/api/care/rounds/',
    {
      config: write,
      schema: {
        tags,
        summary:
          'A round: one set of vitals per patient, NEWS2 each, escalations notify the doctor; all or none',
        body: ZRoundCreate,
        response: { 201: ZRoundResult },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return vitals.recordRound(contextOf(request), request.body);
    },
  );

  r.get(
    '/api/care/plans/:id/vitals/',
    {
      config: read,
      schema: {
        tags,
        summary: 'The vitals of a plan, newest first',
        params: ZIdParams,
        querystring: ZPageQuery,
        response: { 200: ZVitalsList },
      },
    },
    async (request) => {
      const { rows, count } = await vitals.list(
        contextOf(request),
        request.params.id,
        request.query.page,
        request.query.page_size,
      );
      return pageOf(request, request.query, count, rows);
    },
  );

  r.post(
    '/api/care/plans/:id/vitals/',
    {
      config: write,
      schema: {
        tags,
        summary: 'One set of vitals with its NEWS2 (an escalation notifies the doctor at once)',
        params: ZIdParams,
        body: ZVitalsCreate,
        response: { 201: ZVitalsRecord },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return vitals.recordOne(contextOf(request), request.params.id, request.body);
    },
  );

  r.post(
    '/api/care/plans/:id/fluids/',
    {
      config: write,
      schema: {
        tags,
        summary: 'Records an intake or an output (mL)',
        params: ZIdParams,
        body: ZFluidCreate,
        response: { 201: ZFluid },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return vitals.addFluid(contextOf(request), request.params.id, request.body);
    },
  );

  r.get(
    '/api/care/plans/:id/chart/',
    {
      config: read,
      schema: {
        tags,
        summary: 'The temperature chart: vitals points and daily intake/output over `days` days (max 14)',
        params: ZIdParams,
        querystring: ZChartQuery,
        response: { 200: ZChart },
      },
    },
    async (request) => vitals.chart(contextOf(request), request.params.id, request.query),
  );

  r.get(
    '/api/care/plans/:id/mar/',
    {
      config: read,
      schema: {
        tags,
        summary: 'The medication administration record: doses of the signed prescriptions in a window',
        params: ZIdParams,
        querystring: ZMarQuery,
        response: { 200: ZMarSafe },
      },
    },
    async (request) => mar.mar(contextOf(request), request.params.id, request.query),
  );

  r.post(
    '/api/care/mar/administrations/',
    {
      config: write,
      schema: {
        tags,
        summary:
          'Records a dose given or not given, once: a repeated submit (same key) returns the first (200)',
        body: ZAdministrationCreateSafe,
        response: { 200: ZDoseRecordSafe, 201: ZDoseRecordSafe },
      },
    },
    async (request, reply) => {
      const { dose, created } = await mar.administer(contextOf(request), request.body);
      reply.code(created ? 201 : 200);
      return dose;
    },
  );

  r.post(
    '/api/care/mar/stat/',
    {
      config: write,
      schema: {
        tags,
        summary:
          'Gives a first dose now ("stat") of a line whose first dose is later: its schedule follows from it (once; replay 200)',
        body: ZStatDoseCreate,
        response: { 200: ZDoseRecordSafe, 201: ZDoseRecordSafe },
      },
    },
    async (request, reply) => {
      const { dose, created } = await mar.stat(contextOf(request), request.body);
      reply.code(created ? 201 : 200);
      return dose;
    },
  );

  r.get(
    '/api/care/handoffs/',
    {
      config: read,
      schema: {
        tags,
        summary: 'Handoffs to give, to acknowledge, unacknowledged (charge nurse) or all recent',
        querystring: ZHandoffQuery,
        response: { 200: ZHandoffList },
      },
    },
    async (request) => {
      const result = await handoffs.list(contextOf(request), request.query);
      return { ...pageOf(request, request.query, result.count, result.rows), shift: result.shift };
    },
  );

  r.get(
    '/api/care/plans/:id/handoff-draft/',
    {
      config: read,
      schema: {
        tags,
        summary: 'The SBAR of the current shift pre-filled with what changed',
        params: ZIdParams,
        response: { 200: ZHandoffDraft },
      },
    },
    async (request) => handoffs.draft(contextOf(request), request.params.id),
  );

  r.post(
    '/api/care/handoffs/',
    {
      config: write,
      schema: {
        tags,
        summary: 'Writes the handoff of a patient for the current shift (once per patient and shift)',
        body: ZHandoffCreate,
        response: { 201: ZHandoff },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return handoffs.create(contextOf(request), request.body);
    },
  );

  r.get(
    '/api/care/handoffs/:id/',
    { config: read, schema: { tags, summary: 'A handoff', params: ZIdParams, response: { 200: ZHandoff } } },
    async (request) => handoffs.read(contextOf(request), request.params.id),
  );

  r.post(
    '/api/care/handoffs/:id/acknowledge/',
    {
      config: write,
      schema: {
        tags,
        summary: 'The incoming nurse acknowledges a handoff (never its author)',
        params: ZIdParams,
        body: ZHandoffAcknowledge,
        response: { 200: ZHandoff },
      },
    },
    async (request) => handoffs.acknowledge(contextOf(request), request.params.id, request.body.note),
  );
}
