/**
 * Triage scales and the level suggested from vital signs (issue 6, DESIGN §5 item 3). Pure functions: the server
 * stores the suggestion next to the nurse's level, the web app shows it live while the vitals are typed.
 *
 * - FRENCH (French Emergency Nurses Classification in-Hospital triage, SFMU): levels 1, 2, 3A, 3B, 4, 5. The level
 *   is chosen from the complaint; vital signs act as modifiers that raise it. Here the suggestion is the most
 *   severe level the vitals call for (5 when they call for nothing); the nurse raises it from the complaint.
 * - SATS (South African Triage Scale, adult chart): the TEWS score (mobility, respiratory rate, heart rate,
 *   systolic pressure, temperature, AVPU, trauma) gives a colour, an emergency / very urgent / urgent
 *   discriminator may raise it; the most severe wins.
 */

export type TriageScale = 'FRENCH' | 'SATS';

export const FRENCH_LEVELS = ['1', '2', '3A', '3B', '4', '5'] as const;
export type FrenchLevel = (typeof FRENCH_LEVELS)[number];
export const SATS_LEVELS = ['red', 'orange', 'yellow', 'green', 'blue'] as const;
export type SatsLevel = (typeof SATS_LEVELS)[number];
export type TriageLevel = FrenchLevel | SatsLevel;

export const TRIAGE_LEVELS: Record<TriageScale, readonly TriageLevel[]> = {
  FRENCH: FRENCH_LEVELS,
  SATS: SATS_LEVELS,
};

/** Target delay to a doctor in minutes (0 = immediate; null = none, SATS blue is the dead). */
export const TARGET_MINUTES: Readonly<Record<TriageLevel, number | null>> = {
  '1': 0,
  '2': 20,
  '3A': 60,
  '3B': 90,
  '4': 120,
  '5': 240,
  red: 0,
  orange: 10,
  yellow: 60,
  green: 240,
  blue: null,
};

export function isLevelOf(scale: TriageScale, level: string): level is TriageLevel {
  return (TRIAGE_LEVELS[scale] as readonly string[]).includes(level);
}

/** Queue order of a level: 1 is seen first. Levels of one scale are never mixed in a queue (one scale per hospital). */
export function levelRank(scale: TriageScale, level: TriageLevel): number {
  const index = (TRIAGE_LEVELS[scale] as readonly string[]).indexOf(level);
  if (index < 0) throw new Error(`level ${level} is not on the ${scale} scale`);
  return index + 1;
}

export const AVPU = ['A', 'V', 'P', 'U'] as const;
export type Avpu = (typeof AVPU)[number];
export const MOBILITY = ['walking', 'with_help', 'immobile'] as const;
export type Mobility = (typeof MOBILITY)[number];

/** Vital signs as recorded at triage; any may be missing. Units: °C, /min, mmHg, %, kg, cm, mmol/L. */
export interface Vitals {
  temperature?: number | null;
  heart_rate?: number | null;
  respiratory_rate?: number | null;
  systolic_bp?: number | null;
  diastolic_bp?: number | null;
  spo2?: number | null;
  weight?: number | null;
  height?: number | null;
  glycaemia?: number | null;
  pain?: number | null;
  avpu?: Avpu | null;
  gcs?: number | null;
  /** New confusion (SATS scores it like V). */
  confused?: boolean | null;
  mobility?: Mobility | null;
  /** Trauma in the last 24 hours. */
  trauma?: boolean | null;
}

/** Physiological bounds: a value outside is a typing error, refused with a field error. */
export const VITAL_BOUNDS = {
  temperature: { min: 25, max: 45, integer: false },
  heart_rate: { min: 20, max: 250, integer: true },
  respiratory_rate: { min: 2, max: 80, integer: true },
  systolic_bp: { min: 40, max: 300, integer: true },
  diastolic_bp: { min: 20, max: 200, integer: true },
  spo2: { min: 40, max: 100, integer: true },
  weight: { min: 0.3, max: 350, integer: false },
  height: { min: 20, max: 250, integer: false },
  glycaemia: { min: 0.5, max: 50, integer: false },
  pain: { min: 0, max: 10, integer: true },
  gcs: { min: 3, max: 15, integer: true },
} as const;
export type BoundedVital = keyof typeof VITAL_BOUNDS;

