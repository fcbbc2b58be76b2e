/**
 * The pure rules of medication safety (issue 34): the amount of a substance in a dose (from the presentation's
 * strength), the allergies (substance, class, cross-reactivity), dose limits (single, 24 h over every line of the
 * substance, mg/kg with the adult ceiling), duplicates (substance, ATC level 4), interactions, pregnancy and the
 * timing of a dose. Messages are keys with parameters; the service translates them.
 */
import type { SafetyAlertCode, SafetySeverity } from '@greensen/shared/contracts/medication-safety';
import { TIMING_WINDOW_MINUTES } from '@greensen/shared/contracts/medication-safety';
import type { TFrequency } from '@greensen/shared/contracts/pharmacy';
import {
  administrationsPerDay,
  allergyClassesOf,
  allergyMatch,
  fold,
  sameUnit,
  substancesOf,
} from '../pharmacy/pharmacy.rules.js';
import type { DoseLimit, Matcher, SafetyData } from './safety.data.js';

/** Under this age (whole years) the mg/kg rules apply (and the weight is required). */
export const PAEDIATRIC_AGE = 12;

// Amounts ------------------------------------------------------------------------------------------------

type Family = 'mass' | 'iu' | 'volume';
const UNITS: Readonly<Record<string, { family: Family; factor: number }>> = {
  g: { family: 'mass', factor: 1000 },
  mg: { family: 'mass', factor: 1 },
  µg: { family: 'mass', factor: 0.001 },
  ug: { family: 'mass', factor: 0.001 },
  mcg: { family: 'mass', factor: 0.001 },
  ui: { family: 'iu', factor: 1 },
  iu: { family: 'iu', factor: 1 },
  mui: { family: 'iu', factor: 1e6 },
  miu: { family: 'iu', factor: 1e6 },
  ml: { family: 'volume', factor: 1 },
  l: { family: 'volume', factor: 1000 },
};
const unitOf = (u: string) => UNITS[u.trim().toLowerCase().replace('μ', 'µ')] ?? null;

export interface Strength {
  components: { amount: number; unit: string }[];
  /** The volume the amounts are in (mL), for a solution; null for a unit (tablet, vial of powder). */
  perVolume: number | null;
  /** The volume of one ampoule, vial or bag (mL) when printed: `300 mg/mL (2 mL)`. */
  container: number | null;
}

/** `500 mg`, `20 mg/120 mg`, `250 mg/5 mL (100 mL)`, `300 mg/mL (2 mL)`, `1 % (20 mL)`, `100 000 UI/mL`… */
export function parseStrength(strength: string): Strength {
  const container = /\((\d+(?:[.,]\d+)?)\s*mL\b/i.exec(strength);
  const main = strength.replace(/\([^)]*\)/g, ' ').trim();
  const out: Strength = {
    components: [],
    perVolume: null,
    container: container ? Number(container[1]!.replace(',', '.')) : null,
  };
  for (const token of main.split(/\s*[/+]\s*/)) {
    if (/^m?l$/i.test(token.trim())) {
      out.perVolume = token.trim().toLowerCase() === 'l' ? 1000 : 1;
      continue;
    }
    const m = /^(\d[\d\s]*(?:[.,]\d+)?)\s*(%|[^\d\s]+)/.exec(token.trim());
    if (!m) continue;
    const amount = Number(m[1]!.replace(/\s/g, '').replace(',', '.'));
    if (m[2] === '%') {
      // w/v: 1 % is 10 mg per mL.
      out.components.push({ amount: amount * 10, unit: 'mg' });
      out.perVolume = 1;
      continue;
    }
    const unit = unitOf(m[2]!);
    if (!unit) continue;
    if (unit.family === 'volume') out.perVolume = amount * unit.factor;
    else out.components.push({ amount, unit: m[2]! });
  }
  return out;
}

const CONTAINERS = ['ampoule', 'vial', 'bag', 'syringe'];

/**
 * The amount of a limit's substance in one administration, in the limit's unit; null when it cannot be known
 * (a dose in a unit the strength does not give, a bottle of syrup counted in bottles…).
 */
