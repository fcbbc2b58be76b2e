/**
 * The medication-safety service (issue 34): one assessment, called by the live check of the forms, the
 * signature of a prescription, its dispensing and the recording of a dose. A blocking alert refuses the step
 * (409 `medication_safety` with the alerts) unless the request carries a written reason for it; the reasons are
 * stored once per prescription, line, alert and step, audited, and shown to the next steps.
 */
import type {
  SafetyStage,
  TSafetyAlert,
  TSafetyCheckResult,
  TSafetyOverride,
  TSafetyOverrideInput,
  TSafetyWeight,
} from '@greensen/shared/contracts/medication-safety';
import type { TFrequency } from '@greensen/shared/contracts/pharmacy';
import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../../db/client.js';
import { ageOf, fullName } from '../../lib/clinical.js';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { ApiError, badRequest, notFound } from '../../lib/errors.js';
import { type Lang, translate } from '../../lib/i18n.js';
import { fold } from '../pharmacy/pharmacy.rules.js';
import { type DoseLimit, shippedSafetyData } from './safety.data.js';
import './safety.messages.js';
import {
  activeSafetyLines,
  hospitalDoseLimitRows,
  insertOverrides,
  type OverrideRow,
  overridesOf,
  type PatientSafetyRow,
  patientSafetyFacts,
  presentationsById,
  type SafetyLineRow,
} from './safety.repository.js';
import { evaluate, type RawAlert, type SafetyLine, type SafetyPatient } from './safety.rules.js';

/** The alerts a dose on the MAR is checked for (the others were decided at prescribing and dispensing). */
const ADMINISTER_CODES = new Set([
  'allergy',
  'allergy_class',
  'allergy_cross_reactivity',
  'dose_single_max',
  'dose_daily_max',
  'dose_mg_per_kg',
  'weight_required',
  'pregnancy',
]);
const ALLERGY_CODES = new Set(['allergy', 'allergy_class', 'allergy_cross_reactivity']);

export interface AssessInput {
  patientId: string;
  stage: SafetyStage;
  /** The lines checked: a draft's (index, no id) or a stored prescription's (id and index). */
  lines: SafetyLineRow[];
  /** A weight typed in the request (or stored on the prescription). */
  weightKg?: number | null | undefined;
  weightSource?: 'request' | 'prescription';
  /** The stored prescription checked (its overrides are read; its lines are not counted twice). */
  prescriptionId?: string | null | undefined;
  overrides?: readonly TSafetyOverrideInput[] | undefined;
  /** Alerts of the step itself (patient left, dose timing). */
  extra?: RawAlert[];
}

export interface Assessment {
  alerts: TSafetyAlert[];
  weight: TSafetyWeight | null;
  allergies: TSafetyCheckResult['allergies'];
  pregnant: boolean;
  blocked: boolean;
  /** Blocking alerts covered by a reason of this request, to record. */
  toRecord: { line: string | null; code: string; reason: string }[];
  patient: PatientSafetyRow;
}

const toOverride = (o: OverrideRow): TSafetyOverride => ({
  id: o.id,
  code: o.code as TSafetyOverride['code'],
  stage: o.stage,
  prescription_line: o.prescription_line_id,
  reason: o.reason,
  by: { id: o.u_id, full_name: fullName(o.u_first, o.u_last) },
  at: new Date(o.created_at).toISOString(),
});

/** The rules' view of a line row. */
export function safetyLineOf(r: SafetyLineRow, own: boolean, index: number | null): SafetyLine {
  return {
    index,
    lineId: r.line_id,
    own,
    prescriptionNumber: r.number,
    med: {
      medicationId: r.medication_id,
      code: r.code,
      innFr: r.inn_fr,
      innEn: r.inn_en,
      atcCode: r.atc_code,
      allergyClasses: r.allergy_classes,
      strength: r.strength,
      unit: r.unit,
      paediatric: r.paediatric,
    },
    dose: r.dose,
    doseUnit: r.dose_unit,
    route: r.route,
    frequency: r.frequency,
  };
}