/** SATS discriminators (adult chart), by the colour they impose. */
export const SATS_DISCRIMINATORS = {
  red: [
    'airway_compromised',
    'breathing_inadequate',
    'cardiac_arrest',
    'seizure_current',
    'burn_facial_inhalation',
    'hypoglycaemia',
  ],
  orange: [
    'shortness_of_breath_acute',
    'coughing_blood',
    'chest_pain',
    'haemorrhage_uncontrolled',
    'seizure_post_ictal',
    'focal_neurology_acute',
    'reduced_consciousness',
    'psychosis_aggression',
    'threatened_limb',
    'dislocation_large_joint',
    'fracture_compound',
    'burn_over_20_percent',
    'poisoning_overdose',
    'diabetic_ketonuria',
    'vomiting_fresh_blood',
    'pregnancy_abdominal_pain_or_trauma',
    'severe_pain',
  ],
  yellow: [
    'haemorrhage_controlled',
    'fracture_closed',
    'burn_other',
    'dislocation_finger_toe',
    'abdominal_pain',
    'diabetic_hyperglycaemia',
    'vomiting_persistent',
    'pregnancy_trauma',
    'moderate_pain',
  ],
} as const satisfies Record<'red' | 'orange' | 'yellow', readonly string[]>;
export type SatsDiscriminator = (typeof SATS_DISCRIMINATORS)[keyof typeof SATS_DISCRIMINATORS][number];
export const SATS_DISCRIMINATOR_CODES: readonly SatsDiscriminator[] = [
  ...SATS_DISCRIMINATORS.red,
  ...SATS_DISCRIMINATORS.orange,
  ...SATS_DISCRIMINATORS.yellow,
];

const has = (v: number | null | undefined): v is number => typeof v === 'number' && Number.isFinite(v);

/** Points of each TEWS parameter; null when the vital is missing. */
export interface TewsBreakdown {
  mobility: number | null;
  respiratory_rate: number | null;
  heart_rate: number | null;
  systolic_bp: number | null;
  temperature: number | null;
  avpu: number | null;
  trauma: number | null;
}

/**
 * The adult Triage Early Warning Score (SATS, patients ≥ 12 years or taller than 150 cm):
 *
 * | points | 3 | 2 | 1 | 0 | 1 | 2 | 3 |
 * |---|---|---|---|---|---|---|---|
 * | mobility | | | | walking | with help | stretcher/immobile | |
 * | RR | | < 9 | | 9–14 | 15–20 | 21–29 | ≥ 30 |
 * | HR | | < 41 | 41–50 | 51–100 | 101–110 | 111–129 | ≥ 130 |
 * | SBP | < 71 | 71–80 | 81–100 | 101–199 | | ≥ 200 | |
 * | temp (°C) | | < 35 | | 35–38.4 | | ≥ 38.5 | |
 * | AVPU | | | confused | alert | voice | pain | unresponsive |
 * | trauma | | | | no | yes | | |
 *
 * Missing parameters score 0 (the total is then a lower bound; `complete` tells).
 */
