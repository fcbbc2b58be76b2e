import type { TConsultationUpdate, TDiagnosisUpdate } from '@greensen/shared/contracts/consultations';
import {
  type ConsultationAccess,
  type ConsultationAccessUser,
  consultationAccess,
  isConsultationResponsible,
  mayAddAddendum,
} from '@greensen/shared/domain/consultation-access';
import {
  completionProblems,
  type DiagnosisCertainty,
  type DiagnosisRank,
  OUTCOME_ADMISSION_STATUS,
} from '@greensen/shared/domain/consultations';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Queryable, Tx } from '../../db/client.js';
import {
  admissions,
  consultationAddenda,
  consultationDiagnoses,
  consultations,
  departments,
  executions,
  icd10Codes,
  patients,
} from '../../db/schema/index.js';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { ApiError, badRequest, conflict, notFound } from '../../lib/errors.js';
import { hospitalToday, listReadEntry, NAME_SEARCH_TOLERANCE } from '../../lib/queries.js';
import { birthDateOf, news2Of } from '../care/vital-signs.repository.js';
import { HospitalizationService } from '../hospitalizations/hospitalizations.service.js';
import { withNotifications } from '../notifications/notifications.service.js';
import { triageOfAdmission } from '../triage/triage.repository.js';
import {
  type ConsultationFacts,
  type ConsultationFilters,
  factsOf,
  findConsultation,
  findDiagnosis,
  listAddenda,
  listConsultations,
  listDiagnoses,
  listPatientDiagnoses,
  loadFacts,
} from './consultations.repository.js';

/**
 * A refusal by the consultation-access rule. It is audited (outcome `denied`) after the transaction it was
 * raised in has rolled back, so that the refusal row is kept.
 */
class ConsultationRefusal extends ApiError {
  constructor(
    readonly consultationId: string,
    readonly patientId: string,
    readonly attempted: string,
    readonly access: ConsultationAccess,
  ) {
    super(403, access === 'none' ? 'consultations.forbidden' : 'consultations.read_only');
  }
}

/** A draft save based on an older version: the route answers 409 with the current version. */
export interface StaleVersion {
  stale: true;
  version: number;
}

type Sections = Omit<TConsultationUpdate, 'version'>;

const compactVitals = (v: Record<string, unknown> | null | undefined) => {
  if (!v) return null;
  const kept = Object.entries(v).filter(([, x]) => x !== null && x !== undefined);
  return kept.length > 0 ? Object.fromEntries(kept) : null;
};

export class ConsultationsService {
  constructor(private readonly app: FastifyInstance) {}

  private user(ctx: ServiceContext): ConsultationAccessUser {
    const hospital = scopedHospital(ctx);
    return { id: actingUser(ctx).id, groups: hospital.groups, departmentIds: hospital.departmentIds };
  }

  private accessOf(ctx: ServiceContext, f: ConsultationFacts) {
    return consultationAccess(this.user(ctx), {
      doctorId: f.doctorId,
      departmentId: f.departmentId,
      status: f.status,
      admissionType: f.admissionType,
    });
  }

