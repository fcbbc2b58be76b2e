import type { TExamListFilters } from '@greensen/shared/contracts/exams';
import { consultationAccess, isConsultationResponsible } from '@greensen/shared/domain/consultation-access';
import { EXAM_VALIDATED_ACTION } from '@greensen/shared/domain/exam-notifications';
import {
  availableExamActions,
  computeExamResults,
  type ExamAction,
  type ExamActor,
  type ExamUrgency,
  examActionLegal,
  examActionPermitted,
  PERFORMING_DEPARTMENT_KIND,
  validateExamValues,
} from '@greensen/shared/domain/exams';
import { roleGroup } from '@greensen/shared/domain/roles';
import type { FastifyInstance } from 'fastify';
import type { Tx } from '../../db/client.js';
import { fullName } from '../../lib/clinical.js';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { ApiError, badRequest, conflict, forbidden, notFound } from '../../lib/errors.js';
import { translate } from '../../lib/i18n.js';
import { nextSequenceValue } from '../../lib/sequences.js';
import { type Notify, withNotifications } from '../notifications/notifications.service.js';
import {
  consultationFacts,
  countUrgent,
  EXAM_ORDER_SEQUENCE,
  type ExamOrderChange,
  findCatalogueExams,
  findOrder,
  findOrders,
  formatOrderNumber,
  insertExamOrder,
  listCatalogue,
  listOrders,
  lockOrder,
  markExamAcknowledged,
  type OrderFilters,
  type OrderView,
  patientFacts,
  performingDepartment,
  updateExamOrder,
} from './exams.repository.js';

export interface ExamOrderInput {
  patient: string;
  consultation?: string | null | undefined;
  exam?: string | undefined;
  exams?: string[] | undefined;
  urgency: ExamUrgency;
  clinical_info?: string | null | undefined;
}

type Locked = NonNullable<Awaited<ReturnType<typeof lockOrder>>>;
type Change = (tx: Tx, order: Locked, notify: Notify) => Promise<Record<string, unknown> | undefined>;

/** The user's memberships in the current hospital, as the exam rules read them. */
export function examActorOf(ctx: ServiceContext): ExamActor {
  const hospitalId = scopedHospital(ctx).id;
  return {
    id: actingUser(ctx).id,
    memberships: actingUser(ctx)
      .memberships.filter((m) => m.hospitalId === hospitalId)
      .map((m) => ({ departmentId: m.departmentId, group: roleGroup(m.roleCode) })),
  };
}

export class ExamsService {
  constructor(private readonly app: FastifyInstance) {}

  catalogue(
    f: { search?: string | undefined; kind?: 'lab' | 'imaging' | undefined; category?: string | undefined },
    page: number,
    pageSize: number,
  ) {
    return listCatalogue(this.app.db, f, pageSize, (page - 1) * pageSize);
  }

  /** The view with the actions the current user may take on it. */
  private present(actor: ExamActor, order: OrderView) {
    return {
      ...order,
      actions: availableExamActions(actor, {
        status: order.status,
        requestedBy: order.requested_by.id,
        departmentId: order.department_id,
      }),
    };
  }