export function computeTews(v: Vitals): { score: number; complete: boolean; breakdown: TewsBreakdown } {
  const b: TewsBreakdown = {
    mobility: v.mobility ? { walking: 0, with_help: 1, immobile: 2 }[v.mobility] : null,
    respiratory_rate: has(v.respiratory_rate)
      ? v.respiratory_rate < 9
        ? 2
        : v.respiratory_rate <= 14
          ? 0
          : v.respiratory_rate <= 20
            ? 1
            : v.respiratory_rate <= 29
              ? 2
              : 3
      : null,
    heart_rate: has(v.heart_rate)
      ? v.heart_rate < 41
        ? 2
        : v.heart_rate <= 50
          ? 1
          : v.heart_rate <= 100
            ? 0
            : v.heart_rate <= 110
              ? 1
              : v.heart_rate <= 129
                ? 2
                : 3
      : null,
    systolic_bp: has(v.systolic_bp)
      ? v.systolic_bp < 71
        ? 3
        : v.systolic_bp <= 80
          ? 2
          : v.systolic_bp <= 100
            ? 1
            : v.systolic_bp <= 199
              ? 0
              : 2
      : null,
    temperature: has(v.temperature) ? (v.temperature < 35 || v.temperature >= 38.5 ? 2 : 0) : null,
    avpu: v.avpu
      ? Math.max({ A: 0, V: 1, P: 2, U: 3 }[v.avpu], v.confused ? 1 : 0)
      : v.confused
        ? 1
        : v.confused === false
          ? 0
          : null,
    trauma: v.trauma === true ? 1 : v.trauma === false ? 0 : null,
  };
  const values = Object.values(b);
  return {
    score: values.reduce<number>((sum, p) => sum + (p ?? 0), 0),
    complete: values.every((p) => p !== null),
    breakdown: b,
  };
}

/** TEWS colour: 0–2 green, 3–4 yellow, 5–6 orange, ≥ 7 red. */
export function tewsColour(score: number): Exclude<SatsLevel, 'blue'> {
  if (score >= 7) return 'red';
  if (score >= 5) return 'orange';
  if (score >= 3) return 'yellow';
  return 'green';
}

export interface SatsSuggestion {
  scale: 'SATS';
  level: SatsLevel;
  tews: number;
  tews_complete: boolean;
  breakdown: TewsBreakdown;
  /** Why the level is what it is (rule codes). */
  reasons: string[];
}

export function suggestSats(v: Vitals, discriminators: readonly string[] = []): SatsSuggestion {
  const tews = computeTews(v);
  let level: SatsLevel = tewsColour(tews.score);
  const reasons = [`tews_${tews.score}`];
  const raise = (to: SatsLevel, reason: string) => {
    reasons.push(reason);
    if (SATS_LEVELS.indexOf(to) < SATS_LEVELS.indexOf(level)) level = to;
  };
  for (const colour of ['red', 'orange', 'yellow'] as const) {
    for (const d of SATS_DISCRIMINATORS[colour]) if (discriminators.includes(d)) raise(colour, d);
  }
  // Measured signs that are SATS discriminators by themselves.
  if (has(v.glycaemia) && v.glycaemia < 3) raise('red', 'hypoglycaemia');
  if (has(v.pain) && v.pain >= 8) raise('orange', 'severe_pain');
  else if (has(v.pain) && v.pain >= 5) raise('yellow', 'moderate_pain');
  if (has(v.spo2) && v.spo2 < 92) raise('orange', 'spo2_low');
  return {
    scale: 'SATS',
    level,
    tews: tews.score,
    tews_complete: tews.complete,
    breakdown: tews.breakdown,
    reasons,
  };
}

export interface FrenchSuggestion {
  scale: 'FRENCH';
  level: FrenchLevel;
  reasons: string[];
}

/**
 * FRENCH level from the vital-sign modifiers (SFMU 2018 table, vital-sign part):
 * - 1: unresponsive (AVPU U or GCS ≤ 8), SpO₂ < 86 %, SBP < 70, HR < 40 or > 180, RR < 8 or > 40;
 * - 2: AVPU P or GCS 9–13, SpO₂ 86–90 %, SBP 70–89 or ≥ 230, HR 40–49 or 131–180, RR 30–40, temperature < 35 or
 *   ≥ 40 °C, glycaemia < 3 or > 25 mmol/L, pain ≥ 8;
 * - 3A: AVPU V, confusion or GCS 14, SpO₂ 91–94 %, SBP 90–99 or 180–229, HR 111–130, RR 25–29, temperature
 *   39–39.9 °C, glycaemia > 20 mmol/L, pain 6–7;
 * - 3B: temperature 38–38.9 °C, HR 101–110, RR 21–24, pain 4–5;
 * - 4: pain 1–3 or trauma;
 * - 5: nothing abnormal.
 */
