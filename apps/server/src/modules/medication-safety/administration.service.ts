/**
 * Medication safety at the bedside (issue 34): a dose recorded on the MAR is checked (allergies, dose,
 * pregnancy) with the dose actually given, and flagged when given outside the timing window; the MAR's read gives
 * the five rights (the patient, and each line's alerts with the prescriber's reasons).
 */
import type {
  TFiveRightsPatient,
  TSafetyAlert,
  TSafetyOverrideInput,
} from '@greensen/shared/contracts/medication-safety';
import type { Queryable } from '../../db/client.js';
import { fullName } from '../../lib/clinical.js';
import type { ServiceContext } from '../../lib/context.js';
import { prescriptionSafetyLines } from './safety.repository.js';
import { type RawAlert, timingOf } from './safety.rules.js';
import { type Assessment, type MedicationSafetyService, safetyLineOf } from './safety.service.js';

export interface DoseCheck {
  prescriptionId: string;
  lineId: string;
  patientId: string;
  dose: number;
  doseUnit: string;
  route: string;
  scheduledAt: Date;
  givenAt: Date;
  overrides?: readonly TSafetyOverrideInput[] | undefined;
}

export class AdministrationSafety {
  constructor(private readonly safety: MedicationSafetyService) {}

  /**
   * Checks a dose about to be recorded as given: refused (409 `medication_safety`) under a blocking alert without
   * the nurse's reason; the reasons are recorded once and audited. Returns the alerts and the timing.
   */
  async checkDose(q: Queryable, ctx: ServiceContext, d: DoseCheck) {
    const rows = await prescriptionSafetyLines(q, d.prescriptionId);
    const line = rows.find((r) => r.line_id === d.lineId);
    const timing = timingOf(d.scheduledAt, d.givenAt);
    const extra: RawAlert[] = [];
    if (line && timing.timing !== 'on_time')
      extra.push({
        code: timing.timing === 'early' ? 'timing_early' : 'timing_late',
        severity: 'warning',
        line: safetyLineOf(line, true, line.position !== null ? line.position - 1 : null),
        key: timing.timing === 'early' ? 'safety.timing_early' : 'safety.timing_late',
        params: { name: line.inn_fr, minutes: Math.abs(timing.minutesOff) },
        details: { scheduled_at: d.scheduledAt.toISOString(), minutes_off: timing.minutesOff },
      });
    // The line as given now (its own dose, unit and route), the prescription's other lines left out.
    const given = line ? [{ ...line, dose: d.dose, dose_unit: d.doseUnit, route: d.route }] : [];
    const assessment = await this.safety.assess(q, ctx, {
      patientId: d.patientId,
      stage: 'administer',
      lines: given,
      prescriptionId: d.prescriptionId,
      overrides: d.overrides,
      extra,
    });
    await this.safety.enforce(
      q,
      ctx,
      { prescriptionId: d.prescriptionId, patientId: d.patientId, stage: 'administer' },
      assessment,
    );
    return { alerts: assessment.alerts, timing };
  }

  /** The five rights of a plan's MAR: the patient, and the alerts of each line now (by line id). */
  async marView(
    q: Queryable,
    ctx: ServiceContext,
    patientId: string,
    prescriptionIds: readonly string[],
  ): Promise<{ patient: TFiveRightsPatient | null; alerts: Map<string, TSafetyAlert[]> }> {
    const alerts = new Map<string, TSafetyAlert[]>();
    let patient: TFiveRightsPatient | null = null;
    for (const id of [...new Set(prescriptionIds)]) {
      const lines = await prescriptionSafetyLines(q, id);
      const a = await this.safety.assess(q, ctx, {
        patientId,
        stage: 'administer',
        lines,
        prescriptionId: id,
      });
      for (const alert of a.alerts)
        if (alert.prescription_line)
          alerts.set(alert.prescription_line, [...(alerts.get(alert.prescription_line) ?? []), alert]);
      patient ??= fiveRights(a);
    }
    patient ??= fiveRights(await this.safety.assess(q, ctx, { patientId, stage: 'administer', lines: [] }));
    return { patient, alerts };
  }
}

/** The patient of the five rights from an assessment (no photo is stored in Greensen). */
function fiveRights(a: Assessment): TFiveRightsPatient {
  return {
    id: a.patient.id,
    full_name: fullName(a.patient.first_name, a.patient.last_name),
    record_number: a.patient.record_number,
    birth_date: a.patient.birth_date,
    sex: a.patient.sex,
    photo_url: null,
    allergies: a.allergies,
    weight: a.weight,
  };
}