  /**
   * Orders one or several exams for a patient, directly or from a consultation the requester may edit
   * (consultation-access). Each order goes to the hospital's laboratory or imaging department and gets its
   * number (`HGG-EX-000042`). All or nothing, in one transaction with one audit row per order.
   */
  async order(ctx: ServiceContext, input: ExamOrderInput) {
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    const actor = examActorOf(ctx);
    return this.app.db.transaction(async (tx) => {
      const patient = await patientFacts(tx, hospital.id, input.patient);
      if (!patient) throw badRequest({ patient: ['exams.patient_unknown'] });
      if (patient.archived_at) throw conflict('patients.archived');

      let admissionId: string | null = null;
      if (input.consultation) {
        const c = await consultationFacts(tx, hospital.id, input.consultation);
        if (!c) throw badRequest({ consultation: ['exams.consultation_unknown'] });
        if (c.patient_id !== patient.id)
          throw badRequest({ consultation: ['exams.consultation_other_patient'] });
        const user = { id: me, groups: hospital.groups, departmentIds: hospital.departmentIds };
        const facts = {
          doctorId: c.doctor_id,
          departmentId: c.department_id,
          status: c.status,
          admissionType: c.admission_type,
        };
        if (consultationAccess(user, facts) !== 'edit') {
          if (isConsultationResponsible(user, facts)) throw conflict('exams.consultation_closed');
          throw forbidden('exams.consultation_forbidden');
        }
        admissionId = c.admission_id;
      }

      const refs = input.exams ?? (input.exam ? [input.exam] : []);
      const found = await findCatalogueExams(tx, refs);
      const lang = ctx.lang;
      const chosen = refs.map((ref, index) => {
        const exam = found.find((e) => e.id === ref.toLowerCase() || e.code === ref.toUpperCase());
        if (!exam)
          throw badRequest({ exams: [translate(lang, 'exams.exam_unknown', { position: index + 1 })] });
        return exam;
      });
      if (new Set(chosen.map((e) => e.id)).size !== chosen.length)
        throw badRequest({ exams: ['exams.exam_duplicate'] });

      const departmentByKind = new Map<string, string>();
      for (const kind of new Set(chosen.map((e) => e.kind))) {
        const depKind = PERFORMING_DEPARTMENT_KIND[kind];
        const dep = await performingDepartment(tx, hospital.id, depKind);
        if (!dep)
          throw conflict('exams.no_performing_department', {
            department: translate(lang, `exams.department_kind.${depKind}`),
          });
        departmentByKind.set(kind, dep);
      }

      const ids: string[] = [];
      for (const exam of chosen) {
        const n = await nextSequenceValue(tx, hospital.id, EXAM_ORDER_SEQUENCE);
        const orderId = await insertExamOrder(tx, {
          hospitalId: hospital.id,
          orderNumber: formatOrderNumber(hospital.code, n),
          patientId: patient.id,
          consultationId: input.consultation ?? null,
          admissionId,
          examId: exam.id,
          departmentId: departmentByKind.get(exam.kind)!,
          urgency: input.urgency,
          clinicalInfo: input.clinical_info?.trim() || null,
          requestedBy: me,
        });
        ids.push(orderId);
        await this.app.audit.record(
          ctx,
          {
            action: 'exam.order',
            resourceType: 'exam',
            resourceId: orderId,
            patientId: patient.id,
            details: { exam: exam.code, urgency: input.urgency, consultation: input.consultation ?? null },
          },
          tx,
        );
      }
      const orders = await findOrders(tx, hospital.id, ids);
      return { orders: orders.map((o) => this.present(actor, o)) };
    });
  }

  async list(
    ctx: ServiceContext,
    query: Omit<TExamListFilters, 'page' | 'page_size'>,
    page: number,
    pageSize: number,
  ) {
    const hospital = scopedHospital(ctx);
    const actor = examActorOf(ctx);
    const f: OrderFilters = {
      status: query.status,
      urgency: query.urgency,
      department: query.department,
      kind: query.kind,
      patient: query.patient,
      consultation: query.consultation,
      requestedBy: query.requested_by === 'me' ? actingUser(ctx).id : query.requested_by,
      abnormal: query.abnormal,
      date: query.date,
      search: query.search,
      ordering: query.ordering,
    };
    return this.app.db.transaction(async (tx) => {
      const result = await listOrders(tx, hospital.id, f, pageSize, (page - 1) * pageSize);
      await this.app.audit.record(
        ctx,
        {
          action: 'exam.list',
          resourceType: 'exam',
          ...(f.patient ? { patientId: f.patient } : {}),
          details: { ...query, page, count: result.rows.length },
        },
        tx,
      );
      return { count: result.count, rows: result.rows.map((o) => this.present(actor, o)) };
    });
  }

  /** The requesting doctor's validated abnormal results not acknowledged yet, urgent first. */
  async alerts(ctx: ServiceContext, page: number, pageSize: number) {
    const hospital = scopedHospital(ctx);
    const actor = examActorOf(ctx);
    const f: OrderFilters = {
      status: ['validated'],
      requestedBy: actingUser(ctx).id,
      abnormal: true,
      unacknowledged: true,
      ordering: 'alerts',
    };
    return this.app.db.transaction(async (tx) => {
      const result = await listOrders(tx, hospital.id, f, pageSize, (page - 1) * pageSize);
      const urgent = await countUrgent(tx, hospital.id, f);
      await this.app.audit.record(
        ctx,
        { action: 'exam.alerts', resourceType: 'exam', details: { page, count: result.rows.length } },
        tx,
      );
      return {
        count: result.count,
        urgent,
        rows: result.rows.map((o) => this.present(actor, o)),
      };
    });
  }

