/**
 * The pure rules of prescribing (issue 18): the quantity to dispense, and the matching of a patient's recorded
 * allergies (free text, in French or English) with a medicine's substance and allergy classes.
 */
import type { TFrequency } from '@greensen/shared/contracts/pharmacy';

/** Lower case, no accents, single spaces. */
export const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[\s’']+/g, ' ')
    .trim();

/**
 * Words staff write in an allergy that name a class (the recorded allergy is free text): `pénicilline` →
 * penicillins, `sulfamides` → sulfonamides, `AINS`/`NSAID`/`aspirine` → nsaids (aspirin intolerance crosses to
 * the other anti-inflammatories)… Matched on the folded text (lower case, no accents).
 */
export const ALLERGY_SYNONYMS: readonly [RegExp, readonly string[]][] = [
  [/penicill?in|peniciline|\bpeni\b/, ['penicillins']],
  [/beta ?-?lactam|β-?lactam/, ['beta_lactams']],
  [/cephalospor|cefalospor|cephalo\b/, ['cephalosporins']],
  [/carbapenem|carbapeneme/, ['carbapenems']],
  [
    /sulfamid|sulfonamid|sulphonamid|\bsulfa\b|sulfa drugs?|\bbactrim\b|cotrimoxazol|co-trimoxazol/,
    ['sulfonamides'],
  ],
  [
    /\bains\b|\bnsaids?\b|anti-? ?inflammatoires? non|non-? ?steroidal|aspirine?|acide acetylsalicylique|acetylsalicylic/,
    ['nsaids', 'salicylates'],
  ],
  [/quinolon/, ['quinolones']],
  [/macrolid/, ['macrolides']],
  [/aminosid|aminoglycosid/, ['aminoglycosides']],
  [/tetracyclin|\bcyclines?\b/, ['tetracyclines']],
  [/morphin|opiac|opioid|opiat|codein/, ['opioids']],
  [/artemisinin|derives? de l ?artemisinine/, ['artemisinins']],
  [/chloroquin|amodiaquin|nivaquin/, ['4_aminoquinolines']],
  [/quinine|quinimax/, ['cinchona_alkaloids']],
  [/benzodiazepin/, ['benzodiazepines']],
  [/barbitur/, ['barbiturates']],
  [/\biec\b|ace inhibitor|inhibiteurs? de l ?enzyme de conversion/, ['ace_inhibitors']],
  [/beta-? ?bloquant|beta-? ?blocker/, ['beta_blockers']],
  [/sulfonylure|sulfamides? hypoglycemiants?/, ['sulfonylureas']],
  [/\biode\b|iodine|\biod[ée]s?\b|betadine|povidone/, ['iodine']],
  [
    /anesthesiques? locaux|local anaesthetic|local anesthetic|lidocain|xylocain/,
    ['amide_local_anaesthetics'],
  ],
  [/heparin/, ['heparins']],
  [/corticoid|corticosteroid/, ['corticosteroids']],
  [/arachide|cacahuete|peanut/, ['peanut']],
  [/serum equin|equine serum|antivenin|antivenom/, ['equine_sera']],
  [/azole|antifongiques? azol/, ['azoles']],
  [/metamizol|noramidopyrin|pyrazolon|dipyron/, ['pyrazolones']],
];

/** The allergy classes a recorded allergy names (by the synonym table). */
export function allergyClassesOf(allergy: string): string[] {
  const text = fold(allergy);
  const out = new Set<string>();
  for (const [re, classes] of ALLERGY_SYNONYMS) if (re.test(text)) for (const c of classes) out.add(c);
  // A class written as its code (`penicillins`, `beta_lactams`).
  out.add(text.replace(/[\s-]+/g, '_'));
  return [...out];
}

/** The substances of an INN (`artéméther + luméfantrine` → both), folded, without parenthesised notes. */
export function substancesOf(inn: string): string[] {
  return fold(inn.replace(/\([^)]*\)/g, ' '))
    .split(/\s*(?:\+|\/|,|\bet\b|\band\b)\s*/)
    .map((s) => s.trim())
    .filter((s) => s.length >= 3);
}

/** How a recorded allergy matches a medicine: its substance, or one of its allergy classes. */
export interface AllergyMatch {
  allergy: string;
  kind: 'substance' | 'class';
}