export function amountPerAdministration(
  line: { dose: number; doseUnit: string },
  presentation: { strength: string; unit: string },
  limit: Pick<DoseLimit, 'component' | 'unit'>,
): number | null {
  const target = unitOf(limit.unit);
  if (!target) return null;
  const st = parseStrength(presentation.strength);
  const comp = st.components[limit.component];
  const first = st.components[0];
  const compUnit = comp ? unitOf(comp.unit) : null;
  const given = unitOf(line.doseUnit);
  const inTarget = (base: number) => base / target.factor;
  if (given && given.family === target.family) {
    const base = line.dose * given.factor;
    if (limit.component === 0 || !first) return inTarget(base);
    const firstUnit = unitOf(first.unit);
    if (!comp || !compUnit || !firstUnit || compUnit.family !== firstUnit.family) return null;
    return inTarget((base * comp.amount * compUnit.factor) / (first.amount * firstUnit.factor));
  }
  if (!comp || !compUnit || compUnit.family !== target.family) return null;
  const compBase = comp.amount * compUnit.factor;
  if (given?.family === 'volume') {
    if (!st.perVolume) return null;
    return inTarget((line.dose * given.factor * compBase) / st.perVolume);
  }
  if (!sameUnit(line.doseUnit, presentation.unit)) return null;
  if (st.perVolume === null) return inTarget(line.dose * compBase);
  if (st.container && CONTAINERS.includes(presentation.unit))
    return inTarget((line.dose * compBase * st.container) / st.perVolume);
  return null;
}

/** Administrations in 24 hours (a single dose: one). */
export const perDay = (f: TFrequency) => administrationsPerDay(f);

// Inputs and outputs -------------------------------------------------------------------------------------

export interface SafetyMed {
  medicationId: string;
  code: string;
  innFr: string;
  innEn: string;
  atcCode: string | null;
  allergyClasses: string[];
  strength: string;
  /** The presentation's counting unit (tablet, ampoule…). */
  unit: string;
  paediatric: boolean;
}

export interface SafetyLine {
  /** Index in the draft (null for a stored line checked by id, or another prescription's line). */
  index: number | null;
  lineId: string | null;
  /** A line of what is being checked (else: a line of another active prescription of the patient). */
  own: boolean;
  /** The other prescription's number (lines not own). */
  prescriptionNumber: string | null;
  med: SafetyMed;
  dose: number;
  doseUnit: string;
  route: string;
  frequency: TFrequency;
}

export interface SafetyPatient {
  ageYears: number | null;
  weightKg: number | null;
  allergies: { text: string; source: 'patient' | 'consultation' }[];
  allergyState: 'not_asked' | 'none_known' | 'recorded';
  pregnant: boolean;
}

export interface RawAlert {
  code: SafetyAlertCode;
  severity: SafetySeverity;
  line: SafetyLine | null;
  key: string;
  params: Record<string, string | number>;
  details: {
    value?: number | null;
    limit?: number | null;
    unit?: string | null;
    per?: 'dose' | 'day' | null;
    weight_kg?: number | null;
    allergy?: string | null;
    allergy_source?: 'patient' | 'consultation' | null;
    other_medication?: string | null;
    other_prescription?: string | null;
    source?: string | null;
    scheduled_at?: string | null;
    minutes_off?: number | null;
  };
  /** Advice in both languages (interactions, cross-reactivity). */
  advice?: { fr: string; en: string };
}

/** The limit rows of a medicine for a route: those of the route, else those for every route. */
export function limitsFor(all: readonly DoseLimit[], route: string): DoseLimit[] {
  const exact = all.filter((l) => l.route === route);
  return exact.length ? exact : all.filter((l) => l.route === '');
}

const round = (n: number) => Math.round(n * 100) / 100;
const nameOf = (l: SafetyLine) => l.med.innFr;
const over = (value: number, limit: number | null) => limit !== null && value > limit * (1 + 1e-9);

// Rules --------------------------------------------------------------------------------------------------