/** The allergies of every source, "not asked" kept apart from "none known". */
export function allergiesOf(p: PatientSafetyRow): TSafetyCheckResult['allergies'] {
  const items: TSafetyCheckResult['allergies']['items'] = [];
  const seen = new Set<string>();
  const add = (text: string, source: 'patient' | 'consultation') => {
    const key = fold(text);
    if (!key || seen.has(key)) return;
    seen.add(key);
    items.push({ text, source });
  };
  for (const a of p.allergies) add(a, 'patient');
  for (const c of p.consultation_allergies) for (const a of c.allergies ?? []) add(a, 'consultation');
  const asked =
    p.allergies_recorded || p.consultation_allergies.some((c) => c.confirmed || c.allergies !== null);
  return { state: items.length ? 'recorded' : asked ? 'none_known' : 'not_asked', items };
}

export class MedicationSafetyService {
  constructor(private readonly app: FastifyInstance) {}

  /** The limits of a hospital for some medicines: its own rows replace the shipped ones. */
  private async limits(q: Queryable, hospitalId: string, codes: string[]) {
    const shipped = shippedSafetyData();
    const own = await hospitalDoseLimitRows(q, hospitalId, codes);
    const mine = new Map<string, DoseLimit[]>();
    for (const l of own) mine.set(l.medication, [...(mine.get(l.medication) ?? []), l]);
    return { data: shipped, limitsOf: (code: string) => mine.get(code) ?? shipped.limits.get(code) ?? [] };
  }

  async assess(q: Queryable, ctx: ServiceContext, input: AssessInput): Promise<Assessment> {
    const hospital = scopedHospital(ctx);
    const lang = ctx.lang;
    const patient = await patientSafetyFacts(q, hospital.id, input.patientId);
    if (!patient) throw notFound();
    const others = await activeSafetyLines(q, patient.id, input.prescriptionId ?? null);
    const stored = input.prescriptionId ? await overridesOf(q, [input.prescriptionId]) : [];
    const all = [...input.lines, ...others];
    const { data, limitsOf } = await this.limits(
      q,
      hospital.id,
      all.map((l) => l.code),
    );
    const weight: TSafetyWeight | null =
      input.weightKg != null
        ? { kg: input.weightKg, recorded_at: null, source: input.weightSource ?? 'request' }
        : patient.weight !== null
          ? { kg: patient.weight, recorded_at: patient.weight_at, source: patient.weight_source ?? 'triage' }
          : null;
    const allergies = allergiesOf(patient);
    const facts: SafetyPatient = {
      ageYears: ageOf(patient.birth_date),
      weightKg: weight?.kg ?? null,
      allergies: allergies.items,
      allergyState: allergies.state,
      pregnant: patient.pregnant,
    };
    const lines = [
      ...input.lines.map((l, i) => safetyLineOf(l, true, l.position != null ? l.position - 1 : i)),
      ...others.map((l) => safetyLineOf(l, false, null)),
    ];
    let raw = [...evaluate(data, limitsOf, facts, lines), ...(input.extra ?? [])];
    if (input.stage === 'administer')
      raw = raw.filter((a) => ADMINISTER_CODES.has(a.code) || a.code.startsWith('timing_'));
    const requested = input.overrides ?? [];
    const toRecord: Assessment['toRecord'] = [];
    const alerts = raw.map((a): TSafetyAlert => {
      const lineId = a.line?.lineId ?? null;
      const mine = stored
        .filter((o) => o.code === a.code && o.prescription_line_id === lineId)
        .map(toOverride);
      const here = mine.find((o) => o.stage === input.stage);
      const asked = requested.find(
        (o) =>
          o.code === a.code &&
          (o.line === null
            ? a.line === null
            : typeof o.line === 'number'
              ? a.line?.index === o.line
              : lineId !== null && o.line === lineId),
      );
      const legacy =
        input.stage === 'prescribe' && ALLERGY_CODES.has(a.code)
          ? input.lines
              .find((l) => l.line_id === lineId && lineId !== null)
              ?.allergy_override_reason?.trim() ||
            (lineId === null && a.line?.index != null
              ? input.lines[a.line.index]?.allergy_override_reason?.trim()
              : undefined)
          : undefined;
      const reason = asked?.reason ?? legacy;
      const covered = Boolean(here) || Boolean(reason);
      if (a.severity === 'blocking' && !here && reason) toRecord.push({ line: lineId, code: a.code, reason });
      return {
        code: a.code,
        severity: a.severity,
        message: this.message(lang, a),
        line: a.line?.index ?? null,
        prescription_line: lineId,
        medication: a.line
          ? { id: a.line.med.medicationId, inn_fr: a.line.med.innFr, inn_en: a.line.med.innEn }
          : null,
        details: { ...a.details, advice: a.advice ? a.advice[lang] : null },
        requires_reason: a.severity === 'blocking' && !covered,
        override: here ?? mine.at(-1) ?? null,
        overrides: mine,
      };
    });
    return {
      alerts,
      weight,
      allergies,
      pregnant: patient.pregnant,
      blocked: alerts.some((a) => a.requires_reason),
      toRecord,
      patient,
    };
  }