/**
 * Which recorded allergy (if any) a medicine matches, and how: one of its substances (French or English INN,
 * accents and case ignored) is in the allergy's text or the allergy's text is in one of them (`substance`), or
 * the allergy names one of the medicine's allergy classes (`class`).
 */
export function allergyMatch(
  allergies: readonly string[],
  medication: { innFr: string; innEn: string; allergyClasses: readonly string[] },
): AllergyMatch | null {
  const substances = [...substancesOf(medication.innFr), ...substancesOf(medication.innEn)];
  for (const allergy of allergies) {
    const text = fold(allergy);
    if (text.length < 3) continue;
    const words = text.split(/[\s,;/]+/).filter((w) => w.length >= 4);
    if (
      substances.some(
        (s) => text.includes(s) || s.includes(text) || words.some((w) => s.split(' ').includes(w)),
      )
    )
      return { allergy, kind: 'substance' };
  }
  for (const allergy of allergies) {
    if (fold(allergy).length < 3) continue;
    const classes = allergyClassesOf(allergy);
    if (medication.allergyClasses.some((c) => classes.includes(c))) return { allergy, kind: 'class' };
  }
  return null;
}

/** Which recorded allergy (if any) a medicine matches (by substance or class). */
export function matchingAllergy(
  allergies: readonly string[],
  medication: { innFr: string; innEn: string; allergyClasses: readonly string[] },
): string | null {
  return allergyMatch(allergies, medication)?.allergy ?? null;
}

/** Units staff write for a presentation's counting unit (`cp` for a tablet, `flacon` for a bottle…). */
const UNIT_SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  tablet: ['tablet', 'tablets', 'tab', 'comprime', 'comprimes', 'cp', 'cpr'],
  capsule: ['capsule', 'capsules', 'cap', 'gelule', 'gelules', 'gel'],
  sachet: ['sachet', 'sachets'],
  ampoule: ['ampoule', 'ampoules', 'amp'],
  vial: ['vial', 'vials', 'flacon', 'flacons', 'fl'],
  bottle: ['bottle', 'bottles', 'flacon', 'flacons', 'fl'],
  bag: ['bag', 'bags', 'poche', 'poches'],
  suppository: ['suppository', 'suppositories', 'suppositoire', 'suppositoires', 'suppo'],
  pessary: ['pessary', 'pessaries', 'ovule', 'ovules'],
  tube: ['tube', 'tubes'],
  inhaler: ['inhaler', 'inhalers', 'inhalateur', 'inhalateurs'],
  syringe: ['syringe', 'syringes', 'seringue', 'seringues'],
  implant: ['implant', 'implants'],
  blister: ['blister', 'blisters', 'plaquette', 'plaquettes'],
};

/** Whether a dose unit is the presentation's counting unit (so that a dose of 2 means 2 units). */
export function sameUnit(doseUnit: string, presentationUnit: string): boolean {
  const a = fold(doseUnit).replace(/\(s\)$/, '');
  const b = fold(presentationUnit);
  if (a === b) return true;
  return (UNIT_SYNONYMS[b] ?? []).includes(a);
}

/** Administrations per day of a frequency (`once`: a single administration in all). */
export function administrationsPerDay(f: TFrequency): number {
  switch (f.kind) {
    case 'times_per_day':
      return f.times;
    case 'every_hours':
      return 24 / f.hours;
    case 'at_night':
      return 1;
    case 'as_needed':
      return f.max_per_day;
    case 'once':
      return 1;
  }
}

/**
 * Units of the presentation to dispense: units per administration (the dose when it is written in the
 * presentation's unit, else one unit — an ampoule for 500 mg) × administrations per day × days (one day when
 * no duration is set; a single administration for `once`), rounded up.
 */
export function computedQuantity(line: {
  dose: number;
  dose_unit: string;
  frequency: TFrequency;
  duration_days?: number | null | undefined;
  unit: string;
}): number {
  const perAdministration = sameUnit(line.dose_unit, line.unit) ? line.dose : 1;
  if (line.frequency.kind === 'once') return Math.max(1, Math.ceil(perAdministration));
  const days = line.duration_days ?? 1;
  return Math.max(1, Math.ceil(perAdministration * administrationsPerDay(line.frequency) * days - 1e-9));
}