function allergyAlerts(data: SafetyData, patient: SafetyPatient, line: SafetyLine): RawAlert[] {
  const texts = patient.allergies.map((a) => a.text);
  const med = { innFr: line.med.innFr, innEn: line.med.innEn, allergyClasses: line.med.allergyClasses };
  const sourceOf = (text: string) => patient.allergies.find((a) => a.text === text)?.source ?? null;
  const match = allergyMatch(texts, med);
  if (match)
    return [
      {
        code: match.kind === 'substance' ? 'allergy' : 'allergy_class',
        severity: 'blocking',
        line,
        key: match.kind === 'substance' ? 'safety.allergy' : 'safety.allergy_class',
        params: { name: nameOf(line), name_en: line.med.innEn, allergy: match.allergy },
        details: { allergy: match.allergy, allergy_source: sourceOf(match.allergy) },
      },
    ];
  for (const allergy of texts) {
    const classes = allergyClassesOf(allergy);
    const row = data.cross.find(
      (r) => classes.includes(r.allergyClass) && line.med.allergyClasses.includes(r.reactsWith),
    );
    if (row)
      return [
        {
          code: 'allergy_cross_reactivity',
          severity: row.severity,
          line,
          key: 'safety.allergy_cross_reactivity',
          params: { name: nameOf(line), name_en: line.med.innEn, allergy },
          details: { allergy, allergy_source: sourceOf(allergy), source: row.source },
          advice: row.note,
        },
      ];
  }
  return [];
}

interface Contribution {
  line: SafetyLine;
  limit: DoseLimit;
  perDay: number;
}

function doseAlerts(
  limitsOf: (code: string) => readonly DoseLimit[],
  patient: SafetyPatient,
  lines: readonly SafetyLine[],
): RawAlert[] {
  const out: RawAlert[] = [];
  const child = patient.ageYears !== null && patient.ageYears < PAEDIATRIC_AGE;
  const weight = patient.weightKg;
  const bySubstance = new Map<string, Contribution[]>();
  const weightAsked = new Set<SafetyLine>();
  const askWeight = (line: SafetyLine) => {
    if (weightAsked.has(line)) return;
    weightAsked.add(line);
    out.push({
      code: 'weight_required',
      severity: 'blocking',
      line,
      key: 'safety.weight_required',
      params: { name: nameOf(line), name_en: line.med.innEn },
      details: {},
    });
  };
  for (const line of lines) {
    const rows = limitsFor(limitsOf(line.med.code), line.route).filter((r) => !r.noLimit);
    for (const limit of rows) {
      const amount = amountPerAdministration(line, line.med, limit);
      if (amount === null) {
        if (line.own)
          out.push({
            code: 'dose_unverifiable',
            severity: 'info',
            line,
            key: 'safety.dose_unverifiable',
            params: { name: nameOf(line), name_en: line.med.innEn, unit: limit.unit },
            details: { unit: limit.unit, source: limit.source },
          });
        continue;
      }
      const contributions = bySubstance.get(limit.substance) ?? [];
      contributions.push({ line, limit, perDay: amount * perDay(line.frequency) });
      bySubstance.set(limit.substance, contributions);
      if (!line.own) continue;
      const byKg = (child || limit.weightDosed) && (limit.kgDose !== null || limit.kgDay !== null);
      if (byKg && weight === null) askWeight(line);
      if (over(amount, limit.adultDose))
        out.push({
          code: 'dose_single_max',
          severity: 'blocking',
          line,
          key: 'safety.dose_single_max',
          params: {
            name: nameOf(line),
            name_en: line.med.innEn,
            value: round(amount),
            limit: limit.adultDose!,
            unit: limit.unit,
          },
          details: {
            value: round(amount),
            limit: limit.adultDose,
            unit: limit.unit,
            per: 'dose',
            source: limit.source,
          },
        });
      if (byKg && weight !== null && over(amount / weight, limit.kgDose))
        out.push({
          code: 'dose_mg_per_kg',
          severity: 'blocking',
          line,
          key: 'safety.dose_per_kg_dose',
          params: {
            name: nameOf(line),
            name_en: line.med.innEn,
            value: round(amount / weight),
            limit: limit.kgDose!,
            unit: limit.unit,
            weight,
          },
          details: {
            value: round(amount / weight),
            limit: limit.kgDose,
            unit: `${limit.unit}/kg`,
            per: 'dose',
            weight_kg: weight,
            source: limit.source,
          },
        });
    }
    if (line.own && weight === null && (child || line.med.paediatric)) askWeight(line);
  }
  for (const contributions of bySubstance.values()) {
    const first = contributions.find((c) => c.line.own);
    if (!first) continue;
    const total = contributions.reduce((s, c) => s + c.perDay, 0);
    const others = [
      ...new Set(contributions.filter((c) => c.line !== first.line).map((c) => nameOf(c.line))),
    ];
    const limit = first.limit;
    const common = { other_medication: others.length ? others.join(', ') : null, source: limit.source };
    if (over(total, limit.adultDay))
      out.push({
        code: 'dose_daily_max',
        severity: 'blocking',
        line: first.line,
        key: others.length ? 'safety.dose_daily_max_sum' : 'safety.dose_daily_max',
        params: {
          name: first.line.med.innFr,
          name_en: first.line.med.innEn,
          value: round(total),
          limit: limit.adultDay!,
          unit: limit.unit,
          others: others.join(', '),
        },
        details: { value: round(total), limit: limit.adultDay, unit: limit.unit, per: 'day', ...common },
      });
    const byKg = (child || limit.weightDosed) && limit.kgDay !== null;
    if (byKg && weight !== null && over(total / weight, limit.kgDay))
      out.push({
        code: 'dose_mg_per_kg',
        severity: 'blocking',
        line: first.line,
        key: 'safety.dose_per_kg_day',
        params: {
          name: first.line.med.innFr,
          name_en: first.line.med.innEn,
          value: round(total / weight),
          limit: limit.kgDay!,
          unit: limit.unit,
          weight,
        },
        details: {
          value: round(total / weight),
          limit: limit.kgDay,
          unit: `${limit.unit}/kg`,
          per: 'day',
          weight_kg: weight,
          ...common,
        },
      });
  }
  return out;
}

