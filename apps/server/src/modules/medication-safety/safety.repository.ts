/**
 * The SQL of medication safety (issue 34): what the rules need of the patient (allergies from the record and
 * from unfinished consultations, the latest weight with its date and source, pregnancy, death), the lines of the
 * patient's active prescriptions, the overrides, a hospital's own dose limits, and where a prescription's
 * patient is (still in the stay, or gone).
 */
import { OPEN_HOSPITALIZATION_STATUSES } from '@greensen/shared/contracts/hospitalizations';
import type { TFrequency } from '@greensen/shared/contracts/pharmacy';
import { sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { medicationSafetyOverrides } from '../../db/schema/index.js';
import { sqlList } from '../../lib/queries.js';
import { RX_PATIENT_LEFT } from '../pharmacy/pharmacy.repository.js';
import type { DoseLimit } from './safety.data.js';

const jsonOf = <T>(v: T | string): T => (typeof v === 'string' ? (JSON.parse(v) as T) : v);
const OPEN_STAYS = sqlList([...OPEN_HOSPITALIZATION_STATUSES]);

export interface PatientSafetyRow {
  id: string;
  first_name: string;
  last_name: string;
  record_number: string;
  sex: string;
  birth_date: string | null;
  deceased_at: string | Date | null;
  allergies: string[];
  allergies_recorded: boolean;
  /** Unfinished consultations' allergies: `{allergies, confirmed}` each. */
  consultation_allergies: { allergies: string[] | null; confirmed: boolean }[];
  weight: number | null;
  weight_at: string | null;
  weight_source: 'triage' | 'consultation' | 'care_vitals' | null;
  pregnant: boolean;
}

/** The columns `patientSafetyFacts` selects, as the drivers return them (JSON and numeric maybe as text). */
type PatientSafetyDbRow = Omit<
  PatientSafetyRow,
  'allergies' | 'consultation_allergies' | 'weight' | 'weight_at'
> & {
  allergies: string[] | string;
  consultation_allergies: PatientSafetyRow['consultation_allergies'] | string;
  weight: number | string | null;
  weight_at: string | Date | null;
};

/** The patient's safety facts in one statement (null: no such patient in the hospital). */
export async function patientSafetyFacts(
  q: Queryable,
  hospitalId: string,
  patientId: string,
): Promise<PatientSafetyRow | null> {
  const res = await q.execute<PatientSafetyDbRow>(sql`select p.id, p.first_name, p.last_name,
      p.record_number, p.sex::text as sex, p.birth_date::text as birth_date, p.deceased_at,
      array_to_json(p.allergies) as allergies, p.allergies_recorded,
      (select coalesce(json_agg(json_build_object('allergies', c.allergies, 'confirmed', c.allergies_confirmed)), '[]'::json)
         from consultations c where c.patient_id = p.id and c.status = 'in_progress'
           and (c.allergies is not null or c.allergies_confirmed)) as consultation_allergies,
      w.weight, w.at as weight_at, w.source as weight_source,
      (exists (select 1 from admissions a where a.patient_id = p.id and a.admission_type = 'maternity'
          and a.status in ('waiting', 'assigned', 'in_consultation', 'hospitalized'))
        or exists (select 1 from hospitalizations h join departments d on d.id = h.department_id
          where h.patient_id = p.id and d.kind = 'maternity' and h.status in (${OPEN_STAYS}))) as pregnant
    from patients p
    left join lateral (select x.weight, x.at, x.source from (
        select t.weight::float8 as weight, t.recorded_at as at, 'triage' as source from triage_records t
          where t.patient_id = p.id and t.weight is not null and t.recorded_at > now() - interval '30 days'
        union all
        select (c.vitals->>'weight')::float8, c.updated_at, 'consultation' from consultations c
          where c.patient_id = p.id and c.vitals ? 'weight' and jsonb_typeof(c.vitals->'weight') = 'number'
            and c.updated_at > now() - interval '30 days'
        union all
        select v.weight::float8, v.recorded_at, 'care_vitals' from care_vitals v
          where v.patient_id = p.id and v.weight is not null and v.recorded_at > now() - interval '30 days'
      ) x order by x.at desc limit 1) w on true
    where p.id = ${patientId} and p.hospital_id = ${hospitalId}`);
  const r = res.rows[0];
  if (!r) return null;
  return {
    ...r,
    allergies: jsonOf<string[]>(r.allergies),
    consultation_allergies: jsonOf(r.consultation_allergies),
    weight: r.weight === null ? null : Number(r.weight),
    weight_at: r.weight_at === null ? null : new Date(r.weight_at).toISOString(),
    pregnant: Boolean(r.pregnant),
  };
}

/** A presentation with its medicine: the columns of `MED_COLUMNS`, as the rules read them. */
type MedColumns = {
  presentation_id: string;
  medication_id: string;
  code: string;
  inn_fr: string;
  inn_en: string;
  atc_code: string | null;
  allergy_classes: string[];
  strength: string;
  unit: string;
  paediatric: boolean;
  is_active: boolean;
};

/** A prescription line (or a presentation of a draft) with the facts the rules need. */
export interface SafetyLineRow extends MedColumns {
  line_id: string | null;
  prescription_id: string | null;
  number: string | null;
  position: number | null;
  dose: number;
  dose_unit: string;
  route: string;
  frequency: TFrequency;
  allergy_override_reason: string | null;
}

const MED_COLUMNS = sql`pr.id as presentation_id, m.id as medication_id, m.code, m.inn_fr, m.inn_en, m.atc_code,
  array_to_json(m.allergy_classes) as allergy_classes, pr.strength, pr.unit, pr.paediatric, pr.is_active`;

/** The columns of `MED_COLUMNS`, as the drivers return them (the classes as JSON text on one of them). */
type MedDbRow = Omit<MedColumns, 'allergy_classes'> & { allergy_classes: string[] | string };

/** The columns of `LINE_SELECT`: a prescription line with its medicine. */
type LineDbRow = MedDbRow & {
  line_id: string;
  prescription_id: string;
  number: string | null;
  position: number;
  dose: number | string;
  dose_unit: string;
  route: string;
  frequency: TFrequency | string;
  allergy_override_reason: string | null;
};

/** A line, or a presentation alone (no line columns: a draft's). */
function toLineRow(r: MedDbRow | LineDbRow): SafetyLineRow {
  const line: Partial<LineDbRow> = r;
  return {
    // A presentation alone has no line columns: its dose_unit and route stay undefined.
    ...(r as SafetyLineRow),
    line_id: line.line_id ?? null,
    prescription_id: line.prescription_id ?? null,
    number: line.number ?? null,
    allergy_override_reason: line.allergy_override_reason ?? null,
    allergy_classes: jsonOf<string[]>(r.allergy_classes),
    dose: Number(line.dose ?? 0),
    position: line.position === undefined || line.position === null ? null : Number(line.position),
    frequency: jsonOf<TFrequency>(line.frequency as TFrequency),
  };
}

/** Presentations (with their medicine) by id. */
export async function presentationsById(q: Queryable, ids: readonly string[]) {
  if (!ids.length) return new Map<string, SafetyLineRow>();
  const res = await q.execute<MedDbRow>(sql`select ${MED_COLUMNS}
    from medication_presentations pr join medications m on m.id = pr.medication_id
    where pr.id in (${sqlList([...new Set(ids)])})`);
  return new Map(res.rows.map((r) => [String(r.presentation_id), toLineRow(r)]));
}

const LINE_SELECT = sql`select l.id as line_id, rx.id as prescription_id, rx.number, l.position, ${MED_COLUMNS},
    l.dose, l.dose_unit, l.route::text as route, l.frequency, l.allergy_override_reason
  from prescription_lines l join prescriptions rx on rx.id = l.prescription_id
  join medication_presentations pr on pr.id = l.presentation_id join medications m on m.id = l.medication_id`;

/** The lines of a prescription, in order. */
export async function prescriptionSafetyLines(q: Queryable, prescriptionId: string) {
  const res = await q.execute<LineDbRow>(
    sql`${LINE_SELECT} where l.prescription_id = ${prescriptionId} order by l.position`,
  );
  return res.rows.map(toLineRow);
}

/**
 * The lines of the patient's current treatment, but those of `exclude`: signed prescriptions (dispensed or not)
 * whose duration has not run out (one day for a line without a duration).
 */
export async function activeSafetyLines(q: Queryable, patientId: string, exclude: string | null) {
  const res = await q.execute<LineDbRow>(sql`${LINE_SELECT}
    where rx.patient_id = ${patientId} and rx.status in ('signed', 'partially_dispensed', 'dispensed')
      and coalesce(l.first_dose_at, rx.signed_at) + make_interval(days => coalesce(l.duration_days, 1)::int) > now()
      ${exclude ? sql`and rx.id <> ${exclude}` : sql``}
    order by rx.signed_at, l.position`);
  return res.rows.map(toLineRow);
}

export type OverrideRow = {
  id: string;
  prescription_id: string;
  prescription_line_id: string | null;
  code: string;
  stage: 'prescribe' | 'dispense' | 'administer';
  reason: string;
  created_at: string | Date;
  u_id: string;
  u_first: string;
  u_last: string;
};

export async function overridesOf(q: Queryable, prescriptionIds: readonly string[]): Promise<OverrideRow[]> {
  if (!prescriptionIds.length) return [];
  const res = await q.execute<OverrideRow>(sql`select o.id, o.prescription_id, o.prescription_line_id, o.code,
      o.stage, o.reason, o.created_at, u.id as u_id, u.first_name as u_first, u.last_name as u_last
    from medication_safety_overrides o join users u on u.id = o.created_by
    where o.prescription_id in (${sqlList(prescriptionIds)}) order by o.created_at, o.id`);
  return res.rows;
}

/** Records overrides; one already recorded (same prescription, line, code, step) is kept: returns the new ones. */
export async function insertOverrides(
  q: Queryable,
  rows: {
    hospitalId: string;
    prescriptionId: string;
    prescriptionLineId: string | null;
    code: string;
    stage: string;
    reason: string;
    createdBy: string;
  }[],
) {
  if (!rows.length) return [];
  return q.insert(medicationSafetyOverrides).values(rows).onConflictDoNothing().returning({
    id: medicationSafetyOverrides.id,
    code: medicationSafetyOverrides.code,
    line: medicationSafetyOverrides.prescriptionLineId,
  });
}

/** The columns of `hospital_dose_limits` that `hospitalDoseLimitRows` selects (numeric maybe as text). */
type DoseLimitDbRow = {
  medication_code: string;
  route: string;
  substance: string;
  component: number;
  unit: string;
  adult_dose: number | string | null;
  adult_day: number | string | null;
  kg_dose: number | string | null;
  kg_day: number | string | null;
  weight_dosed: boolean;
  pregnancy: string | null;
  no_limit: string | null;
  source: string;
};

/** A hospital's own dose limits of some medicines. */
export async function hospitalDoseLimitRows(
  q: Queryable,
  hospitalId: string,
  codes: readonly string[],
): Promise<DoseLimit[]> {
  if (!codes.length) return [];
  const res = await q.execute<DoseLimitDbRow>(sql`select medication_code, route, substance, component,
      unit, adult_dose, adult_day, kg_dose, kg_day, weight_dosed, pregnancy, no_limit, source
    from hospital_dose_limits where hospital_id = ${hospitalId}
      and medication_code in (${sqlList([...new Set(codes)])})`);
  const n = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  return res.rows.map((r) => ({
    medication: String(r.medication_code),
    route: String(r.route ?? ''),
    substance: String(r.substance),
    component: Number(r.component ?? 0),
    unit: String(r.unit),
    adultDose: n(r.adult_dose),
    adultDay: n(r.adult_day),
    kgDose: n(r.kg_dose),
    kgDay: n(r.kg_day),
    weightDosed: Boolean(r.weight_dosed),
    pregnancy: r.pregnancy === 'contraindicated' || r.pregnancy === 'avoid' ? r.pregnancy : null,
    noLimit: r.no_limit ?? null,
    source: String(r.source),
  }));
}

/**
 * Whether a prescription's patient has left: the stay it was written in (or the stay its consultation's visit
 * led to) is discharged; `deceased` when the patient died.
 */
export async function prescriptionPlace(q: Queryable, prescriptionId: string) {
  const res = await q.execute<{ left: boolean; deceased: boolean }>(sql`select ${RX_PATIENT_LEFT} as left,
      p.deceased_at is not null as deceased
    from prescriptions rx join patients p on p.id = rx.patient_id
    where rx.id = ${prescriptionId}`);
  const r = res.rows[0];
  return { left: Boolean(r?.left), deceased: Boolean(r?.deceased) };
}
