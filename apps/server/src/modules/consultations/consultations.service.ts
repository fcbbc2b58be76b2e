import type { TConsultationUpdate } from '@greensen/shared/contracts/consultations';
import { consultationAccess, mayAddAddendum } from '@greensen/shared/domain/consultation-access';
import { completionProblems, OUTCOME_ADMISSION_STATUS } from '@greensen/shared/domain/consultations';
import type { Queryable } from '../../db/client.js';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { hospitalToday, listReadEntry, tolerateNameSearch } from '../../lib/queries.js';
import { departmentForVisit, patientForVisit } from '../admissions/admissions.repository.js';
import { birthDateOf, news2Of } from '../care/vital-signs.repository.js';
import { HospitalizationService } from '../hospitalizations/hospitalizations.service.js';
import { withNotifications } from '../notifications/notifications.service.js';
import { triageOfAdmission } from '../triage/triage.repository.js';
import { ConsultationRefusal, ConsultationRules } from './consultation-rules.js';
import {
  type ConsultationFilters,
  type ConsultationSections,
  completeExecution,
  confirmPatientAllergies,
  consultationReasonAndNotes,
  factsOf,
  findConsultation,
  insertAddendum,
  insertConsultation,
  listAddenda,
  listConsultations,
  lockVisitStatus,
  markConsultationCancelled,
  markConsultationCompleted,
  moveVisitByOutcome,
  returnExecutionToAssigned,
  returnVisitToAssigned,
  saveConsultationDraft,
} from './consultations.repository.js';
import { hasPrimaryDiagnosis, listDiagnoses, primaryCode } from './diagnoses.repository.js';

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

/**
 * Consultations (the record of a visit's examination): their list and record, the draft saves, completion (and
 * what follows it: the visit, the execution, the stay, the allergies), cancellation and addenda. The diagnoses
 * are in diagnoses.service.ts.
 */
export class ConsultationsService extends ConsultationRules {
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
      if (filters.search) await tolerateNameSearch(tx);
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
      const patient = await patientForVisit(tx, hospital.id, input.patient);
      if (!patient) throw badRequest({ patient: ['consultations.patient_unknown'] });
      if (patient.archivedAt) throw conflict('patients.archived');
      let departmentId = input.department ?? null;
      if (departmentId) {
        if (!(await departmentForVisit(tx, hospital.id, departmentId, true)))
          throw badRequest({ department: ['consultations.department_unknown'] });
      } else {
        departmentId = hospital.departmentIds[0] ?? null;
        if (!departmentId) throw badRequest({ department: ['consultations.department_required'] });
      }
      const consultationId = await insertConsultation(tx, {
        hospitalId: hospital.id,
        patientId: patient.id,
        departmentId,
        doctorId: me,
        reason: input.reason,
        status: 'in_progress',
        createdBy: me,
      });
      await this.app.audit.record(
        ctx,
        {
          action: 'consultation.create',
          resourceType: 'consultation',
          resourceId: consultationId,
          patientId: patient.id,
          details: { department: departmentId },
        },
        tx,
      );
      return (await this.detail(tx, ctx, consultationId))!.view;
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
        await saveConsultationDraft(tx, id, values, facts.version + 1);
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

  private sectionValues(s: Sections): ConsultationSections {
    const v: ConsultationSections = {};
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
        const hasPrimary = await hasPrimaryDiagnosis(tx, id);
        const problems = completionProblems(
          { hasPrimaryDiagnosis: hasPrimary, outcome: facts.outcome, followUpDate: facts.followUpDate },
          await hospitalToday(tx, hospital.id),
        );
        if (problems.length > 0) {
          const fields: Record<string, string[]> = {};
          for (const p of problems) fields[p.field] = [...(fields[p.field] ?? []), p.key];
          throw badRequest(fields);
        }
        const outcome = facts.outcome!;
        const now = new Date();
        await markConsultationCompleted(tx, id, { completedBy: me, version: facts.version + 1, now });
        let admissionMove: { from: string; to: string } | null = null;
        if (facts.admissionId) {
          const admission = await lockVisitStatus(tx, facts.admissionId);
          if (admission?.status === 'in_consultation') {
            const to = OUTCOME_ADMISSION_STATUS[outcome];
            await moveVisitByOutcome(tx, facts.admissionId, to, now);
            admissionMove = { from: admission.status, to };
          }
        }
        // "Hospitalize": the stay opens at once and waits for a bed on the bed board (issue 17).
        let stay: string | null = null;
        if (outcome === 'hospitalize') {
          const row = await consultationReasonAndNotes(tx, id);
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
          await completeExecution(tx, facts.executionId, now);
        }
        let allergies: string[] | null = null;
        if (facts.allergiesConfirmed && facts.allergies !== null) {
          allergies = facts.allergies;
          await confirmPatientAllergies(tx, hospital.id, facts.patientId, allergies, now);
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
        await markConsultationCancelled(tx, id, { reason, version: facts.version + 1, now });
        if (facts.admissionId) {
          await returnVisitToAssigned(tx, facts.admissionId, now);
        }
        if (facts.executionId) {
          await returnExecutionToAssigned(tx, facts.executionId, now);
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
        const addendumId = await insertAddendum(tx, {
          hospitalId: scopedHospital(ctx).id,
          consultationId: id,
          authorId: actingUser(ctx).id,
          text,
        });
        await this.app.audit.record(
          ctx,
          {
            action: 'consultation.addendum',
            resourceType: 'consultation',
            resourceId: id,
            patientId: facts.patientId,
            details: { addendum: addendumId },
          },
          tx,
        );
        const addenda = await listAddenda(tx, scopedHospital(ctx).id, id);
        return addenda.find((a) => a.id === addendumId)!;
      }),
    );
  }
}
