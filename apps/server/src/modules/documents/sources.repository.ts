/**
 * The statements of a document's sources (decision 0023): the hospital and author of the header, the patient, and
 * the consultation, stay, prescription or exam a document is made from, each in the hospital. What a document may
 * show of them, and who may read them, is `sources.ts`.
 */
import type { TDocumentSource } from '@greensen/shared/contracts/documents';
import type { ExamField } from '@greensen/shared/domain/exams';
import { sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';

export type HospitalFacts = {
  id: string;
  name: string;
  code: string;
  time_zone: string;
  address: string | null;
  phones: string[] | string;
  print_header: string | null;
  print_footer: string | null;
  logo_type: string | null;
  logo_data: string | null;
};

/** The hospital of a document's header: its name, address, phones, print header and footer, and logo. */
export async function hospitalFacts(q: Queryable, hospitalId: string): Promise<HospitalFacts> {
  const res = await q.execute<HospitalFacts>(sql`select h.id, h.name, h.code, h.time_zone, h.address,
      array_to_json(h.phones) as phones, h.print_header, h.print_footer,
      l.content_type as logo_type, l.data as logo_data
    from hospitals h left join hospital_logos l on l.hospital_id = h.id where h.id = ${hospitalId}`);
  return res.rows[0]!;
}

export type AuthorFacts = {
  id: string;
  full_name: string;
  role_code: string;
  department: string | null;
};

/** The author: name, their first role in the hospital and its department. */
export async function authorFacts(q: Queryable, hospitalId: string, userId: string): Promise<AuthorFacts> {
  const res =
    await q.execute<AuthorFacts>(sql`select u.id, trim(u.first_name || ' ' || u.last_name) as full_name,
      m.role_code, d.name as department
    from users u
    left join lateral (select role_code, department_id from memberships
      where user_id = u.id and hospital_id = ${hospitalId} and is_active order by created_at limit 1) m on true
    left join departments d on d.id = m.department_id
    where u.id = ${userId}`);
  return res.rows[0]!;
}

/** The patient a document is about. */
export type PatientRow = {
  id: string;
  record_number: string;
  first_name: string;
  last_name: string;
  sex: 'F' | 'M';
  birth_date: string | null;
  address: string | null;
  phone: string | null;
  allergies: string[] | string;
};

/** The patient of a document (the hospital's), or undefined. */
export async function patientOfSource(q: Queryable, hospitalId: string, patientId: string) {
  const res = await q.execute<PatientRow>(sql`select id, record_number, first_name, last_name, sex,
      birth_date::text as birth_date, address, phone, array_to_json(allergies) as allergies
    from patients where id = ${patientId} and hospital_id = ${hospitalId}`);
  return res.rows[0];
}

export type ConsultationSourceRow = {
  patient_id: string;
  department_id: string;
  doctor_id: string;
  status: 'in_progress' | 'completed' | 'cancelled';
  admission_type: string | null;
  reason: string | null;
  history: string | null;
  current_treatment: string | null;
  examination: string | null;
  vitals: Record<string, unknown> | null;
  conclusion: string | null;
  plan: string | null;
  outcome: string | null;
  follow_up_date: string | null;
  started_at: Date | string;
  visit_reason: string | null;
  admitted_at: Date | string | null;
  department: string;
};

/** A consultation of the hospital, with its visit and department, or undefined. */
export async function consultationOfSource(q: Queryable, hospitalId: string, id: string) {
  const res =
    await q.execute<ConsultationSourceRow>(sql`select c.patient_id, c.department_id, c.doctor_id, c.status, a.admission_type, c.reason, c.history,
      c.current_treatment, c.examination, c.vitals, c.conclusion, c.plan, c.outcome,
      c.follow_up_date::text as follow_up_date, c.started_at, a.reason as visit_reason, a.admitted_at,
      d.name as department
    from consultations c join departments d on d.id = c.department_id
    left join admissions a on a.id = c.admission_id
    where c.id = ${id} and c.hospital_id = ${hospitalId}`);
  return res.rows[0];
}

export type DiagnosisSourceRow = {
  icd_code: string | null;
  label: string;
  rank: string;
  certainty: string;
};

/** The consultation's diagnoses in force (not removed), in rank order. */
export async function diagnosesOfConsultation(q: Queryable, hospitalId: string, id: string) {
  const res =
    await q.execute<DiagnosisSourceRow>(sql`select icd_code, label, rank, certainty from consultation_diagnoses
      where consultation_id = ${id} and hospital_id = ${hospitalId} and removed_at is null
      order by rank, created_at`);
  return res.rows;
}

export type StaySourceRow = {
  patient_id: string;
  reason: string;
  admitted_at: Date | string | null;
  requested_at: Date | string;
  ended_at: Date | string | null;
  discharge_mode: string | null;
  discharge_summary: string | null;
  discharge_treatments: string | null;
  follow_up_date: string | null;
  department: string;
  codes: { code: string; label_fr: string; label_en: string }[] | string | null;
};

/** A stay of the hospital, with its department and discharge codes, or undefined. */
export async function stayOfSource(q: Queryable, hospitalId: string, id: string) {
  const res =
    await q.execute<StaySourceRow>(sql`select s.patient_id, s.reason, s.admitted_at, s.requested_at, s.ended_at, s.discharge_mode,
      s.discharge_summary, s.discharge_treatments, s.follow_up_date::text as follow_up_date, d.name as department,
      (select json_agg(json_build_object('code', i.code, 'label_fr', i.label_fr, 'label_en', i.label_en))
         from icd10_codes i where i.code = any(s.discharge_icd_codes)) as codes
    from hospitalizations s join departments d on d.id = s.department_id
    where s.id = ${id} and s.hospital_id = ${hospitalId}`);
  return res.rows[0];
}

export type PrescriptionSourceRow = {
  patient_id: string;
  number: string;
  status: string;
  weight_kg: string | number | null;
  notes: string | null;
  signed_at: Date | string | null;
  created_at: Date | string;
};

/** A prescription of the hospital, or undefined. */
export async function prescriptionOfSource(q: Queryable, hospitalId: string, id: string) {
  const res =
    await q.execute<PrescriptionSourceRow>(sql`select patient_id, number, status, weight_kg, notes, signed_at, created_at
    from prescriptions where id = ${id} and hospital_id = ${hospitalId}`);
  return res.rows[0];
}

export type PrescriptionLineSourceRow = {
  inn_fr: string;
  inn_en: string;
  strength: string;
  form: string;
  dose: string | number;
  dose_unit: string;
  route: string;
  frequency: unknown;
  duration_days: number | null;
  quantity: number;
  instructions: string | null;
};

/** A prescription's lines with their medicines, in order. */
export async function prescriptionLinesOfSource(q: Queryable, id: string) {
  const res =
    await q.execute<PrescriptionLineSourceRow>(sql`select m.inn_fr, m.inn_en, mp.strength, mp.form, l.dose, l.dose_unit, l.route, l.frequency,
      l.duration_days, l.quantity, l.instructions
    from prescription_lines l join medications m on m.id = l.medication_id
    join medication_presentations mp on mp.id = l.presentation_id
    where l.prescription_id = ${id} order by l.position`);
  return res.rows;
}

export type ExamSourceRow = {
  patient_id: string;
  order_number: string;
  status: string;
  name_fr: string;
  name_en: string;
  category: string;
  specimen: string | null;
  fields: ExamField[] | string;
  results:
    | Record<string, { value: number | string | null; flag: 'low' | 'high' | 'abnormal' | null }>
    | string
    | null;
  report: string | null;
  abnormal: boolean;
  clinical_info: string | null;
  requested_at: Date | string;
  validated_at: Date | string | null;
  sex: 'F' | 'M';
  birth_date: string | null;
  requester: string;
  validator: string | null;
};

/** An exam order of the hospital, with its exam, patient, requester and validator, or undefined. */
export async function examOfSource(q: Queryable, hospitalId: string, id: string) {
  const res =
    await q.execute<ExamSourceRow>(sql`select o.patient_id, o.order_number, o.status, e.name_fr, e.name_en, e.category, e.specimen, e.fields,
      o.results, o.report, o.abnormal, o.clinical_info, o.requested_at, o.validated_at, p.sex,
      p.birth_date::text as birth_date, trim(r.first_name || ' ' || r.last_name) as requester,
      trim(v.first_name || ' ' || v.last_name) as validator
    from exam_orders o join exam_catalogue e on e.id = o.exam_id join patients p on p.id = o.patient_id
    join users r on r.id = o.requested_by left join users v on v.id = o.validated_by
    where o.id = ${id} and o.hospital_id = ${hospitalId}`);
  return res.rows[0];
}

const SOURCE_TABLES = {
  consultation: 'consultations',
  prescription: 'prescriptions',
  exam: 'exam_orders',
  hospitalization: 'hospitalizations',
  patient: 'patients',
} as const;

/** Whether the source is one of the hospital's rows (whatever its state). */
export async function sourceInHospital(q: Queryable, hospitalId: string, source: TDocumentSource) {
  const table = sql.identifier(SOURCE_TABLES[source.type]);
  const res = await q.execute(
    sql`select 1 from ${table} where id = ${source.id} and hospital_id = ${hospitalId}`,
  );
  return res.rows.length > 0;
}