const substanceSets = new WeakMap<SafetyMed, Set<string>>();
/** The folded English substances of a medicine (kept per medicine object: a 20-line check compares 190 pairs). */
function substanceSet(m: SafetyMed): Set<string> {
  let set = substanceSets.get(m);
  if (!set) {
    set = new Set(substancesOf(m.innEn));
    substanceSets.set(m, set);
  }
  return set;
}
const folded = new Map<string, string>();
const foldOnce = (v: string) => {
  let f = folded.get(v);
  if (f === undefined) {
    f = fold(v);
    folded.set(v, f);
  }
  return f;
};

function matches(m: Matcher, med: SafetyMed): boolean {
  switch (m.kind) {
    case 'inn':
      return substanceSet(med).has(foldOnce(m.value));
    case 'class':
      return med.allergyClasses.includes(m.value);
    case 'atc':
      return (med.atcCode ?? '').startsWith(m.value);
  }
}

/** Pairs of an own line with an earlier own line or with a line of another active prescription. */
function pairs(lines: readonly SafetyLine[]): [SafetyLine, SafetyLine][] {
  const out: [SafetyLine, SafetyLine][] = [];
  lines.forEach((line, i) => {
    if (!line.own) return;
    lines.forEach((other, j) => {
      if (other === line || (other.own && j > i)) return;
      out.push([line, other]);
    });
  });
  return out;
}

const otherDetails = (other: SafetyLine) => ({
  other_medication: other.med.innFr,
  other_prescription: other.own ? null : other.prescriptionNumber,
});

function pairAlerts(data: SafetyData, lines: readonly SafetyLine[]): RawAlert[] {
  const out: RawAlert[] = [];
  for (const [line, other] of pairs(lines)) {
    const a = substanceSet(line.med);
    const sameSubstance =
      line.med.medicationId === other.med.medicationId || [...substanceSet(other.med)].some((s) => a.has(s));
    const atc = line.med.atcCode ?? '';
    const where = other.own ? 'safety.where_line' : 'safety.where_prescription';
    const whereParams = {
      other: other.med.innFr,
      other_en: other.med.innEn,
      number: other.prescriptionNumber ?? '',
    };
    if (sameSubstance)
      out.push({
        code: 'duplicate_substance',
        severity: 'warning',
        line,
        key: 'safety.duplicate_substance',
        params: { name: nameOf(line), name_en: line.med.innEn, where, ...whereParams },
        details: otherDetails(other),
      });
    else if (atc.length >= 5 && (other.med.atcCode ?? '').slice(0, 5) === atc.slice(0, 5))
      out.push({
        code: 'duplicate_class',
        severity: 'warning',
        line,
        key: 'safety.duplicate_class',
        params: { name: nameOf(line), name_en: line.med.innEn, atc: atc.slice(0, 5), where, ...whereParams },
        details: otherDetails(other),
      });
    const found = data.interactions
      .filter(
        (r) =>
          (matches(r.a, line.med) && matches(r.b, other.med)) ||
          (matches(r.a, other.med) && matches(r.b, line.med)),
      )
      .sort((x, y) => (x.severity === y.severity ? 0 : x.severity === 'blocking' ? -1 : 1))[0];
    if (found)
      out.push({
        code: 'interaction',
        severity: found.severity,
        line,
        key: 'safety.interaction',
        params: { name: nameOf(line), name_en: line.med.innEn, where, ...whereParams },
        details: { ...otherDetails(other), source: found.source },
        advice: found.advice,
      });
  }
  return out;
}

