/**
 * The data of the medication-safety rules, beside the medicines reference (`pharmacy/data/`): dose limits
 * (`dose-limits.tsv`), allergy cross-reactivity by class (`allergy-cross-reactivity.tsv`) and the curated
 * interactions (`interactions.tsv`), each row with its source. Read once per process; a hospital's own dose
 * limits (table `hospital_dose_limits`, `cli.js import-dose-limits`) replace the shipped rows of a medicine.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SAFETY_DATA_DIR = resolve(
  dirname(fileURLToPath(import.meta.url)),
  '../../../src/modules/pharmacy/data',
);

export type PregnancyRule = 'contraindicated' | 'avoid' | null;

/** One limit of a medicine (for a route, '' for all) on one of its substances (`component` in its strength). */
export interface DoseLimit {
  medication: string;
  route: string;
  substance: string;
  component: number;
  unit: string;
  adultDose: number | null;
  adultDay: number | null;
  kgDose: number | null;
  kgDay: number | null;
  weightDosed: boolean;
  pregnancy: PregnancyRule;
  noLimit: string | null;
  source: string;
}

export interface CrossReactivity {
  allergyClass: string;
  reactsWith: string;
  severity: 'warning' | 'blocking';
  note: { fr: string; en: string };
  source: string;
}

/** `inn:<English substance>`, `class:<allergy class>` or `atc:<code prefix>`. */
export interface Matcher {
  kind: 'inn' | 'class' | 'atc';
  value: string;
}
export interface Interaction {
  a: Matcher;
  b: Matcher;
  severity: 'warning' | 'blocking';
  advice: { fr: string; en: string };
  source: string;
}

/** Rows of a TSV with a header line, as objects (empty cells are ''). */
export function parseTsv(text: string): Record<string, string>[] {
  const [head, ...rows] = text
    .replace(/\r/g, '')
    .split('\n')
    .filter((l) => l.trim() !== '');
  const columns = (head ?? '').split('\t');
  return rows.map((row, i) => {
    const cells = row.split('\t');
    if (cells.length !== columns.length)
      throw new Error(`line ${i + 2}: ${cells.length} cells, ${columns.length} expected`);
    return Object.fromEntries(columns.map((c, j) => [c, (cells[j] ?? '').trim()]));
  });
}

const num = (v: string | undefined) => (v === undefined || v === '' ? null : Number(v));

export function toDoseLimit(r: Record<string, string>): DoseLimit {
  const limit: DoseLimit = {
    medication: r.medication ?? '',
    route: r.route ?? '',
    substance: r.substance ?? '',
    component: Number(r.component || 0),
    unit: r.unit ?? 'mg',
    adultDose: num(r.adult_dose),
    adultDay: num(r.adult_day),
    kgDose: num(r.kg_dose),
    kgDay: num(r.kg_day),
    weightDosed: r.weight_dosed === 'y',
    pregnancy: r.pregnancy === 'contraindicated' || r.pregnancy === 'avoid' ? r.pregnancy : null,
    noLimit: r.no_limit || null,
    source: r.source ?? '',
  };
  for (const v of [limit.adultDose, limit.adultDay, limit.kgDose, limit.kgDay])
    if (v !== null && !(v > 0))
      throw new Error(`dose limit of ${limit.medication}: ${v} is not a positive number`);
  if (!limit.medication || !limit.substance || !limit.source)
    throw new Error(`dose limit without medication, substance or source: ${JSON.stringify(r)}`);
  return limit;
}

function matcher(v: string): Matcher {
  const [kind, ...rest] = v.split(':');
  if (kind !== 'inn' && kind !== 'class' && kind !== 'atc') throw new Error(`interaction matcher ${v}`);
  return { kind, value: rest.join(':') };
}

export interface SafetyData {
  limits: Map<string, DoseLimit[]>;
  cross: CrossReactivity[];
  interactions: Interaction[];
}

let cached: SafetyData | null = null;

/** The shipped data (read once). */
export function shippedSafetyData(dir = SAFETY_DATA_DIR): SafetyData {
  if (cached && dir === SAFETY_DATA_DIR) return cached;
  const read = (f: string) => parseTsv(readFileSync(resolve(dir, f), 'utf8'));
  const limits = new Map<string, DoseLimit[]>();
  for (const row of read('dose-limits.tsv')) {
    const l = toDoseLimit(row);
    limits.set(l.medication, [...(limits.get(l.medication) ?? []), l]);
  }
  const cross = read('allergy-cross-reactivity.tsv').map((r) => ({
    allergyClass: r.allergy_class ?? '',
    reactsWith: r.reacts_with_class ?? '',
    severity: r.severity === 'blocking' ? ('blocking' as const) : ('warning' as const),
    note: { fr: r.note_fr ?? '', en: r.note_en ?? '' },
    source: r.source ?? '',
  }));
  const interactions = read('interactions.tsv').map((r) => ({
    a: matcher(r.a ?? ''),
    b: matcher(r.b ?? ''),
    severity: r.severity === 'blocking' ? ('blocking' as const) : ('warning' as const),
    advice: { fr: r.advice_fr ?? '', en: r.advice_en ?? '' },
    source: r.source ?? '',
  }));
  const data = { limits, cross, interactions };
  if (dir === SAFETY_DATA_DIR) cached = data;
  return data;
}
