import type { DocumentKind, DocumentLanguage, TDocumentSource } from '@greensen/shared/contracts/documents';
import { ZFrequency } from '@greensen/shared/contracts/pharmacy';
import { isGroupRestricted } from '@greensen/shared/domain/access';
import { formatClinicalNumber } from '@greensen/shared/domain/clinical-number';
import { consultationAccess } from '@greensen/shared/domain/consultation-access';
import { doseUnitLabel } from '@greensen/shared/domain/dose-units';
import { type ExamField, examResultLines } from '@greensen/shared/domain/exams';
import { ACTION_GROUPS } from '@greensen/shared/domain/permissions';
import { type DashboardGroup, roleLabel, titlePrefix } from '@greensen/shared/domain/roles';
import type { Queryable } from '../../db/client.js';
import { ageOf, textArray } from '../../lib/clinical.js';
import { actingUser, type ServiceContext, scopedHospital } from '../../lib/context.js';
import { badRequest, forbidden } from '../../lib/errors.js';
import { stayClinicalRecord } from '../hospitalizations/stay-orders.repository.js';
import {
  type AuthorFacts,
  consultationOfSource,
  diagnosesOfConsultation,
  examOfSource,
  type HospitalFacts,
  patientOfSource,
  prescriptionLinesOfSource,
  prescriptionOfSource,
  stayOfSource,
} from './sources.repository.js';
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

async function patientVariables(q: Queryable, hospitalId: string, patientId: string, lang: DocumentLanguage) {
  const p = await patientOfSource(q, hospitalId, patientId);
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
  const r = await consultationOfSource(q, hospital.id, id);
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
  const diagnoses = await diagnosesOfConsultation(q, hospital.id, id);
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
      diagnoses: diagnoses.map((d) => ({
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
  const r = await stayOfSource(q, hospital.id, id);
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
  const r = await prescriptionOfSource(q, hospital.id, id);
  // A draft or a cancelled prescription is not printed.
  if (!r || r.status === 'draft' || r.status === 'cancelled') throw unknownSource();
  if (!mayRead(ctx, ACTION_GROUPS['prescription.read'])) throw forbidden();
  const lines = await prescriptionLinesOfSource(q, id);
  return {
    patientId: r.patient_id,
    vars: {
      prescription: {
        number: r.number,
        date: formatDate(r.signed_at ?? r.created_at, c),
        weight_kg:
          r.weight_kg === null ? '' : String(Number(r.weight_kg)).replace('.', c.lang === 'fr' ? ',' : '.'),
        notes: s(r.notes),
        lines: lines.map((l) => ({
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
  const r = await examOfSource(q, hospital.id, id);
  // Only validated results are printed.
  if (r?.status !== 'validated') throw unknownSource();
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
