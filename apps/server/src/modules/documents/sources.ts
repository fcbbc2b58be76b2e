import type { DocumentKind, DocumentLanguage, TDocumentSource } from '@greensen/shared/contracts/documents';
import { ZFrequency } from '@greensen/shared/contracts/pharmacy';
import { isGroupRestricted } from '@greensen/shared/domain/access';
import { formatClinicalNumber } from '@greensen/shared/domain/clinical-number';
import { consultationAccess } from '@greensen/shared/domain/consultation-access';
import { doseUnitLabel } from '@greensen/shared/domain/dose-units';
import { type ExamField, examResultLines } from '@greensen/shared/domain/exams';
import { ACTION_GROUPS } from '@greensen/shared/domain/permissions';
import { type DashboardGroup, roleLabel, titlePrefix } from '@greensen/shared/domain/roles';
import { sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client.js';
import { ageOf, textArray } from '../../lib/clinical.js';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { badRequest, forbidden } from '../../lib/errors.js';
import { stayClinicalRecord } from '../hospitalizations/stay-orders.repository.js';
import { emptyGroups, type Vars } from './variables.js';

/**
 * The variables of a document from its source (a consultation, a prescription, an exam, a stay, or the patient),
 * read with the hospital's scope and the source's own reading rule: the consultation-access rule for a
 * consultation, the exam readers for an exam, the stay readers for a stay, the prescription readers for a
 * prescription (decision 0023). Dates are formatted in the hospital's time zone and the document's language.
 */

interface Clock {
  tz: string;
  lang: DocumentLanguage;
}
const locale = (lang: DocumentLanguage) => (lang === 'fr' ? 'fr-FR' : 'en-GB');
export function formatDate(v: Date | string | null | undefined, c: Clock): string {
  if (!v) return '';
  return new Intl.DateTimeFormat(locale(c.lang), {
    timeZone: c.tz,
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
  }).format(new Date(v));
}
export function formatDateTime(v: Date | string | null | undefined, c: Clock): string {
  if (!v) return '';
  const d = new Date(v);
  const time = new Intl.DateTimeFormat(locale(c.lang), {
    timeZone: c.tz,
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
  }).format(d);
  return `${formatDate(d, c)} ${time}`;
}
/** A `YYYY-MM-DD` day as `DD/MM/YYYY`. */
export const formatDay = (day: string | null | undefined) =>
  day ? day.slice(0, 10).split('-').reverse().join('/') : '';
export const formatLongDate = (v: Date, c: Clock) =>
  new Intl.DateTimeFormat(locale(c.lang), {
    timeZone: c.tz,
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  }).format(v);

const t = (lang: DocumentLanguage, fr: string, en: string) => (lang === 'fr' ? fr : en);
const s = (v: unknown) => (v === null || v === undefined ? '' : String(v));

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

/** What the PDF header and the variables' `hospital`, `author`, `date` hold. */
export function commonVariables(h: HospitalFacts, a: AuthorFacts, lang: DocumentLanguage, now: Date): Vars {
  const c = { tz: h.time_zone, lang };
  const title = titlePrefix(a.role_code ?? '');
  return {
    hospital: {
      name: h.name,
      code: h.code,
      address: s(h.address),
      phones: textArray(h.phones).join(' · '),
      header: s(h.print_header),
      footer: s(h.print_footer),
    },
    author: {
      full_name: a.full_name,
      title,
      display_name: title ? `${title} ${a.full_name}` : a.full_name,
      role: a.role_code ? roleLabel(a.role_code, lang) : '',
      department: s(a.department),
    },
    date: {
      today: formatDate(now, c),
      today_long: formatLongDate(now, c),
      time: formatDateTime(now, c).slice(-5),
    },
  };
}

type PatientRow = {
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

async function patientVariables(q: Queryable, hospitalId: string, patientId: string, lang: DocumentLanguage) {
  const res = await q.execute<PatientRow>(sql`select id, record_number, first_name, last_name, sex,
      birth_date::text as birth_date, address, phone, array_to_json(allergies) as allergies
    from patients where id = ${patientId} and hospital_id = ${hospitalId}`);
  const p = res.rows[0];
  if (!p) return null;
  return {
    full_name: `${p.first_name} ${p.last_name}`.trim(),
    first_name: p.first_name,
    last_name: p.last_name,
    record_number: p.record_number,
    sex: p.sex,
    sex_label: p.sex === 'F' ? t(lang, 'Féminin', 'Female') : t(lang, 'Masculin', 'Male'),
    birth_date: formatDay(p.birth_date),
    age: ageOf(p.birth_date) ?? '',
    address: s(p.address),
    phone: s(p.phone),
    allergies: textArray(p.allergies).join(', '),
  };
}

const unknownSource = () => badRequest({ source: ['documents.source_unknown'] });
const groupsOf = (ctx: ServiceContext) => scopedHospital(ctx).groups;
const mayRead = (ctx: ServiceContext, readers: readonly DashboardGroup[]) =>
  groupsOf(ctx).some((g) => readers.includes(g));

const OUTCOMES: Record<string, [string, string]> = {
  discharge: ['Retour à domicile', 'Home'],
  hospitalize: ['Hospitalisation', 'Admitted to hospital'],
  refer: ['Orientation', 'Referred'],
  follow_up: ['Suivi', 'Follow-up'],
  deceased: ['Décès', 'Death'],
};
const DISCHARGE_MODES: Record<string, [string, string]> = {
  home: ['Retour à domicile', 'Home'],
  against_advice: ['Sortie contre avis médical', 'Against medical advice'],
  transferred: ['Transfert', 'Transferred'],
  deceased: ['Décès', 'Death'],
};
const FLAGS: Record<string, [string, string]> = {
  low: ['Bas', 'Low'],
  high: ['Élevé', 'High'],
  abnormal: ['Anormal', 'Abnormal'],
};
const label = (map: Record<string, [string, string]>, key: string | null, lang: DocumentLanguage) =>
  key && map[key] ? t(lang, ...map[key]) : '';

const VITALS: [string, string, string][] = [
  ['temperature', 'T', '°C'],
  ['heart_rate', 'FC', '/min'],
  ['respiratory_rate', 'FR', '/min'],
  ['spo2', 'SpO₂', '%'],
  ['weight', 'Poids', 'kg'],
];
function vitalsText(v: Record<string, unknown> | null, lang: DocumentLanguage): string {
  if (!v) return '';
  const parts = VITALS.filter(([k]) => typeof v[k] === 'number').map(
    ([k, name, unit]) =>
      `${k === 'weight' && lang === 'en' ? 'Weight' : k === 'heart_rate' && lang === 'en' ? 'HR' : k === 'respiratory_rate' && lang === 'en' ? 'RR' : name} ${v[k]} ${unit}`,
  );
  if (typeof v.systolic_bp === 'number' && typeof v.diastolic_bp === 'number')
    parts.push(`${t(lang, 'TA', 'BP')} ${v.systolic_bp}/${v.diastolic_bp} mmHg`);
  return parts.join(' · ');
}

interface Loaded {
  patientId: string;
  vars: Vars;
}

async function consultationGroup(q: Queryable, ctx: ServiceContext, id: string, c: Clock): Promise<Loaded> {
  const hospital = scopedHospital(ctx);
  const res = await q.execute<{
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
  }>(sql`select c.patient_id, c.department_id, c.doctor_id, c.status, a.admission_type, c.reason, c.history,
      c.current_treatment, c.examination, c.vitals, c.conclusion, c.plan, c.outcome,
      c.follow_up_date::text as follow_up_date, c.started_at, a.reason as visit_reason, a.admitted_at,
      d.name as department
    from consultations c join departments d on d.id = c.department_id
    left join admissions a on a.id = c.admission_id
    where c.id = ${id} and c.hospital_id = ${hospital.id}`);
  const r = res.rows[0];
  if (!r || r.status === 'cancelled') throw unknownSource();
  const access = consultationAccess(
    { id: actingUser(ctx).id, groups: hospital.groups, departmentIds: hospital.departmentIds },
    {
      doctorId: r.doctor_id,
      departmentId: r.department_id,
      status: r.status,
      admissionType: r.admission_type,
    },
  );
  if (access === 'none') throw forbidden();
  const diagnoses = await q.execute<{
    icd_code: string | null;
    label: string;
    rank: string;
    certainty: string;
  }>(
    sql`select icd_code, label, rank, certainty from consultation_diagnoses
      where consultation_id = ${id} and hospital_id = ${hospital.id} and removed_at is null
      order by rank, created_at`,
  );
  return {
    patientId: r.patient_id,
    vars: {
      visit: {
        date: formatDate(r.admitted_at ?? r.started_at, c),
        department: r.department,
        reason: s(r.visit_reason),
      },
      consultation: {
        date: formatDate(r.started_at, c),
        reason: s(r.reason),
        history: s(r.history),
        current_treatment: s(r.current_treatment),
        examination: s(r.examination),
        vitals: vitalsText(r.vitals, c.lang),
        conclusion: s(r.conclusion),
        plan: s(r.plan),
        outcome: label(OUTCOMES, r.outcome, c.lang),
        follow_up_date: formatDay(r.follow_up_date),
      },
      diagnoses: diagnoses.rows.map((d) => ({
        code: s(d.icd_code),
        label: d.label,
        primary: d.rank === 'primary',
        certainty:
          d.certainty === 'confirmed'
            ? t(c.lang, 'Confirmé', 'Confirmed')
            : t(c.lang, 'Suspecté', 'Suspected'),
      })),
    },
  };
}

async function stayGroup(q: Queryable, ctx: ServiceContext, id: string, c: Clock): Promise<Loaded> {
  const hospital = scopedHospital(ctx);
  const res = await q.execute<{
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
  }>(sql`select s.patient_id, s.reason, s.admitted_at, s.requested_at, s.ended_at, s.discharge_mode,
      s.discharge_summary, s.discharge_treatments, s.follow_up_date::text as follow_up_date, d.name as department,
      (select json_agg(json_build_object('code', i.code, 'label_fr', i.label_fr, 'label_en', i.label_en))
         from icd10_codes i where i.code = any(s.discharge_icd_codes)) as codes
    from hospitalizations s join departments d on d.id = s.department_id
    where s.id = ${id} and s.hospital_id = ${hospital.id}`);
  const r = res.rows[0];
  if (!r) throw unknownSource();
  if (!mayRead(ctx, ACTION_GROUPS['hospitalization.read'])) throw forbidden();
  const start = r.admitted_at ?? r.requested_at;
  const days = r.ended_at
    ? Math.max(1, Math.round((new Date(r.ended_at).getTime() - new Date(start).getTime()) / 86_400_000))
    : '';
  const codes = typeof r.codes === 'string' ? (JSON.parse(r.codes) as []) : (r.codes ?? []);
  const record = await stayClinicalRecord(q, id);
  const fr = c.lang === 'fr';
  return {
    patientId: r.patient_id,
    vars: {
      stay: {
        given: record.given.map((g) => ({
          medication: `${fr ? g.inn_fr : g.inn_en} ${g.strength}`,
          doses: Number(g.doses),
          from: formatDate(g.first_at, c),
          to: formatDate(g.last_at, c),
        })),
        results: record.results.map((x) => ({
          exam: fr ? x.name_fr : x.name_en,
          date: formatDate(x.validated_at, c),
          abnormal: Boolean(x.abnormal),
          report: s(x.report),
        })),
        follow_up: record.followUp
          ? `${formatDateTime(record.followUp.start_at, c)} — Dr ${record.followUp.first_name} ${record.followUp.last_name}${record.followUp.department ? ` (${record.followUp.department})` : ''}`
          : '',
        admitted_on: formatDate(start, c),
        discharged_on: formatDate(r.ended_at, c),
        length_days: days,
        department: r.department,
        reason: r.reason,
        discharge_mode: label(DISCHARGE_MODES, r.discharge_mode, c.lang),
        summary: s(r.discharge_summary),
        treatments: s(r.discharge_treatments),
        follow_up_date: formatDay(r.follow_up_date),
        diagnoses: codes.map((x: { code: string; label_fr: string; label_en: string }) => ({
          code: x.code,
          label: c.lang === 'fr' ? x.label_fr : x.label_en,
        })),
      },
    },
  };
}

const FORMS: Record<string, [string, string]> = {
  tablet: ['comprimé', 'tablet'],
  dispersible_tablet: ['comprimé dispersible', 'dispersible tablet'],
  capsule: ['gélule', 'capsule'],
  oral_solution: ['solution buvable', 'oral solution'],
  oral_suspension: ['suspension buvable', 'oral suspension'],
  syrup: ['sirop', 'syrup'],
  powder_oral: ['poudre orale', 'oral powder'],
  injection: ['injectable', 'injection'],
  infusion: ['perfusion', 'infusion'],
  suppository: ['suppositoire', 'suppository'],
  cream: ['crème', 'cream'],
  ointment: ['pommade', 'ointment'],
  eye_drops: ['collyre', 'eye drops'],
  ear_drops: ['gouttes auriculaires', 'ear drops'],
  inhaler: ['inhalateur', 'inhaler'],
  nebuliser_solution: ['solution pour nébulisation', 'nebuliser solution'],
  pessary: ['ovule', 'pessary'],
  implant: ['implant', 'implant'],
  other: ['autre', 'other'],
};
const ROUTES: Record<string, [string, string]> = {
  oral: ['orale', 'oral'],
  iv: ['intraveineuse', 'intravenous'],
  im: ['intramusculaire', 'intramuscular'],
  sc: ['sous-cutanée', 'subcutaneous'],
  rectal: ['rectale', 'rectal'],
  topical: ['cutanée', 'topical'],
  ophthalmic: ['ophtalmique', 'ophthalmic'],
  otic: ['auriculaire', 'otic'],
  inhaled: ['inhalée', 'inhaled'],
  vaginal: ['vaginale', 'vaginal'],
  sublingual: ['sublinguale', 'sublingual'],
  other: ['autre', 'other'],
};
const capitalized = (v: string) => v.charAt(0).toUpperCase() + v.slice(1);

function frequencyText(raw: unknown, lang: DocumentLanguage): string {
  const f = ZFrequency.safeParse(raw);
  if (!f.success) return '';
  const v = f.data;
  switch (v.kind) {
    case 'times_per_day':
      return t(lang, `${v.times} fois par jour`, `${v.times} times a day`);
    case 'every_hours':
      return t(lang, `toutes les ${v.hours} heures`, `every ${v.hours} hours`);
    case 'at_night':
      return t(lang, 'le soir au coucher', 'at night');
    case 'as_needed':
      return t(
        lang,
        `si besoin, ${v.max_per_day} fois par jour au plus`,
        `as needed, at most ${v.max_per_day} a day`,
      );
    case 'once':
      return t(lang, 'une seule prise', 'once');
  }
}

async function prescriptionGroup(q: Queryable, ctx: ServiceContext, id: string, c: Clock): Promise<Loaded> {
  const hospital = scopedHospital(ctx);
  const res = await q.execute<{
    patient_id: string;
    number: string;
    status: string;
    weight_kg: string | number | null;
    notes: string | null;
    signed_at: Date | string | null;
    created_at: Date | string;
  }>(sql`select patient_id, number, status, weight_kg, notes, signed_at, created_at
    from prescriptions where id = ${id} and hospital_id = ${hospital.id}`);
  const r = res.rows[0];
  // A draft or a cancelled prescription is not printed.
  if (!r || r.status === 'draft' || r.status === 'cancelled') throw unknownSource();
  if (!mayRead(ctx, ACTION_GROUPS['prescription.read'])) throw forbidden();
  const lines = await q.execute<{
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
  }>(sql`select m.inn_fr, m.inn_en, mp.strength, mp.form, l.dose, l.dose_unit, l.route, l.frequency,
      l.duration_days, l.quantity, l.instructions
    from prescription_lines l join medications m on m.id = l.medication_id
    join medication_presentations mp on mp.id = l.presentation_id
    where l.prescription_id = ${id} order by l.position`);
  return {
    patientId: r.patient_id,
    vars: {
      prescription: {
        number: r.number,
        date: formatDate(r.signed_at ?? r.created_at, c),
        weight_kg:
          r.weight_kg === null ? '' : String(Number(r.weight_kg)).replace('.', c.lang === 'fr' ? ',' : '.'),
        notes: s(r.notes),
        lines: lines.rows.map((l) => ({
          medication: capitalized(c.lang === 'fr' ? l.inn_fr : l.inn_en),
          strength: l.strength,
          form: label(FORMS, l.form, c.lang),
          dose: `${formatClinicalNumber(Number(l.dose), c.lang)} ${doseUnitLabel(l.dose_unit, Number(l.dose), c.lang)}`,
          route: label(ROUTES, l.route, c.lang),
          frequency: frequencyText(l.frequency, c.lang),
          duration: l.duration_days
            ? t(c.lang, `${l.duration_days} jour(s)`, `${l.duration_days} day(s)`)
            : '',
          quantity: l.quantity,
          instructions: s(l.instructions),
        })),
      },
    },
  };
}

async function examGroup(q: Queryable, ctx: ServiceContext, id: string, c: Clock): Promise<Loaded> {
  const hospital = scopedHospital(ctx);
  const res = await q.execute<{
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
  }>(sql`select o.patient_id, o.order_number, o.status, e.name_fr, e.name_en, e.category, e.specimen, e.fields,
      o.results, o.report, o.abnormal, o.clinical_info, o.requested_at, o.validated_at, p.sex,
      p.birth_date::text as birth_date, trim(r.first_name || ' ' || r.last_name) as requester,
      trim(v.first_name || ' ' || v.last_name) as validator
    from exam_orders o join exam_catalogue e on e.id = o.exam_id join patients p on p.id = o.patient_id
    join users r on r.id = o.requested_by left join users v on v.id = o.validated_by
    where o.id = ${id} and o.hospital_id = ${hospital.id}`);
  const r = res.rows[0];
  // Only validated results are printed.
  if (!r || r.status !== 'validated') throw unknownSource();
  // The exams module's readers: every group but those the module is closed to (secretaries, midwives).
  if (!groupsOf(ctx).some((g) => !isGroupRestricted(g, 'exams'))) throw forbidden();
  const fields = typeof r.fields === 'string' ? (JSON.parse(r.fields) as ExamField[]) : r.fields;
  const results = typeof r.results === 'string' ? JSON.parse(r.results) : r.results;
  const lines = examResultLines(fields, results, {
    sex: r.sex,
    age: ageOf(r.birth_date, new Date(r.requested_at)),
  });
  return {
    patientId: r.patient_id,
    vars: {
      exam: {
        number: r.order_number,
        name: c.lang === 'fr' ? r.name_fr : r.name_en,
        category: r.category,
        specimen: s(r.specimen),
        requested_at: formatDateTime(r.requested_at, c),
        validated_at: formatDateTime(r.validated_at, c),
        requested_by: r.requester,
        validated_by: s(r.validator),
        clinical_info: s(r.clinical_info),
        report: s(r.report),
        abnormal: r.abnormal,
        results: lines.map((l) => ({
          name: c.lang === 'fr' ? l.label_fr : l.label_en,
          value: s((c.lang === 'fr' ? l.value_label_fr : l.value_label_en) ?? l.value),
          unit: s(l.unit),
          reference: s(l.reference),
          flag: s(l.flag),
          flag_label: label(FLAGS, l.flag, c.lang),
          abnormal: l.flag !== null,
        })),
      },
    },
  };
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

/** Which group a source fills, for the kinds that take it. */
const LOADERS = {
  consultation: consultationGroup,
  hospitalization: stayGroup,
  prescription: prescriptionGroup,
  exam: examGroup,
} as const;

/**
 * The variables of a document of `kind` from `source` (its groups empty where the source has nothing for them)
 * and the patient's id. 400 for a source that is not the hospital's (or not printable: a draft prescription, an
 * exam not validated, a cancelled consultation); 403 when the caller may not read it.
 */
export async function sourceVariables(
  q: Queryable,
  ctx: ServiceContext,
  kind: DocumentKind,
  source: TDocumentSource,
  common: Vars,
  clock: Clock,
): Promise<{ patientId: string; vars: Vars }> {
  const hospital = scopedHospital(ctx);
  let patientId: string;
  let groupVars: Vars = {};
  if (source.type === 'patient') patientId = source.id;
  else {
    const loaded = await LOADERS[source.type](q, ctx, source.id, clock);
    patientId = loaded.patientId;
    groupVars = loaded.vars;
  }
  const patient = await patientVariables(q, hospital.id, patientId, clock.lang);
  if (!patient) throw unknownSource();
  return { patientId, vars: { ...emptyGroups(kind), ...groupVars, ...common, patient } };
}