function pregnancyAlerts(limitsOf: (code: string) => readonly DoseLimit[], line: SafetyLine): RawAlert[] {
  const rule = limitsFor(limitsOf(line.med.code), line.route).find((l) => l.pregnancy)?.pregnancy;
  if (!rule) return [];
  return [
    {
      code: 'pregnancy',
      severity: rule === 'contraindicated' ? 'blocking' : 'warning',
      line,
      key: rule === 'contraindicated' ? 'safety.pregnancy_contraindicated' : 'safety.pregnancy_avoid',
      params: { name: nameOf(line), name_en: line.med.innEn },
      details: { source: limitsOf(line.med.code).find((l) => l.pregnancy)?.source ?? null },
    },
  ];
}

/**
 * Every alert of the own lines for the patient (the other lines, of the patient's active prescriptions, count
 * in the 24-hour totals, the duplicates and the interactions).
 */
export function evaluate(
  data: SafetyData,
  limitsOf: (code: string) => readonly DoseLimit[],
  patient: SafetyPatient,
  lines: readonly SafetyLine[],
): RawAlert[] {
  const out: RawAlert[] = [];
  if (patient.allergyState === 'not_asked')
    out.push({
      code: 'allergies_not_recorded',
      severity: 'warning',
      line: null,
      key: 'safety.allergies_not_recorded',
      params: {},
      details: {},
    });
  for (const line of lines) if (line.own) out.push(...allergyAlerts(data, patient, line));
  out.push(...doseAlerts(limitsOf, patient, lines));
  out.push(...pairAlerts(data, lines));
  if (patient.pregnant) for (const line of lines) if (line.own) out.push(...pregnancyAlerts(limitsOf, line));
  return out;
}

/** Where a dose was given against its time: beyond `TIMING_WINDOW_MINUTES` it is early or late. */
export function timingOf(
  scheduledAt: Date,
  givenAt: Date,
  windowMinutes = TIMING_WINDOW_MINUTES,
): { timing: 'on_time' | 'early' | 'late'; minutesOff: number } {
  const minutesOff = Math.round((givenAt.getTime() - scheduledAt.getTime()) / 60_000);
  const timing = minutesOff < -windowMinutes ? 'early' : minutesOff > windowMinutes ? 'late' : 'on_time';
  return { timing, minutesOff };
}

/** Hours between doses of a line timed from a stat first dose (null: no repeat, or as needed). */
export function statInterval(f: TFrequency): number | null {
  switch (f.kind) {
    case 'times_per_day':
      return 24 / f.times;
    case 'every_hours':
      return f.hours;
    case 'at_night':
      return 24;
    default:
      return null;
  }
}

/**
 * The dose times in `[from, to)` of a line given first "stat" at `first`: the stat dose, then one every interval
 * of its frequency, until the end of its duration (counted from the stat dose).
 */
export function statDoseTimes(
  f: TFrequency,
  first: Date,
  durationDays: number | null,
  from: Date,
  to: Date,
): Date[] {
  const hour = 3_600_000;
  const interval = statInterval(f);
  const end = durationDays ? first.getTime() + durationDays * 24 * hour : Number.POSITIVE_INFINITY;
  if (interval === null) return first >= from && first < to ? [first] : [];
  const out: Date[] = [];
  const step = interval * hour;
  const k0 = Math.max(0, Math.ceil((from.getTime() - first.getTime()) / step));
  for (let t = first.getTime() + k0 * step; t < to.getTime() && t < end; t += step) out.push(new Date(t));
  return out;
}