  async get(ctx: ServiceContext, id: string) {
    const hospital = scopedHospital(ctx);
    return this.app.db.transaction(async (tx) => {
      const order = await findOrder(tx, hospital.id, id);
      if (!order) throw notFound();
      await this.app.audit.record(
        ctx,
        { action: 'exam.read', resourceType: 'exam', resourceId: id, patientId: order.patient.id },
        tx,
      );
      return this.present(examActorOf(ctx), order);
    });
  }

  /**
   * The common frame of every action on an order: lock it (404 for another hospital's), 409 when its status
   * does not allow the action, 403 when the user's role and department do not, 409 when the version read is
   * stale; then the change, its audit row and its notifications in one transaction.
   */
  private act(
    ctx: ServiceContext,
    id: string,
    action: ExamAction,
    version: number | undefined,
    change: Change,
  ) {
    return withNotifications(this.app, (tx, notify) =>
      this.actIn(tx, notify, ctx, id, action, version, change),
    );
  }

  /** `act` inside the caller's transaction (a FHIR post locks its retry key in the same one). */
  private async actIn(
    tx: Tx,
    notify: Notify,
    ctx: ServiceContext,
    id: string,
    action: ExamAction,
    version: number | undefined,
    change: Change,
  ) {
    const hospital = scopedHospital(ctx);
    const actor = examActorOf(ctx);
    const order = await lockOrder(tx, hospital.id, id);
    if (!order) throw notFound();
    if (!examActionLegal(order.status, action))
      throw conflict('exams.illegal_move', {
        status: translate(ctx.lang, `exams.status.${order.status}`),
      });
    const facts = {
      status: order.status,
      requestedBy: order.requested_by,
      departmentId: order.department_id,
    };
    if (!examActionPermitted(actor, facts, action)) throw forbidden(`exams.forbidden.${action}`);
    if (version !== undefined && version !== order.version) throw conflict('exams.stale');
    const details = await change(tx, order, notify);
    await this.app.audit.record(
      ctx,
      {
        action: `exam.${action}`,
        resourceType: 'exam',
        resourceId: order.id,
        patientId: order.patient_id,
        details: { from: order.status, ...(details ?? {}) },
      },
      tx,
    );
    const view = (await findOrder(tx, hospital.id, order.id))!;
    return this.present(actor, view);
  }

  private async update(tx: Tx, order: Locked, values: ExamOrderChange) {
    await updateExamOrder(tx, order.id, values);
  }

  start(ctx: ServiceContext, id: string, version: number | undefined) {
    return this.act(ctx, id, 'start', version, this.startChange(ctx));
  }

  private startChange(ctx: ServiceContext): Change {
    const me = actingUser(ctx).id;
    return async (tx, order) => {
      await this.update(tx, order, { status: 'in_progress', startedBy: me, startedAt: new Date() });
      return undefined;
    };
  }

  /**
   * Enters (or corrects, before validation) the results: every value checked against the exam's fields, the
   * flags computed here against the patient's reference ranges at the sampling date — never taken from the
   * client. The order becomes `completed`.
   */
  results(
    ctx: ServiceContext,
    id: string,
    body: {
      results: Record<string, number | string | null>;
      report?: string | null | undefined;
      version: number;
    },
  ) {
    return this.act(ctx, id, 'results', body.version, async (tx, order) =>
      this.enterResults(tx, ctx, order, body.results, body.report, false),
    );
  }

  /**
   * One value an instrument or a reference laboratory posts through FHIR (decision 0085), in the caller's
   * transaction: the order is started first when it is still requested (the sample was analysed), then the value
   * is merged into the values entered so far and goes through `results`' own checks, flags, audit and version —
   * the order becomes `completed` once every required field has its value (it stays in progress before).
   * Never validated here: validation stays the biologist's act in the app.
   */
  async postValue(
    tx: Tx,
    notify: Notify,
    ctx: ServiceContext,
    id: string,
    key: string,
    value: number | string,
  ) {
    const hospital = scopedHospital(ctx);
    const current = await lockOrder(tx, hospital.id, id);
    if (!current) throw notFound();
    if (current.status === 'requested')
      await this.actIn(tx, notify, ctx, id, 'start', undefined, this.startChange(ctx));
    return this.actIn(tx, notify, ctx, id, 'results', undefined, async (tx2, order) => {
      const view = (await findOrder(tx2, hospital.id, order.id))!;
      const entered = Object.fromEntries(
        Object.entries(view.results ?? {}).map(([k, entry]) => [k, entry.value]),
      );
      const details = await this.enterResults(
        tx2,
        ctx,
        order,
        { ...entered, [key]: value },
        view.report,
        true,
      );
      return { ...details, fhir: true, field: key };
    });
  }

