import type {
  SafetyStage,
  TPrescriptionSafety,
  TSafetyOverrideInput,
} from '@greensen/shared/contracts/medication-safety';
import type { TPrescriptionLineInput, TPrescriptionWarning } from '@greensen/shared/contracts/pharmacy';
import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../../db/client.js';
import { type ServiceContext, scopedHospital } from '../../lib/context.js';
import { badRequest } from '../../lib/errors.js';
import { translate } from '../../lib/i18n.js';
import { hospitalToday } from '../../lib/queries.js';
import {
  prescriptionPlace,
  prescriptionSafetyLines,
  presentationsById,
  type SafetyLineRow,
} from '../medication-safety/safety.repository.js';
import type { RawAlert } from '../medication-safety/safety.rules.js';
import { type Assessment, MedicationSafetyService } from '../medication-safety/safety.service.js';
import { type PresentationFacts, presentationFacts } from './medications.repository.js';
import { computedQuantity } from './pharmacy.rules.js';
import { stockAvailability } from './stock.repository.js';

export interface CheckedLine {
  input: TPrescriptionLineInput;
  facts: PresentationFacts;
  quantity: number;
  computed: number;
}

export interface SafetyInput {
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
export const WARNING_KIND: Record<string, TPrescriptionWarning['kind']> = {
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
 * The checks of a prescription's lines (issue 18, issue 34): the medication-safety assessment shown as the
 * prescriber's warnings with the hospital's stock, the computed quantities as the prescriber types, and the
 * dispense view's safety (the prescription as it stands now, the overrides of every step).
 */
export class PrescriptionChecksService {
  readonly safetyService: MedicationSafetyService;
  constructor(private readonly app: FastifyInstance) {
    this.safetyService = new MedicationSafetyService(app);
  }

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

  async checkLines(q: Queryable, lines: readonly TPrescriptionLineInput[]): Promise<CheckedLine[]> {
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
}
