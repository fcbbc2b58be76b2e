import { OPEN_HOSPITALIZATION_STATUSES } from '@greensen/shared/contracts/hospitalizations';
import type {
  SafetyStage,
  TPrescriptionSafety,
  TSafetyOverrideInput,
} from '@greensen/shared/contracts/medication-safety';
import type {
  TPrescription,
  TPrescriptionLineInput,
  TPrescriptionRefuse,
  TPrescriptionWarning,
} from '@greensen/shared/contracts/pharmacy';
import { ZFrequency } from '@greensen/shared/contracts/pharmacy';
import { ACTION_GROUPS } from '@greensen/shared/domain/permissions';
import { roleGroup } from '@greensen/shared/domain/roles';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Queryable, Tx } from '../../db/client.js';
import { prescriptionLines, prescriptions } from '../../db/schema/index.js';
import { departmentRef, fullName, iso, isoRequired, patientRef } from '../../lib/clinical.js';
import { actingUser, mayAct, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors.js';
import { type Lang, translate } from '../../lib/i18n.js';
import { hospitalToday, listReadEntry } from '../../lib/queries.js';
import { nextSequenceValue } from '../../lib/sequences.js';
import {
  prescriptionPlace,
  prescriptionSafetyLines,
  presentationsById,
  type SafetyLineRow,
} from '../medication-safety/safety.repository.js';
import type { RawAlert } from '../medication-safety/safety.rules.js';
import { type Assessment, MedicationSafetyService } from '../medication-safety/safety.service.js';
import { type Notify, withNotifications } from '../notifications/notifications.service.js';
import {
  findPrescription,
  type LineDbRow,
  linesOf,
  listPrescriptions,
  lockPrescription,
  type PrescriptionDbRow,
  type PrescriptionFilters,
  type PresentationFacts,
  patientName,
  pharmaciesOf,
  pharmacyStaff,
  presentationFacts,
  refuseLines,
  stockAvailability,
  toPresentation,
} from './pharmacy.repository.js';
import { computedQuantity } from './pharmacy.rules.js';

const OPEN_TO_CANCEL = ['draft', 'signed', 'partially_dispensed'];
const DISPENSABLE = ['signed', 'partially_dispensed'];

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

interface CheckedLine {
  input: TPrescriptionLineInput;
  facts: PresentationFacts;
  quantity: number;
  computed: number;
}

interface SafetyInput {
  patientId: string;
  weightKg: number | null | undefined;
  rows: SafetyLineRow[];
  /** The stored prescription checked (its overrides; not counted as an active one). */
  prescriptionId: string | null;
  stage?: SafetyStage;
  overrides?: readonly TSafetyOverrideInput[] | undefined;
  extra?: RawAlert[];
}

/** The kind of the older `warnings` list an alert is shown as (the full alerts are in `safety`). */
const WARNING_KIND: Record<string, TPrescriptionWarning['kind']> = {
  allergy: 'allergy',
  allergy_class: 'allergy',
  allergy_cross_reactivity: 'allergy',
  duplicate_substance: 'duplicate',
  duplicate_class: 'duplicate',
  weight_required: 'weight_required',
  dose_single_max: 'dose',
  dose_daily_max: 'dose',
  dose_mg_per_kg: 'dose',
  interaction: 'interaction',
  pregnancy: 'pregnancy',
};

/**
 * Prescriptions (issue 18): drafts written by practitioners from a consultation or a stay, checked against the
 * patient's allergies, active treatments and weight, signed (read-only from then on), dispensed by a pharmacy.
 */
export class PrescriptionService {
  readonly safetyService: MedicationSafetyService;
  constructor(private readonly app: FastifyInstance) {
    this.safetyService = new MedicationSafetyService(app);
  }

  // Safety ------------------------------------------------------------------------------------------------

  /**
   * The warnings of a set of lines for a patient and the weight they used: the medication-safety assessment
   * (issue 34: allergies of every source, doses, duplicates, interactions, pregnancy) shown as the older
   * warnings, and the stock of the hospital.
   */
  async safety(q: Queryable, ctx: ServiceContext, input: SafetyInput) {
    const hospital = scopedHospital(ctx);
    const lang = ctx.lang;
    const assessment = await this.safetyService.assess(q, ctx, {
      patientId: input.patientId,
      stage: input.stage ?? 'prescribe',
      lines: input.rows,
      weightKg: input.weightKg,
      weightSource: input.prescriptionId ? 'prescription' : 'request',
      prescriptionId: input.prescriptionId,
      overrides: input.overrides,
      extra: input.extra,
    });
    const today = await hospitalToday(q, hospital.id);
    const stock = await stockAvailability(
      q,
      hospital.id,
      input.rows.map((l) => l.presentation_id),
      today,
    );
    const warnings: TPrescriptionWarning[] = [];
    for (const a of assessment.alerts) {
      const kind = WARNING_KIND[a.code];
      if (kind) warnings.push({ line: a.line, kind, blocking: a.requires_reason, message: a.message });
    }
    input.rows.forEach((line, i) => {
      const name = lang === 'en' ? line.inn_en : line.inn_fr;
      const units = stock.get(line.presentation_id);
      if (!units || units.all === 0)
        warnings.push({
          line: i,
          kind: 'out_of_stock',
          blocking: false,
          message: translate(lang, 'pharmacy.warning.out_of_stock', { name }),
        });
      else if (units.usable === 0)
        warnings.push({
          line: i,
          kind: 'expired_only',
          blocking: false,
          message: translate(lang, 'pharmacy.warning.expired_only', { name }),
        });
    });
    return { warnings, weight: assessment.weight?.kg ?? null, assessment };
  }

  /** A draft's lines as the safety rules read them (presentation facts and the typed dose). */
  private async draftRows(q: Queryable, lines: readonly TPrescriptionLineInput[]): Promise<SafetyLineRow[]> {
    const facts = await presentationsById(
      q,
      lines.map((l) => l.presentation),
    );
    return lines.map((l, i) => {
      const f = facts.get(l.presentation);
      if (!f?.is_active) throw badRequest({ [`lines.${i}.presentation`]: ['pharmacy.presentation_unknown'] });
      return {
        ...f,
        dose: l.dose,
        dose_unit: l.dose_unit,
        route: l.route,
        frequency: l.frequency,
        allergy_override_reason: l.allergy_override_reason ?? null,
      };
    });
  }

  /**
   * The dispense view's safety: the alerts of the prescription as it stands now (an allergy recorded since the
   * signature included), the patient gone, the overrides of every step, the lines not to pre-tick.
   */
  async dispenseSafety(
    q: Queryable,
    ctx: ServiceContext,
    rx: { id: string; patientId: string; weightKg: number | null },
    only?: { lines: readonly string[]; overrides?: readonly TSafetyOverrideInput[] | undefined },
  ): Promise<{ safety: TPrescriptionSafety; assessment: Assessment }> {
    const place = await prescriptionPlace(q, rx.id);
    const extra: RawAlert[] = [];
    if (place.left || place.deceased)
      extra.push({
        code: 'patient_left',
        severity: place.deceased ? 'blocking' : 'warning',
        line: null,
        key: place.deceased ? 'safety.patient_deceased' : 'safety.patient_left',
        params: {},
        details: {},
      });
    const rows = await prescriptionSafetyLines(q, rx.id);
    const { assessment } = await this.safety(q, ctx, {
      patientId: rx.patientId,
      weightKg: rx.weightKg,
      rows,
      prescriptionId: rx.id,
      stage: 'dispense',
      overrides: only?.overrides,
      extra,
    });
    // Only the lines dispensed now (and the whole prescription's alerts) stop this dispensing.
    const relevant = (a: Assessment['alerts'][number]) =>
      !only || a.prescription_line === null || only.lines.includes(a.prescription_line);
    const blocked = assessment.alerts.some((a) => a.requires_reason && relevant(a));
    const blockedLines = [
      ...new Set(
        assessment.alerts
          .filter((a) => a.requires_reason && a.prescription_line)
          .map((a) => a.prescription_line!),
      ),
    ];
    return {
      assessment: {
        ...assessment,
        blocked,
        toRecord: assessment.toRecord.filter((o) => o.line === null || !only || only.lines.includes(o.line)),
      },
      safety: {
        alerts: assessment.alerts,
        overrides: [
          ...new Map(assessment.alerts.flatMap((a) => a.overrides ?? []).map((o) => [o.id, o])).values(),
        ],
        patient_left: place.left || place.deceased,
        weight: assessment.weight,
        allergies: assessment.allergies,
        pregnant: assessment.pregnant,
        blocked_lines: blockedLines,
      },
    };
  }

  private async checkLines(q: Queryable, lines: readonly TPrescriptionLineInput[]): Promise<CheckedLine[]> {
    const facts = await presentationFacts(
      q,
      lines.map((l) => l.presentation),
    );
    return lines.map((input, i) => {
      const f = facts.get(input.presentation);
      if (!f?.is_active) throw badRequest({ [`lines.${i}.presentation`]: ['pharmacy.presentation_unknown'] });
      const computed = computedQuantity({
        dose: input.dose,
        dose_unit: input.dose_unit,
        frequency: input.frequency,
        duration_days: input.duration_days,
        unit: f.unit,
      });
      return { input, facts: f, computed, quantity: input.quantity ?? computed };
    });
  }

  /** `POST /api/prescriptions/check/`: warnings and computed quantities as the prescriber types. */
  async check(
    ctx: ServiceContext,
    body: {
      patient: string;
      weight_kg?: number | null | undefined;
      lines: TPrescriptionLineInput[];
      prescription?: string | null | undefined;
    },
  ) {
    const checked = await this.checkLines(this.app.db, body.lines);
    const { warnings, weight } = await this.safety(this.app.db, ctx, {
      patientId: body.patient,
      weightKg: body.weight_kg,
      rows: await this.draftRows(this.app.db, body.lines),
      prescriptionId: body.prescription ?? null,
    });
    await this.app.audit.record(ctx, {
      action: 'prescription.check',
      resourceType: 'prescription',
      patientId: body.patient,
      details: { lines: body.lines.length, warnings: warnings.map((w) => w.kind) },
    });
    return { warnings, quantities: checked.map((c) => c.computed), weight_kg: weight };
  }

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
      ({ warnings } = await this.safety(q, ctx, {
        patientId: row.p_id,
        weightKg,
        rows: await prescriptionSafetyLines(q, id),
        prescriptionId: id,
      }));
    else if (DISPENSABLE.includes(row.status)) {
      // The pharmacist's view: the prescription as it stands now, with the overrides of every step.
      const checked = await this.dispenseSafety(q, ctx, { id, patientId: row.p_id, weightKg });
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
      const res = await tx.execute<{ department_id: string; patient_id: string; status: string }>(
        sql`select department_id, patient_id, status from consultations where id = ${body.consultation} and hospital_id = ${hospitalId}`,
      );
      const c = res.rows[0];
      if (!c || c.patient_id !== body.patient)
        throw badRequest({ consultation: ['pharmacy.consultation_unknown'] });
      if (c.status === 'cancelled') throw conflict('pharmacy.consultation_cancelled');
      department = c.department_id;
    }
    if (body.hospitalization) {
      const res = await tx.execute<{ department_id: string; patient_id: string; status: string }>(
        sql`select department_id, patient_id, status from hospitalizations where id = ${body.hospitalization} and hospital_id = ${hospitalId}`,
      );
      const h = res.rows[0];
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
    await tx.insert(prescriptionLines).values(
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
      const patient = await tx.execute<{ id: string }>(
        sql`select id from patients where id = ${body.patient} and hospital_id = ${hospital.id}`,
      );
      if (!patient.rows[0]) throw badRequest({ patient: ['pharmacy.patient_unknown'] });
      const department = await this.origin(tx, hospital.id, body);
      const checked = await this.checkLines(tx, body.lines);
      const year = (await hospitalToday(tx, hospital.id)).slice(0, 4);
      const n = await nextSequenceValue(tx, hospital.id, `prescription:${year}`);
      const [row] = await tx
        .insert(prescriptions)
        .values({
          hospitalId: hospital.id,
          number: `ORD-${hospital.code}-${year}-${String(n).padStart(6, '0')}`,
          patientId: body.patient,
          prescriberId: me,
          departmentId: department,
          consultationId: body.consultation ?? null,
          hospitalizationId: body.hospitalization ?? null,
          weightKg: body.weight_kg ?? null,
          notes: body.notes ?? null,
        })
        .returning({ id: prescriptions.id });
      await this.writeLines(tx, row!.id, checked);
      await this.app.audit.record(
        ctx,
        {
          action: 'prescription.create',
          resourceType: 'prescription',
          resourceId: row!.id,
          patientId: body.patient,
          details: { lines: checked.length, consultation: body.consultation ?? null },
        },
        tx,
      );
      return row!.id;
    });
    return this.detail(ctx, id);
  }

  /** Locks a prescription of the hospital; the prescriber or a head doctor only (else 403). */
  private async lockOwn(tx: Tx, ctx: ServiceContext, id: string, headDoctorToo: boolean) {
    const hospital = scopedHospital(ctx);
    const res = await tx.execute<{
      id: string;
      status: string;
      version: number;
      patient_id: string;
      prescriber_id: string;
      weight_kg: number | string | null;
    }>(sql`select id, status, version, patient_id, prescriber_id, weight_kg from prescriptions
      where id = ${id} and hospital_id = ${hospital.id} for update`);
    const rx = res.rows[0];
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
      const checked = await this.checkLines(tx, body.lines);
      await tx.delete(prescriptionLines).where(eq(prescriptionLines.prescriptionId, id));
      await this.writeLines(tx, id, checked);
      await tx
        .update(prescriptions)
        .set({
          ...(body.weight_kg !== undefined ? { weightKg: body.weight_kg } : {}),
          ...(body.notes !== undefined ? { notes: body.notes } : {}),
          version: Number(rx.version) + 1,
          updatedAt: new Date(),
        })
        .where(eq(prescriptions.id, id));
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
      const { warnings, assessment } = await this.safety(tx, ctx, {
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
      await this.safetyService.enforce(
        tx,
        ctx,
        { prescriptionId: id, patientId: rx.patient_id, stage: 'prescribe' },
        assessment,
      );
      await tx
        .update(prescriptions)
        .set({
          status: 'signed',
          signedAt: new Date(),
          version: Number(rx.version) + 1,
          updatedAt: new Date(),
        })
        .where(eq(prescriptions.id, id));
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
    const patient = (
      await tx.execute<{ first_name: string; last_name: string }>(
        sql`select first_name, last_name from patients where id = ${patientId}`,
      )
    ).rows[0];
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

  /**
   * The pharmacist refuses to dispense lines (or every line left, `lines: null`) with a written reason (issue
   * 34, the answer to an alert or an override they do not accept): the prescription is locked like a dispensing
   * (the two never both win on one line), the refusal is stored on the lines, audited, and the prescriber told.
   * Order of the answers as for dispensing: 404 → not a member of a pharmacy (403) → state (409) → content (400).
   */
  async refuse(ctx: ServiceContext, id: string, body: TPrescriptionRefuse) {
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    await withNotifications(this.app, async (tx, notify) => {
      const rx = await lockPrescription(tx, hospital.id, id);
      if (!rx) throw notFound();
      // A member of one of the hospital's pharmacies (not of any department).
      const pharmacies = await pharmaciesOf(tx, hospital.id);
      if (!pharmacies.some((p) => managesPharmacy(ctx, p.id))) throw forbidden('pharmacy.not_member');
      if (!DISPENSABLE.includes(rx.status)) throw conflict('pharmacy.not_dispensable');
      const lines = await linesOf(tx, [id]);
      const open = (l: LineDbRow) => !l.refused_at && Number(l.dispensed_quantity) < Number(l.quantity);
      let chosen: LineDbRow[];
      if (body.lines === null) chosen = lines.filter(open);
      else {
        const byId = new Map(lines.map((l) => [l.line_id, l]));
        chosen = body.lines.map((lineId, i) => {
          const l = byId.get(lineId);
          if (!l) throw badRequest({ [`lines.${i}`]: ['pharmacy.line_unknown'] });
          if (l.refused_at) throw conflict('pharmacy.line_refused');
          if (!open(l)) throw conflict('pharmacy.line_dispensed');
          return l;
        });
        chosen = [...new Map(chosen.map((l) => [l.line_id, l])).values()];
      }
      if (!chosen.length) throw conflict('pharmacy.nothing_to_refuse');
      const refused = await refuseLines(
        tx,
        id,
        chosen.map((l) => l.line_id),
        me,
        body.reason,
      );
      if (refused.length !== chosen.length) throw conflict('pharmacy.line_refused');
      await tx.execute(
        sql`update prescriptions set version = version + 1, updated_at = now() where id = ${id}`,
      );
      const positions = chosen.map((l) => Number(l.position));
      await this.app.audit.record(
        ctx,
        {
          action: 'prescription.refuse',
          resourceType: 'prescription',
          resourceId: id,
          patientId: rx.patient_id,
          details: { lines: positions, whole: body.lines === null },
        },
        tx,
      );
      if (rx.prescriber_id === me) return;
      const patient = await patientName(tx, rx.patient_id);
      const name = patient ? fullName(patient.first_name, patient.last_name) : '';
      const inns = chosen.map((l) => ({ fr: l.inn_fr, en: l.inn_en }));
      await notify({
        hospitalId: hospital.id,
        recipients: [rx.prescriber_id],
        type: 'other',
        title: { fr: 'Délivrance refusée par la pharmacie', en: 'Dispensing refused by the pharmacy' },
        message: {
          fr: `${name}, ${rx.number} : ${inns.map((m) => m.fr).join(', ')} non délivré. Motif : ${body.reason}`,
          en: `${name}, ${rx.number}: ${inns.map((m) => m.en).join(', ')} not dispensed. Reason: ${body.reason}`,
        },
        data: {
          action: 'prescription_refused',
          prescription_id: id,
          patient: rx.patient_id,
          lines: positions,
        },
        initiatedBy: me,
      });
    });
    return this.detail(ctx, id);
  }

  /** Cancels a prescription not dispensed yet (or the rest of a partly dispensed one), with a reason. */
  async cancel(ctx: ServiceContext, id: string, reason: string) {
    await this.app.db.transaction(async (tx) => {
      const rx = await this.lockOwn(tx, ctx, id, true);
      if (!OPEN_TO_CANCEL.includes(rx.status)) throw conflict('pharmacy.not_cancellable');
      const now = new Date();
      await tx
        .update(prescriptions)
        .set({
          status: 'cancelled',
          cancelledAt: now,
          cancelledBy: actingUser(ctx).id,
          cancelReason: reason,
          version: Number(rx.version) + 1,
          updatedAt: now,
        })
        .where(eq(prescriptions.id, id));
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
