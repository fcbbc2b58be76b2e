import { OPEN_HOSPITALIZATION_STATUSES } from '@greensen/shared/contracts/hospitalizations';
import type { TPrescriptionSafety, TSafetyOverrideInput } from '@greensen/shared/contracts/medication-safety';
import type {
  TPrescription,
  TPrescriptionLineInput,
  TPrescriptionWarning,
} from '@greensen/shared/contracts/pharmacy';
import { ZFrequency } from '@greensen/shared/contracts/pharmacy';
import { ACTION_GROUPS } from '@greensen/shared/domain/permissions';
import { roleGroup } from '@greensen/shared/domain/roles';
import type { FastifyInstance } from 'fastify';
import type { Queryable, Tx } from '../../db/client.js';
import { departmentRef, fullName, iso, isoRequired, patientRef } from '../../lib/clinical.js';
import { actingUser, mayAct, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors.js';
import { type Lang, translate } from '../../lib/i18n.js';
import { hospitalToday, listReadEntry } from '../../lib/queries.js';
import { nextSequenceValue } from '../../lib/sequences.js';
import { prescriptionSafetyLines } from '../medication-safety/safety.repository.js';
import type { Assessment } from '../medication-safety/safety.service.js';
import { type Notify, withNotifications } from '../notifications/notifications.service.js';
import { patientInHospital } from '../patients/patients.repository.js';
import { toPresentation } from './medications.repository.js';
import {
  consultationOrigin,
  deletePrescriptionLines,
  findPrescription,
  insertPrescription,
  insertPrescriptionLines,
  type LineDbRow,
  linesOf,
  listPrescriptions,
  lockPrescriptionForChange,
  markPrescriptionCancelled,
  markPrescriptionSigned,
  type PrescriptionDbRow,
  type PrescriptionFilters,
  patientName,
  saveDraftHead,
  stayOrigin,
} from './pharmacy.repository.js';
import {
  type CheckedLine,
  type PrescriptionChecksService,
  WARNING_KIND,
} from './prescription-checks.service.js';
import { pharmacyStaff } from './stock.repository.js';

const OPEN_TO_CANCEL = ['draft', 'signed', 'partially_dispensed'];
export const DISPENSABLE = ['signed', 'partially_dispensed'];

/** A draft save or a signature based on an older version: the route answers 409 with the current version. */
export interface StaleVersion {
  stale: true;
  version: number;
}
/** Signing refused: the blocking warnings without an override reason. */
export interface SignConflict {
  blocked: true;
  warnings: TPrescriptionWarning[];
  alerts: Assessment['alerts'];
}

/** Whether the user works in a pharmacy department with a role that may manage it (decision 0022). */
export function managesPharmacy(ctx: ServiceContext, pharmacyId?: string): boolean {
  const hospital = scopedHospital(ctx);
  return (ctx.user?.memberships ?? []).some(
    (m) =>
      m.hospitalId === hospital.id &&
      m.departmentId !== null &&
      (pharmacyId === undefined ? true : m.departmentId === pharmacyId) &&
      ACTION_GROUPS['pharmacy.manage'].includes(roleGroup(m.roleCode)),
  );
}

/**
 * Prescriptions (issue 18): drafts written by practitioners from a consultation or a stay, checked against the
 * patient's allergies, active treatments and weight (`prescription-checks.service.ts`), signed (read-only from then
 * on), dispensed or refused by a pharmacy (`dispensing.service.ts`).
 */
export class PrescriptionService {
  constructor(
    private readonly app: FastifyInstance,
    readonly checks: PrescriptionChecksService,
  ) {}

  // Reads -------------------------------------------------------------------------------------------------

  async detail(
    ctx: ServiceContext,
    id: string,
    q: Queryable = this.app.db,
  ): Promise<TPrescription & { safety: TPrescriptionSafety | null }> {
    const hospital = scopedHospital(ctx);
    const row = await findPrescription(q, hospital.id, id);
    if (!row) throw notFound();
    const lines = await linesOf(q, [id]);
    const weightKg = row.weight_kg === null ? null : Number(row.weight_kg);
    let warnings: TPrescriptionWarning[] = [];
    let safety: TPrescriptionSafety | null = null;
    if (row.status === 'draft')
      ({ warnings } = await this.checks.safety(q, ctx, {
        patientId: row.p_id,
        weightKg,
        rows: await prescriptionSafetyLines(q, id),
        prescriptionId: id,
      }));
    else if (DISPENSABLE.includes(row.status)) {
      // The pharmacist's view: the prescription as it stands now, with the overrides of every step.
      const checked = await this.checks.dispenseSafety(q, ctx, { id, patientId: row.p_id, weightKg });
      safety = checked.safety;
      warnings = checked.safety.alerts.flatMap((a) =>
        WARNING_KIND[a.code]
          ? [{ line: a.line, kind: WARNING_KIND[a.code]!, blocking: a.requires_reason, message: a.message }]
          : [],
      );
    }
    return {
      ...this.head(ctx, row),
      lines: lines.map(toLine),
      warnings,
      safety,
    };
  }

  private head(ctx: ServiceContext, r: PrescriptionDbRow) {
    const me = actingUser(ctx).id;
    const author = r.prescriber_id === me || (ctx.hospital?.groups ?? []).includes('head_doctor');
    const writer = mayAct(ctx, 'prescription.write');
    return {
      id: r.id,
      number: r.number,
      status: r.status,
      patient: patientRef(r),
      prescriber: { id: r.prescriber_id, full_name: `${r.u_first} ${r.u_last}`.trim() },
      department: departmentRef(r),
      consultation: r.consultation_id,
      hospitalization: r.hospitalization_id,
      weight_kg: r.weight_kg === null ? null : Number(r.weight_kg),
      notes: r.notes,
      version: Number(r.version),
      created_at: isoRequired(r.created_at),
      signed_at: iso(r.signed_at),
      cancelled_at: iso(r.cancelled_at),
      cancel_reason: r.cancel_reason,
      can: {
        edit: r.status === 'draft' && writer && author,
        sign: r.status === 'draft' && writer && r.prescriber_id === me,
        cancel: OPEN_TO_CANCEL.includes(r.status) && writer && author,
        dispense: DISPENSABLE.includes(r.status) && managesPharmacy(ctx),
      },
    };
  }

  async read(ctx: ServiceContext, id: string) {
    const detail = await this.detail(ctx, id);
    await this.app.audit.record(ctx, {
      action: 'prescription.read',
      resourceType: 'prescription',
      resourceId: id,
      patientId: detail.patient.id,
    });
    return detail;
  }

  async list(ctx: ServiceContext, filters: PrescriptionFilters, page: number, pageSize: number) {
    const hospital = scopedHospital(ctx);
    const { rows, count } = await listPrescriptions(
      this.app.db,
      hospital.id,
      actingUser(ctx).id,
      filters,
      pageSize,
      (page - 1) * pageSize,
    );
    await this.app.audit.record(
      ctx,
      listReadEntry('prescription.list', 'prescription', filters, page, rows.length),
    );
    return {
      count,
      rows: rows.map((r) => ({
        ...this.head(ctx, r),
        line_count: Number(r.line_count),
        allergy_override: Boolean(r.allergy_override),
        summary: r.summary ?? '',
        refused_lines: Number(r.refused_lines ?? 0),
        patient_left: Boolean(r.patient_left),
        patient_left_at: r.patient_left ? iso(r.patient_left_at) : null,
        urgent: Boolean(r.urgent),
      })),
    };
  }

  // Writes ------------------------------------------------------------------------------------------------

  /** The department and patient of the prescription's origin (a consultation or a stay of the patient). */
  private async origin(
    tx: Tx,
    hospitalId: string,
    body: { patient: string; consultation?: string | null; hospitalization?: string | null },
  ): Promise<string> {
    if (!body.consultation && !body.hospitalization)
      throw badRequest({ consultation: ['pharmacy.origin_required'] });
    let department: string | null = null;
    if (body.consultation) {
      const c = await consultationOrigin(tx, hospitalId, body.consultation);
      if (!c || c.patient_id !== body.patient)
        throw badRequest({ consultation: ['pharmacy.consultation_unknown'] });
      if (c.status === 'cancelled') throw conflict('pharmacy.consultation_cancelled');
      department = c.department_id;
    }
    if (body.hospitalization) {
      const h = await stayOrigin(tx, hospitalId, body.hospitalization);
      if (!h || h.patient_id !== body.patient)
        throw badRequest({ hospitalization: ['pharmacy.hospitalization_unknown'] });
      // A closed stay is a record: its treatment is prescribed at discharge or in a new visit.
      if (!(OPEN_HOSPITALIZATION_STATUSES as readonly string[]).includes(h.status))
        throw conflict('pharmacy.stay_closed');
      department ??= h.department_id;
    }
    return department!;
  }

  private async writeLines(tx: Tx, prescriptionId: string, checked: CheckedLine[]) {
    await insertPrescriptionLines(
      tx,
      checked.map((c, i) => ({
        prescriptionId,
        position: i + 1,
        medicationId: c.facts.medication_id,
        presentationId: c.facts.id,
        dose: c.input.dose,
        doseUnit: c.input.dose_unit,
        route: c.input.route,
        frequency: c.input.frequency,
        durationDays: c.input.duration_days ?? null,
        quantity: c.quantity,
        instructions: c.input.instructions ?? null,
        allergyOverrideReason: c.input.allergy_override_reason ?? null,
      })),
    );
  }

  async create(
    ctx: ServiceContext,
    body: {
      patient: string;
      consultation?: string | null | undefined;
      hospitalization?: string | null | undefined;
      weight_kg?: number | null | undefined;
      notes?: string | null | undefined;
      lines: TPrescriptionLineInput[];
    },
  ) {
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    const id = await this.app.db.transaction(async (tx) => {
      if (!(await patientInHospital(tx, hospital.id, body.patient)))
        throw badRequest({ patient: ['pharmacy.patient_unknown'] });
      const department = await this.origin(tx, hospital.id, body);
      const checked = await this.checks.checkLines(tx, body.lines);
      const year = (await hospitalToday(tx, hospital.id)).slice(0, 4);
      const n = await nextSequenceValue(tx, hospital.id, `prescription:${year}`);
      const rxId = await insertPrescription(tx, {
        hospitalId: hospital.id,
        number: `ORD-${hospital.code}-${year}-${String(n).padStart(6, '0')}`,
        patientId: body.patient,
        prescriberId: me,
        departmentId: department,
        consultationId: body.consultation ?? null,
        hospitalizationId: body.hospitalization ?? null,
        weightKg: body.weight_kg ?? null,
        notes: body.notes ?? null,
      });
      await this.writeLines(tx, rxId, checked);
      await this.app.audit.record(
        ctx,
        {
          action: 'prescription.create',
          resourceType: 'prescription',
          resourceId: rxId,
          patientId: body.patient,
          details: { lines: checked.length, consultation: body.consultation ?? null },
        },
        tx,
      );
      return rxId;
    });
    return this.detail(ctx, id);
  }

  /** Locks a prescription of the hospital; the prescriber or a head doctor only (else 403). */
  private async lockOwn(tx: Tx, ctx: ServiceContext, id: string, headDoctorToo: boolean) {
    const hospital = scopedHospital(ctx);
    const rx = await lockPrescriptionForChange(tx, hospital.id, id);
    if (!rx) throw notFound();
    const me = actingUser(ctx).id;
    const head = headDoctorToo && (ctx.hospital?.groups ?? []).includes('head_doctor');
    if (rx.prescriber_id !== me && !head) throw forbidden('pharmacy.not_prescriber');
    return rx;
  }

  async update(
    ctx: ServiceContext,
    id: string,
    body: {
      version: number;
      weight_kg?: number | null | undefined;
      notes?: string | null | undefined;
      lines: TPrescriptionLineInput[];
    },
  ): Promise<TPrescription | StaleVersion> {
    const result = await this.app.db.transaction(async (tx) => {
      const rx = await this.lockOwn(tx, ctx, id, true);
      if (rx.status !== 'draft') throw conflict('pharmacy.not_draft');
      if (Number(rx.version) !== body.version) return { stale: true, version: Number(rx.version) } as const;
      const checked = await this.checks.checkLines(tx, body.lines);
      await deletePrescriptionLines(tx, id);
      await this.writeLines(tx, id, checked);
      await saveDraftHead(tx, id, {
        weightKg: body.weight_kg,
        notes: body.notes,
        version: Number(rx.version) + 1,
      });
      await this.app.audit.record(
        ctx,
        {
          action: 'prescription.update',
          resourceType: 'prescription',
          resourceId: id,
          patientId: rx.patient_id,
          details: { lines: checked.length, version: Number(rx.version) + 1 },
        },
        tx,
      );
      return null;
    });
    return result ?? this.detail(ctx, id);
  }

  /**
   * Signs a draft (its prescriber only): refused while a blocking alert has no override reason (given on the
   * line for an allergy, or in `overrides`); the reasons are recorded once and audited (issue 34).
   */
  async sign(
    ctx: ServiceContext,
    id: string,
    version: number,
    overrides?: readonly TSafetyOverrideInput[],
  ): Promise<TPrescription | StaleVersion | SignConflict> {
    const result = await withNotifications(this.app, async (tx, notify) => {
      const rx = await this.lockOwn(tx, ctx, id, false);
      if (rx.status !== 'draft') throw conflict('pharmacy.not_draft');
      if (Number(rx.version) !== version) return { stale: true, version: Number(rx.version) } as const;
      const lines = await linesOf(tx, [id]);
      const { warnings, assessment } = await this.checks.safety(tx, ctx, {
        patientId: rx.patient_id,
        weightKg: rx.weight_kg === null ? null : Number(rx.weight_kg),
        rows: await prescriptionSafetyLines(tx, id),
        prescriptionId: id,
        overrides,
      });
      if (assessment.blocked)
        return {
          blocked: true,
          warnings: warnings.filter((w) => w.blocking),
          alerts: assessment.alerts,
        } as const;
      await this.checks.safetyService.enforce(
        tx,
        ctx,
        { prescriptionId: id, patientId: rx.patient_id, stage: 'prescribe' },
        assessment,
      );
      await markPrescriptionSigned(tx, id, Number(rx.version) + 1);
      await this.app.audit.record(
        ctx,
        {
          action: 'prescription.sign',
          resourceType: 'prescription',
          resourceId: id,
          patientId: rx.patient_id,
          details: {
            overrides: lines.filter((l) => l.allergy_override_reason).map((l) => l.position),
            warnings: warnings.map((w) => w.kind),
          },
        },
        tx,
      );
      await this.tellPharmacies(tx, ctx, notify, id, rx.patient_id, lines.length);
      return null;
    });
    return result ?? this.detail(ctx, id);
  }

  /**
   * A signed prescription waits for the pharmacy: its staff (members of the hospital's pharmacy departments in a
   * group that manages stock, decision 0022) hear of it at once, leading to the prescription to dispense.
   */
  private async tellPharmacies(
    tx: Tx,
    ctx: ServiceContext,
    notify: Notify,
    id: string,
    patientId: string,
    lines: number,
  ) {
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    const staff = (await pharmacyStaff(tx, hospital.id))
      .filter((m) => ACTION_GROUPS['pharmacy.manage'].includes(roleGroup(m.role_code)))
      .map((m) => m.user_id)
      .filter((user) => user !== me);
    if (staff.length === 0) return;
    const patient = await patientName(tx, patientId);
    const name = patient ? fullName(patient.first_name, patient.last_name) : '';
    await notify({
      hospitalId: hospital.id,
      recipients: staff,
      type: 'other',
      title: { fr: 'Ordonnance à dispenser', en: 'Prescription to dispense' },
      message: {
        fr: `${name} : ordonnance signée, ${lines} ligne${lines > 1 ? 's' : ''}.`,
        en: `${name}: prescription signed, ${lines} line${lines > 1 ? 's' : ''}.`,
      },
      data: { action: 'prescription_signed', prescription_id: id, patient: patientId },
      initiatedBy: me,
    });
  }
  async cancel(ctx: ServiceContext, id: string, reason: string) {
    await this.app.db.transaction(async (tx) => {
      const rx = await this.lockOwn(tx, ctx, id, true);
      if (!OPEN_TO_CANCEL.includes(rx.status)) throw conflict('pharmacy.not_cancellable');
      await markPrescriptionCancelled(tx, id, {
        by: actingUser(ctx).id,
        reason,
        version: Number(rx.version) + 1,
      });
      await this.app.audit.record(
        ctx,
        {
          action: 'prescription.cancel',
          resourceType: 'prescription',
          resourceId: id,
          patientId: rx.patient_id,
          details: { from: rx.status },
        },
        tx,
      );
    });
    return this.detail(ctx, id);
  }
}

export function toLine(l: LineDbRow) {
  const frequency = typeof l.frequency === 'string' ? JSON.parse(l.frequency) : l.frequency;
  return {
    id: l.line_id,
    medication: { id: l.m_id, inn_fr: l.inn_fr, inn_en: l.inn_en, atc_code: l.atc_code },
    presentation: toPresentation(l),
    dose: Number(l.dose),
    dose_unit: l.dose_unit,
    route: l.line_route,
    frequency: ZFrequency.parse(frequency),
    duration_days: l.duration_days === null ? null : Number(l.duration_days),
    quantity: Number(l.quantity),
    dispensed_quantity: Number(l.dispensed_quantity),
    instructions: l.instructions,
    allergy_override_reason: l.allergy_override_reason,
    refusal:
      l.refused_at && l.rb_id
        ? {
            at: isoRequired(l.refused_at),
            by: { id: l.rb_id, full_name: fullName(l.rb_first ?? '', l.rb_last ?? '') },
            reason: l.refusal_reason ?? '',
          }
        : null,
  };
}

/** The 409 body of a refused signature (`ZPrescriptionSignConflict` and `ZSafetyConflict`). */
export function signConflictBody(lang: Lang, result: SignConflict) {
  return {
    detail: translate(lang, 'pharmacy.sign_blocked'),
    code: 'medication_safety' as const,
    warnings: result.warnings,
    alerts: result.alerts,
  };
}