  /**
   * Enters (or corrects, before validation) the results: every value checked against the exam's fields, the
   * flags computed here against the patient's reference ranges at the sampling date — never taken from the
   * client. The order becomes `completed`; with `partial` (a FHIR post of one value), only once every required
   * field has a value.
   */
  private async enterResults(
    tx: Tx,
    ctx: ServiceContext,
    order: Locked,
    input: Record<string, number | string | null>,
    reportIn: string | null | undefined,
    partial: boolean,
  ) {
    const me = actingUser(ctx).id;
    const lang = ctx.lang;
    const view = (await findOrder(tx, scopedHospital(ctx).id, order.id))!;
    const checked = validateExamValues(view.exam.kind, view.fields, input, reportIn);
    const missing = checked.issues.filter((i) => i.code === 'value_required');
    const issues = partial ? checked.issues.filter((i) => i.code !== 'value_required') : checked.issues;
    if (issues.length > 0) {
      const fields: Record<string, string[]> = {};
      for (const issue of issues) {
        const list = fields[issue.path] ?? [];
        list.push(translate(lang, `exams.${issue.code}`, issue.params));
        fields[issue.path] = list;
      }
      throw new ApiError(400, 'validation.invalid', { fields });
    }
    const patient = { sex: view.patient.sex, age: view.reference_age };
    const { results, abnormal } = computeExamResults(view.fields, checked.values, patient);
    const report = reportIn?.trim() || null;
    const complete = missing.length === 0;
    await this.update(tx, order, {
      status: complete ? 'completed' : 'in_progress',
      results,
      report,
      abnormal,
      resultedBy: me,
      resultedAt: new Date(),
    });
    return { abnormal, corrected: order.status === 'completed', ...(partial ? { complete } : {}) };
  }

  /**
   * Validates the results; the requesting doctor is notified in the same transaction (type `consultation`,
   * `data.action = 'exam_validated'`), in their language.
   */
  validate(ctx: ServiceContext, id: string, version: number | undefined) {
    const me = actingUser(ctx).id;
    const hospital = scopedHospital(ctx);
    return this.act(ctx, id, 'validate', version, async (tx, order, notify) => {
      await this.update(tx, order, { status: 'validated', validatedBy: me, validatedAt: new Date() });
      if (order.requested_by !== me) {
        const view = (await findOrder(tx, hospital.id, order.id))!;
        const u = actingUser(ctx);
        const urgent = order.urgency === 'urgent';
        const kind = urgent && order.abnormal ? 'urgent_abnormal' : order.abnormal ? 'abnormal' : 'normal';
        const text = (lang: 'fr' | 'en', part: 'title' | 'message') =>
          translate(lang, `exams.notify.${kind}.${part}`, {
            exam: lang === 'fr' ? view.exam.name_fr : view.exam.name_en,
            patient: view.patient.full_name,
            record: view.patient.record_number,
            order: view.order_number,
            validator: fullName(u.firstName, u.lastName),
          });
        await notify({
          hospitalId: hospital.id,
          recipients: [order.requested_by],
          type: 'consultation',
          title: { fr: text('fr', 'title'), en: text('en', 'title') },
          message: { fr: text('fr', 'message'), en: text('en', 'message') },
          data: {
            action: EXAM_VALIDATED_ACTION,
            exam: order.id,
            patient: order.patient_id,
            consultation: order.consultation_id,
            abnormal: order.abnormal,
            urgent,
            order_number: view.order_number,
          },
          initiatedBy: me,
        });
      }
      return { abnormal: order.abnormal };
    });
  }

  cancel(ctx: ServiceContext, id: string, reason: string) {
    const me = actingUser(ctx).id;
    return this.act(ctx, id, 'cancel', undefined, async (tx, order) => {
      await this.update(tx, order, {
        status: 'cancelled',
        cancelReason: reason,
        cancelledBy: me,
        cancelledAt: new Date(),
      });
      return { reason };
    });
  }

  /** The requester has seen the validated result (idempotent; the order's version does not change). */
  acknowledge(ctx: ServiceContext, id: string) {
    return this.act(ctx, id, 'acknowledge', undefined, async (tx, order) => {
      if (order.acknowledged_at) return { already: true };
      await markExamAcknowledged(tx, order.id);
      return undefined;
    });
  }
}