export function suggestFrench(v: Vitals): FrenchSuggestion {
  let level: FrenchLevel = '5';
  const reasons: string[] = [];
  const raise = (to: FrenchLevel, reason: string) => {
    reasons.push(reason);
    if (FRENCH_LEVELS.indexOf(to) < FRENCH_LEVELS.indexOf(level)) level = to;
  };
  const gcs = has(v.gcs) ? v.gcs : null;
  if (v.avpu === 'U' || (gcs !== null && gcs <= 8)) raise('1', 'unresponsive');
  else if (v.avpu === 'P' || (gcs !== null && gcs <= 13)) raise('2', 'consciousness_altered');
  else if (v.avpu === 'V' || v.confused || gcs === 14) raise('3A', 'consciousness_reduced');

  if (has(v.spo2)) {
    if (v.spo2 < 86) raise('1', 'spo2_critical');
    else if (v.spo2 <= 90) raise('2', 'spo2_low');
    else if (v.spo2 <= 94) raise('3A', 'spo2_borderline');
  }
  if (has(v.systolic_bp)) {
    const s = v.systolic_bp;
    if (s < 70) raise('1', 'shock');
    else if (s < 90 || s >= 230) raise('2', s < 90 ? 'hypotension' : 'hypertension_severe');
    else if (s < 100 || s >= 180) raise('3A', s < 100 ? 'hypotension_borderline' : 'hypertension');
  }
  if (has(v.heart_rate)) {
    const h = v.heart_rate;
    if (h < 40 || h > 180) raise('1', 'heart_rate_critical');
    else if (h < 50 || h > 130) raise('2', h < 50 ? 'bradycardia' : 'tachycardia_severe');
    else if (h > 110) raise('3A', 'tachycardia');
    else if (h > 100) raise('3B', 'tachycardia_mild');
  }
  if (has(v.respiratory_rate)) {
    const r = v.respiratory_rate;
    if (r < 8 || r > 40) raise('1', 'respiratory_rate_critical');
    else if (r >= 30) raise('2', 'tachypnoea_severe');
    else if (r >= 25) raise('3A', 'tachypnoea');
    else if (r > 20) raise('3B', 'tachypnoea_mild');
  }
  if (has(v.temperature)) {
    const t = v.temperature;
    if (t < 35 || t >= 40) raise('2', t < 35 ? 'hypothermia' : 'hyperthermia');
    else if (t >= 39) raise('3A', 'fever_high');
    else if (t >= 38) raise('3B', 'fever');
  }
  if (has(v.glycaemia)) {
    if (v.glycaemia < 3 || v.glycaemia > 25)
      raise('2', v.glycaemia < 3 ? 'hypoglycaemia' : 'hyperglycaemia_severe');
    else if (v.glycaemia > 20) raise('3A', 'hyperglycaemia');
  }
  if (has(v.pain)) {
    if (v.pain >= 8) raise('2', 'pain_severe');
    else if (v.pain >= 6) raise('3A', 'pain_intense');
    else if (v.pain >= 4) raise('3B', 'pain_moderate');
    else if (v.pain >= 1) raise('4', 'pain_mild');
  }
  if (v.trauma) raise('4', 'trauma');
  return { scale: 'FRENCH', level, reasons };
}

export type TriageSuggestion = FrenchSuggestion | SatsSuggestion;

/** The level the vitals (and, for SATS, the discriminators) call for on the hospital's scale. */
export function suggestTriageLevel(
  scale: TriageScale,
  vitals: Vitals,
  discriminators: readonly string[] = [],
): TriageSuggestion {
  return scale === 'SATS' ? suggestSats(vitals, discriminators) : suggestFrench(vitals);
}

/** Minutes waited past the target (negative: time left); null when the level has no target. */
export function minutesOverTarget(level: TriageLevel, waitedMinutes: number): number | null {
  const target = TARGET_MINUTES[level];
  return target === null ? null : waitedMinutes - target;
}