  /** Runs `work`, auditing a consultation-access refusal it raised (after its transaction rolled back). */
  private async audited<T>(ctx: ServiceContext, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof ConsultationRefusal) {
        await this.app.audit.record(ctx, {
          action: 'consultation.access_denied',
          outcome: 'denied',
          resourceType: 'consultation',
          resourceId: error.consultationId,
          patientId: error.patientId,
          details: { attempted: error.attempted, access: error.access },
        });
      }
      throw error;
    }
  }

  /**
   * The consultation, locked, for a change by someone responsible for it (the rule's "edit" while in progress):
   * 404 unknown or another hospital's; 403 (audited) when the rule gives no access or read only; 409 once
   * completed or cancelled (`expect` = 'in_progress') — or, for addenda, unless completed.
   */
  private async lockForChange(
    tx: Tx,
    ctx: ServiceContext,
    id: string,
    attempted: string,
    expect: 'in_progress' | 'completed' = 'in_progress',
  ): Promise<ConsultationFacts> {
    const facts = await loadFacts(tx, scopedHospital(ctx).id, id, true);
    if (!facts) throw notFound();
    const access = this.accessOf(ctx, facts);
    const ruleFacts = {
      doctorId: facts.doctorId,
      departmentId: facts.departmentId,
      status: facts.status,
      admissionType: facts.admissionType,
    };
    if (access === 'none' || !isConsultationResponsible(this.user(ctx), ruleFacts))
      throw new ConsultationRefusal(facts.id, facts.patientId, attempted, access);
    if (facts.status !== expect) {
      if (expect === 'completed') throw conflict('consultations.addendum_not_completed');
      throw conflict(facts.status === 'cancelled' ? 'consultations.cancelled' : 'consultations.locked');
    }
    return facts;
  }

  /** The full record for the caller (access, addenda, active diagnoses); null when unknown. */
  private async detail(q: Queryable, ctx: ServiceContext, id: string) {
    const hospitalId = scopedHospital(ctx).id;
    const view = await findConsultation(q, hospitalId, id);
    if (!view) return null;
    const user = this.user(ctx);
    const facts = factsOf(view);
    const access = consultationAccess(user, facts);
    const [addenda, diagnoses, triage] = await Promise.all([
      listAddenda(q, hospitalId, id),
      listDiagnoses(q, hospitalId, id),
      view.admission ? triageOfAdmission(q, hospitalId, view.admission.id) : null,
    ]);
    return {
      view: {
        ...view,
        access: access === 'edit' ? ('edit' as const) : ('read' as const),
        may_add_addendum: mayAddAddendum(user, facts),
        addenda,
        diagnoses: diagnoses.rows,
        triage: triage && {
          id: triage.id,
          scale: triage.scale,
          level: triage.level,
          vitals: triage.vitals,
          recorded_by: triage.recorded_by,
          recorded_at: triage.recorded_at,
        },
      },
      access,
    };
  }

  async list(ctx: ServiceContext, filters: ConsultationFilters, page: number, pageSize: number) {
    const hospital = scopedHospital(ctx);
    const user = this.user(ctx);
    return this.app.db.transaction(async (tx) => {
      if (filters.search) await tx.execute(NAME_SEARCH_TOLERANCE);
      const result = await listConsultations(tx, hospital.id, user, filters, pageSize, (page - 1) * pageSize);
      await this.app.audit.record(
        ctx,
        listReadEntry('consultation.list', 'consultation', filters, page, result.rows.length),
        tx,
      );
      const rows = result.rows.map((row) => {
        const access = consultationAccess(user, factsOf(row));
        return { ...row, access: access === 'edit' ? ('edit' as const) : ('read' as const) };
      });
      return { count: result.count, rows };
    });
  }

  /** GET one: 404 unknown (or another hospital's), 403 audited when the rule gives no access. */
  async get(ctx: ServiceContext, id: string) {
    const found = await this.detail(this.app.db, ctx, id);
    if (!found) throw notFound();
    const { view, access } = found;
    if (access === 'none') {
      return this.audited(ctx, async () => {
        throw new ConsultationRefusal(id, view.patient.id, 'read', access);
      });
    }
    await this.app.audit.record(ctx, {
      action: 'consultation.read',
      resourceType: 'consultation',
      resourceId: id,
      patientId: view.patient.id,
    });
    return view;
  }

  /**
   * A consultation created directly for a patient (no visit): the author is its doctor; its department is the
   * given one or the author's department in the hospital (400 when they have none).
   */
  async create(
    ctx: ServiceContext,
    input: { patient: string; department?: string | null | undefined; reason: string },
  ) {
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    return this.app.db.transaction(async (tx) => {
      const [patient] = await tx
        .select({ id: patients.id, archivedAt: patients.archivedAt })
        .from(patients)
        .where(and(eq(patients.hospitalId, hospital.id), eq(patients.id, input.patient)));
      if (!patient) throw badRequest({ patient: ['consultations.patient_unknown'] });
      if (patient.archivedAt) throw conflict('patients.archived');
      let departmentId = input.department ?? null;
      if (departmentId) {
        const [department] = await tx
          .select({ id: departments.id })
          .from(departments)
          .where(
            and(
              eq(departments.hospitalId, hospital.id),
              eq(departments.id, departmentId),
              eq(departments.isActive, true),
            ),
          );
        if (!department) throw badRequest({ department: ['consultations.department_unknown'] });
      } else {
        departmentId = hospital.departmentIds[0] ?? null;
        if (!departmentId) throw badRequest({ department: ['consultations.department_required'] });
      }
      const [row] = await tx
        .insert(consultations)
        .values({
          hospitalId: hospital.id,
          patientId: patient.id,
          departmentId,
          doctorId: me,
          reason: input.reason,
          status: 'in_progress',
          createdBy: me,
        })
        .returning({ id: consultations.id });
      await this.app.audit.record(
        ctx,
        {
          action: 'consultation.create',
          resourceType: 'consultation',
          resourceId: row!.id,
          patientId: patient.id,
          details: { department: departmentId },
        },
        tx,
      );
      return (await this.detail(tx, ctx, row!.id))!.view;
    });
  }

  /**
   * A draft save of any subset of the sections, based on `version`: an older version is not applied (the
   * caller answers 409 with the current version); otherwise the version goes up by one.
   */
  async update(ctx: ServiceContext, id: string, input: TConsultationUpdate) {
    const { version, ...sections } = input;
    return this.audited(ctx, () =>
      this.app.db.transaction(async (tx) => {
        const facts = await this.lockForChange(tx, ctx, id, 'update');
        if (version !== facts.version) return { stale: true, version: facts.version } as StaleVersion;
        const values = this.sectionValues(sections);
        if (values.vitals !== undefined) {
          // Each save keeps the set's NEWS2 beside it: the patient's one series of vitals (issue 37).
          const news2 = news2Of(values.vitals, await birthDateOf(tx, facts.patientId));
          values.news2Score = news2?.score ?? null;
          values.news2 = news2 ? { ...news2 } : null;
        }
        await tx
          .update(consultations)
          .set({ ...values, version: facts.version + 1, updatedAt: new Date() })
          .where(eq(consultations.id, id));
        await this.app.audit.record(
          ctx,
          {
            action: 'consultation.update',
            resourceType: 'consultation',
            resourceId: id,
            patientId: facts.patientId,
            details: { fields: Object.keys(sections), version: facts.version + 1 },
          },
          tx,
        );
        return (await this.detail(tx, ctx, id))!.view;
      }),
    );
  }

  private sectionValues(s: Sections): Partial<typeof consultations.$inferInsert> {
    const v: Partial<typeof consultations.$inferInsert> = {};
    if (s.reason !== undefined) v.reason = s.reason;
    if (s.history !== undefined) v.history = s.history;
    if (s.current_treatment !== undefined) v.currentTreatment = s.current_treatment;
    if (s.allergies !== undefined) v.allergies = s.allergies;
    if (s.allergies_confirmed !== undefined) v.allergiesConfirmed = s.allergies_confirmed;
    if (s.examination !== undefined) v.examination = s.examination;
    if (s.vitals !== undefined) v.vitals = compactVitals(s.vitals);
    if (s.conclusion !== undefined) v.conclusion = s.conclusion;
    if (s.plan !== undefined) v.plan = s.plan;
    if (s.outcome !== undefined) v.outcome = s.outcome;
    if (s.outcome_notes !== undefined) v.outcomeNotes = s.outcome_notes;
    if (s.follow_up_date !== undefined) v.followUpDate = s.follow_up_date;
    return v;
  }

  /**
   * Completes (locks) the consultation: it needs an active primary diagnosis and an outcome (and a follow-up
   * date for a follow-up) — 400 with field errors otherwise. The visit moves by outcome, the execution
   * completes, and confirmed allergies replace the patient's list; one transaction with its audit row.
   */
  async complete(ctx: ServiceContext, id: string, expectedVersion: number | undefined) {
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    return this.audited(ctx, () =>
      withNotifications(this.app, async (tx, notify) => {
        const facts = await this.lockForChange(tx, ctx, id, 'complete');
        if (expectedVersion !== undefined && expectedVersion !== facts.version)
          return { stale: true, version: facts.version } as StaleVersion;
        const [primary] = await tx
          .select({ id: consultationDiagnoses.id })
          .from(consultationDiagnoses)
          .where(
            and(
              eq(consultationDiagnoses.consultationId, id),
              eq(consultationDiagnoses.rank, 'primary'),
              isNull(consultationDiagnoses.removedAt),
            ),
          );
        const problems = completionProblems(
          { hasPrimaryDiagnosis: Boolean(primary), outcome: facts.outcome, followUpDate: facts.followUpDate },
          await hospitalToday(tx, hospital.id),
        );
        if (problems.length > 0) {
          const fields: Record<string, string[]> = {};
          for (const p of problems) fields[p.field] = [...(fields[p.field] ?? []), p.key];
          throw badRequest(fields);
        }
        const outcome = facts.outcome!;
        const now = new Date();
        await tx
          .update(consultations)
          .set({
            status: 'completed',
            completedAt: now,
            completedBy: me,
            version: facts.version + 1,
            updatedAt: now,
          })
          .where(eq(consultations.id, id));
        let admissionMove: { from: string; to: string } | null = null;
        if (facts.admissionId) {
          const [admission] = await tx
            .select({ status: admissions.status })
            .from(admissions)
            .where(eq(admissions.id, facts.admissionId))
            .for('update');
          if (admission?.status === 'in_consultation') {
            const to = OUTCOME_ADMISSION_STATUS[outcome];
            await tx
              .update(admissions)
              .set({ status: to, closedAt: now, updatedAt: now })
              .where(eq(admissions.id, facts.admissionId));
            admissionMove = { from: admission.status, to };
          }
        }
        // "Hospitalize": the stay opens at once and waits for a bed on the bed board (issue 17).
        let stay: string | null = null;
        if (outcome === 'hospitalize') {
          const [row] = await tx
            .select({ reason: consultations.reason, notes: consultations.outcomeNotes })
            .from(consultations)
            .where(eq(consultations.id, id));
          stay = await new HospitalizationService(this.app).open(tx, ctx, notify, {
            patientId: facts.patientId,
            admissionId: facts.admissionId,
            consultationId: id,
            departmentId: facts.departmentId,
            doctorId: facts.doctorId,
            reason: row?.notes?.trim() || row?.reason?.trim() || '—',
            icdCode: await primaryCode(tx, id),
            expectedDays: null,
          });
        }
        if (facts.executionId) {
          await tx
            .update(executions)
            .set({ status: 'completed', completedAt: now, updatedAt: now })
            .where(
              and(
                eq(executions.id, facts.executionId),
                inArray(executions.status, ['assigned', 'in_progress']),
              ),
            );
        }
        let allergies: string[] | null = null;
        if (facts.allergiesConfirmed && facts.allergies !== null) {
          allergies = facts.allergies;
          await tx
            .update(patients)
            .set({ allergies, allergiesRecorded: true, updatedAt: now })
            .where(and(eq(patients.id, facts.patientId), eq(patients.hospitalId, hospital.id)));
        }
        await this.app.audit.record(
          ctx,
          {
            action: 'consultation.complete',
            resourceType: 'consultation',
            resourceId: id,
            patientId: facts.patientId,
            details: {
              outcome,
              admission: facts.admissionId,
              admission_move: admissionMove,
              execution: facts.executionId,
              ...(stay ? { hospitalization: stay } : {}),
              ...(allergies ? { allergies_confirmed: allergies } : {}),
            },
          },
          tx,
        );
        return (await this.detail(tx, ctx, id))!.view;
      }),
    );
  }

  /**
   * Cancels a consultation started by mistake, with a reason: it is kept (never deleted) as cancelled; its visit
   * goes back to `assigned` and its execution back to `assigned` to the same doctor, who can start it again.
   */
  async cancel(ctx: ServiceContext, id: string, reason: string) {
    return this.audited(ctx, () =>
      this.app.db.transaction(async (tx) => {
        const facts = await this.lockForChange(tx, ctx, id, 'cancel');
        const now = new Date();
        await tx
          .update(consultations)
          .set({
            status: 'cancelled',
            cancelReason: reason,
            cancelledAt: now,
            version: facts.version + 1,
            updatedAt: now,
          })
          .where(eq(consultations.id, id));
        if (facts.admissionId) {
          await tx
            .update(admissions)
            .set({ status: 'assigned', updatedAt: now })
            .where(and(eq(admissions.id, facts.admissionId), eq(admissions.status, 'in_consultation')));
        }
        if (facts.executionId) {
          await tx
            .update(executions)
            .set({ status: 'assigned', startedAt: null, updatedAt: now })
            .where(and(eq(executions.id, facts.executionId), eq(executions.status, 'in_progress')));
        }
        await this.app.audit.record(
          ctx,
          {
            action: 'consultation.cancel',
            resourceType: 'consultation',
            resourceId: id,
            patientId: facts.patientId,
            details: { reason, admission: facts.admissionId, execution: facts.executionId },
          },
          tx,
        );
        return (await this.detail(tx, ctx, id))!.view;
      }),
    );
  }

  /** A dated addendum on a completed consultation, by someone responsible for it. */
  async addAddendum(ctx: ServiceContext, id: string, text: string) {
    return this.audited(ctx, () =>
      this.app.db.transaction(async (tx) => {
        const facts = await this.lockForChange(tx, ctx, id, 'addendum', 'completed');
        const [row] = await tx
          .insert(consultationAddenda)
          .values({
            hospitalId: scopedHospital(ctx).id,
            consultationId: id,
            authorId: actingUser(ctx).id,
            text,
          })
          .returning({ id: consultationAddenda.id });
        await this.app.audit.record(
          ctx,
          {
            action: 'consultation.addendum',
            resourceType: 'consultation',
            resourceId: id,
            patientId: facts.patientId,
            details: { addendum: row!.id },
          },
          tx,
        );
        const addenda = await listAddenda(tx, scopedHospital(ctx).id, id);
        return addenda.find((a) => a.id === row!.id)!;
      }),
    );
  }

  /** The active diagnoses of a consultation the caller may read. */
  async diagnoses(ctx: ServiceContext, id: string, page: number, pageSize: number) {
    const hospitalId = scopedHospital(ctx).id;
    const facts = await loadFacts(this.app.db, hospitalId, id);
    if (!facts) throw notFound();
    const access = this.accessOf(ctx, facts);
    if (access === 'none')
      return this.audited(ctx, async () => {
        throw new ConsultationRefusal(id, facts.patientId, 'read_diagnoses', access);
      });
    const result = await listDiagnoses(this.app.db, hospitalId, id, pageSize, (page - 1) * pageSize);
    await this.app.audit.record(ctx, {
      action: 'consultation.diagnoses.read',
      resourceType: 'consultation',
      resourceId: id,
      patientId: facts.patientId,
    });
    return result;
  }

  /** Demotes the current primary diagnosis (if any, other than `except`) to secondary; returns its id. */
  private async demotePrimary(tx: Tx, consultationId: string, except?: string) {
    const rows = await tx
      .update(consultationDiagnoses)
      .set({ rank: 'secondary', updatedAt: new Date() })
      .where(
        and(
          eq(consultationDiagnoses.consultationId, consultationId),
          eq(consultationDiagnoses.rank, 'primary'),
          isNull(consultationDiagnoses.removedAt),
          except ? sql`${consultationDiagnoses.id} <> ${except}` : sql`true`,
        ),
      )
      .returning({ id: consultationDiagnoses.id });
    return rows[0]?.id ?? null;
  }

  /**
   * Adds a coded (the code must exist in the catalogue; label in the author's language) or free-text
   * diagnosis. A new primary demotes the previous primary to secondary. The same code twice is a 409.
   */
  async addDiagnosis(
    ctx: ServiceContext,
    id: string,
    input: {
      icd_code?: string | null | undefined;
      free_text?: string | null | undefined;
      rank: DiagnosisRank;
      certainty: DiagnosisCertainty;
      notes?: string | null | undefined;
    },
  ) {
    const hospitalId = scopedHospital(ctx).id;
    return this.audited(ctx, () =>
      this.app.db.transaction(async (tx) => {
        const facts = await this.lockForChange(tx, ctx, id, 'add_diagnosis');
        let label = input.free_text ?? '';
        let code: string | null = null;
        if (input.icd_code) {
          const [entry] = await tx
            .select({ code: icd10Codes.code, fr: icd10Codes.labelFr, en: icd10Codes.labelEn })
            .from(icd10Codes)
            .where(and(eq(icd10Codes.code, input.icd_code), inArray(icd10Codes.kind, ['category', 'code'])));
          if (!entry) throw badRequest({ icd_code: ['consultations.diagnosis_code_unknown'] });
          const [same] = await tx
            .select({ id: consultationDiagnoses.id })
            .from(consultationDiagnoses)
            .where(
              and(
                eq(consultationDiagnoses.consultationId, id),
                eq(consultationDiagnoses.icdCode, entry.code),
                isNull(consultationDiagnoses.removedAt),
              ),
            );
          if (same) throw conflict('consultations.diagnosis_duplicate', { code: entry.code });
          code = entry.code;
          label = ctx.lang === 'en' ? entry.en : entry.fr;
        }
        const demoted = input.rank === 'primary' ? await this.demotePrimary(tx, id) : null;
        const [row] = await tx
          .insert(consultationDiagnoses)
          .values({
            hospitalId,
            consultationId: id,
            patientId: facts.patientId,
            icdCode: code,
            label,
            coded: code !== null,
            rank: input.rank,
            certainty: input.certainty,
            notes: input.notes ?? null,
            createdBy: actingUser(ctx).id,
          })
          .returning({ id: consultationDiagnoses.id });
        await this.app.audit.record(
          ctx,
          {
            action: 'consultation.diagnosis.add',
            resourceType: 'consultation',
            resourceId: id,
            patientId: facts.patientId,
            details: { diagnosis: row!.id, code, rank: input.rank, certainty: input.certainty, demoted },
          },
          tx,
        );
        return (await findDiagnosis(tx, hospitalId, id, row!.id))!;
      }),
    );
  }

  async updateDiagnosis(ctx: ServiceContext, id: string, diagnosisId: string, input: TDiagnosisUpdate) {
    const hospitalId = scopedHospital(ctx).id;
    return this.audited(ctx, () =>
      this.app.db.transaction(async (tx) => {
        const facts = await this.lockForChange(tx, ctx, id, 'update_diagnosis');
        const current = await findDiagnosis(tx, hospitalId, id, diagnosisId);
        if (!current) throw notFound();
        const demoted =
          input.rank === 'primary' && current.rank !== 'primary'
            ? await this.demotePrimary(tx, id, diagnosisId)
            : null;
        const values: Partial<typeof consultationDiagnoses.$inferInsert> = { updatedAt: new Date() };
        if (input.rank) values.rank = input.rank;
        if (input.certainty) values.certainty = input.certainty;
        if (input.notes !== undefined) values.notes = input.notes;
        await tx.update(consultationDiagnoses).set(values).where(eq(consultationDiagnoses.id, diagnosisId));
        await this.app.audit.record(
          ctx,
          {
            action: 'consultation.diagnosis.update',
            resourceType: 'consultation',
            resourceId: id,
            patientId: facts.patientId,
            details: { diagnosis: diagnosisId, fields: Object.keys(input), demoted },
          },
          tx,
        );
        return (await findDiagnosis(tx, hospitalId, id, diagnosisId))!;
      }),
    );
  }

  /** Removes a diagnosis: kept with `removed_at` (clinical records are never deleted). */
  async removeDiagnosis(ctx: ServiceContext, id: string, diagnosisId: string) {
    const hospitalId = scopedHospital(ctx).id;
    return this.audited(ctx, () =>
      this.app.db.transaction(async (tx) => {
        const facts = await this.lockForChange(tx, ctx, id, 'remove_diagnosis');
        const current = await findDiagnosis(tx, hospitalId, id, diagnosisId);
        if (!current) throw notFound();
        const now = new Date();
        await tx
          .update(consultationDiagnoses)
          .set({ removedAt: now, removedBy: actingUser(ctx).id, updatedAt: now })
          .where(eq(consultationDiagnoses.id, diagnosisId));
        await this.app.audit.record(
          ctx,
          {
            action: 'consultation.diagnosis.remove',
            resourceType: 'consultation',
            resourceId: id,
            patientId: facts.patientId,
            details: { diagnosis: diagnosisId, code: current.icd_code, rank: current.rank },
          },
          tx,
        );
      }),
    );
  }

  /** The patient's previous diagnoses, from the consultations the caller may read. 404 unknown patient. */
  async patientDiagnoses(
    ctx: ServiceContext,
    patientId: string,
    exclude: string | undefined,
    page: number,
    pageSize: number,
  ) {
    const hospital = scopedHospital(ctx);
    return this.app.db.transaction(async (tx) => {
      const [patient] = await tx
        .select({ id: patients.id })
        .from(patients)
        .where(and(eq(patients.hospitalId, hospital.id), eq(patients.id, patientId)));
      if (!patient) throw notFound();
      const result = await listPatientDiagnoses(
        tx,
        hospital.id,
        this.user(ctx),
        patientId,
        exclude,
        pageSize,
        (page - 1) * pageSize,
      );
      await this.app.audit.record(
        ctx,
        {
          action: 'patient.diagnoses.read',
          resourceType: 'patient',
          resourceId: patientId,
          patientId,
          details: { page, results: result.rows.length },
        },
        tx,
      );
      return result;
    });
  }
}

/** The ICD-10 code of a consultation's primary diagnosis, when it is coded. */
async function primaryCode(tx: Tx, consultationId: string): Promise<string | null> {
  const [row] = await tx
    .select({ code: consultationDiagnoses.icdCode })
    .from(consultationDiagnoses)
    .where(
      and(
        eq(consultationDiagnoses.consultationId, consultationId),
        eq(consultationDiagnoses.rank, 'primary'),
        isNull(consultationDiagnoses.removedAt),
      ),
    );
  return row?.code ?? null;
}