  private message(lang: Lang, a: RawAlert) {
    // `x_en`: the English form of `x` (INN names), used for an English request.
    const params: Record<string, string | number> = {};
    for (const [k, v] of Object.entries(a.params))
      if (!k.endsWith('_en')) params[k] = lang === 'en' ? (a.params[`${k}_en`] ?? v) : v;
    const where = typeof a.params.where === 'string' ? translate(lang, a.params.where, params) : '';
    return translate(lang, a.key, { ...params, where });
  }

  /**
   * Refuses the step when a blocking alert has no reason (409 `medication_safety` with every alert), else records
   * the reasons given for it (once each: a replay or a concurrent twin records nothing more) and audits them.
   */
  async enforce(
    q: Queryable,
    ctx: ServiceContext,
    at: { prescriptionId: string; patientId: string; stage: SafetyStage },
    assessment: Assessment,
  ) {
    if (assessment.blocked)
      throw new ApiError(409, 'safety.blocked', {
        code: 'medication_safety',
        body: { alerts: assessment.alerts },
      });
    const hospital = scopedHospital(ctx);
    const me = actingUser(ctx).id;
    const inserted = await insertOverrides(
      q,
      assessment.toRecord.map((o) => ({
        hospitalId: hospital.id,
        prescriptionId: at.prescriptionId,
        prescriptionLineId: o.line,
        code: o.code,
        stage: at.stage,
        reason: o.reason,
        createdBy: me,
      })),
    );
    for (const o of inserted)
      await this.app.audit.record(
        ctx,
        {
          action: 'medication_safety.override',
          resourceType: 'prescription',
          resourceId: at.prescriptionId,
          patientId: at.patientId,
          details: { stage: at.stage, code: o.code, line: o.line, override: o.id },
        },
        q,
      );
  }

  /** `POST /api/medication-safety/check/`: the alerts of a draft line or prescription as the form is filled. */
  async check(
    ctx: ServiceContext,
    body: {
      patient: string;
      prescription?: string | null | undefined;
      weight_kg?: number | null | undefined;
      lines: {
        presentation: string;
        dose: number;
        dose_unit: string;
        route: string;
        frequency: TFrequency;
      }[];
      overrides?: TSafetyOverrideInput[] | undefined;
    },
  ): Promise<TSafetyCheckResult> {
    const q = this.app.db;
    const facts = await presentationsById(
      q,
      body.lines.map((l) => l.presentation),
    );
    const lines = body.lines.map((l, i): SafetyLineRow => {
      const f = facts.get(l.presentation);
      if (!f?.is_active) throw badRequest({ [`lines.${i}.presentation`]: ['pharmacy.presentation_unknown'] });
      return { ...f, dose: l.dose, dose_unit: l.dose_unit, route: l.route, frequency: l.frequency };
    });
    const a = await this.assess(q, ctx, {
      patientId: body.patient,
      stage: 'prescribe',
      lines,
      weightKg: body.weight_kg,
      prescriptionId: body.prescription ?? null,
      overrides: body.overrides,
    });
    await this.app.audit.record(ctx, {
      action: 'medication_safety.check',
      resourceType: 'patient',
      resourceId: body.patient,
      patientId: body.patient,
      details: { lines: lines.length, alerts: a.alerts.map((x) => x.code) },
    });
    return {
      alerts: a.alerts,
      weight: a.weight,
      allergies: a.allergies,
      pregnant: a.pregnant,
      blocked: a.blocked,
    };
  }
}
