/**
 * NEWS2, the National Early Warning Score 2 (Royal College of Physicians, 2017), computed on each set of ward
 * vital signs (issue 20). Pure: the server stores the score with the set, the web app shows it live while the
 * vitals are typed.
 *
 * - Seven parameters: respiration rate, SpO₂ (scale 1, or scale 2 for a patient flagged hypercapnic — target
 *   88–92 %), air or oxygen, systolic pressure, pulse, consciousness (ACVPU: new confusion scores like V, P, U)
 *   and temperature. Each scores 0–3; the aggregate is their sum.
 * - Clinical response: 0 none, 1–4 low (ward-based), a single parameter at 3 low-medium (urgent ward-based
 *   response), 5–6 medium (urgent response), 7 or more high (emergency response).
 * - Escalation (the doctor is notified): `urgent` at an aggregate of 5 or more or any single red score (3),
 *   `emergency` at 7 or more.
 * - A set with missing parameters is scored on what is there and marked incomplete (it can only under-score).
 * - Not for children: NEWS2 is validated from 16 years (decision 0025 says why no paediatric score is computed);
 *   `news2Applies` tells whether to compute it for an age.
 */

export const NEWS2_MIN_AGE = 16;

export const NEWS2_RISKS = ['low', 'low_medium', 'medium', 'high'] as const;
export type News2Risk = (typeof NEWS2_RISKS)[number];
export const NEWS2_ESCALATIONS = ['none', 'urgent', 'emergency'] as const;
export type News2Escalation = (typeof NEWS2_ESCALATIONS)[number];

/** Aggregate at which an urgent response (and the doctor's notification) is due. */
export const NEWS2_URGENT_SCORE = 5;
/** Aggregate at which an emergency response is due. */
export const NEWS2_EMERGENCY_SCORE = 7;

/** What NEWS2 reads of a set of vitals; any may be missing. */
export interface News2Input {
  respiratory_rate?: number | null;
  spo2?: number | null;
  /** Supplemental oxygen at the time of the SpO₂ (false or missing: room air). */
  on_oxygen?: boolean | null;
  systolic_bp?: number | null;
  heart_rate?: number | null;
  avpu?: 'A' | 'V' | 'P' | 'U' | null;
  /** New confusion (the C of ACVPU). */
  confused?: boolean | null;
  temperature?: number | null;
}

export interface News2Breakdown {
  respiratory_rate: number | null;
  spo2: number | null;
  air_or_oxygen: number | null;
  systolic_bp: number | null;
  heart_rate: number | null;
  consciousness: number | null;
  temperature: number | null;
}

export interface News2Result {
  score: number;
  /** All seven parameters were present. */
  complete: boolean;
  /** The SpO₂ scale used (2 for hypercapnic respiratory failure). */
  spo2_scale: 1 | 2;
  breakdown: News2Breakdown;
  /** A single parameter scored 3. */
  red_parameter: boolean;
  risk: News2Risk;
  escalation: News2Escalation;
  /** Mantine colour of the risk. */
  colour: 'green' | 'yellow' | 'orange' | 'red';
}

const has = (v: number | null | undefined): v is number => typeof v === 'number' && Number.isFinite(v);

export function respirationPoints(rr: number): number {
  if (rr <= 8) return 3;
  if (rr <= 11) return 1;
  if (rr <= 20) return 0;
  if (rr <= 24) return 2;
  return 3;
}

/** SpO₂ scale 1. */
export function spo2Scale1Points(spo2: number): number {
  if (spo2 <= 91) return 3;
  if (spo2 <= 93) return 2;
  if (spo2 <= 95) return 1;
  return 0;
}

/** SpO₂ scale 2 (target 88–92 %): above 92 % scores only when on oxygen. */
export function spo2Scale2Points(spo2: number, onOxygen: boolean): number {
  if (spo2 <= 83) return 3;
  if (spo2 <= 85) return 2;
  if (spo2 <= 87) return 1;
  if (spo2 <= 92 || !onOxygen) return 0;
  if (spo2 <= 94) return 1;
  if (spo2 <= 96) return 2;
  return 3;
}

export function systolicPoints(sbp: number): number {
  if (sbp <= 90) return 3;
  if (sbp <= 100) return 2;
  if (sbp <= 110) return 1;
  if (sbp <= 219) return 0;
  return 3;
}

export function pulsePoints(hr: number): number {
  if (hr <= 40) return 3;
  if (hr <= 50) return 1;
  if (hr <= 90) return 0;
  if (hr <= 110) return 1;
  if (hr <= 130) return 2;
  return 3;
}

export function temperaturePoints(t: number): number {
  if (t <= 35.0) return 3;
  if (t <= 36.0) return 1;
  if (t <= 38.0) return 0;
  if (t <= 39.0) return 1;
  return 2;
}

function consciousnessPoints(v: News2Input): number | null {
  if (v.confused === true) return 3;
  if (v.avpu === 'V' || v.avpu === 'P' || v.avpu === 'U') return 3;
  if (v.avpu === 'A') return 0;
  return null;
}

export function news2Risk(score: number, redParameter: boolean): News2Risk {
  if (score >= NEWS2_EMERGENCY_SCORE) return 'high';
  if (score >= NEWS2_URGENT_SCORE) return 'medium';
  if (redParameter) return 'low_medium';
  return 'low';
}

export function news2Escalation(score: number, redParameter: boolean): News2Escalation {
  if (score >= NEWS2_EMERGENCY_SCORE) return 'emergency';
  if (score >= NEWS2_URGENT_SCORE || redParameter) return 'urgent';
  return 'none';
}

const COLOURS: Readonly<Record<News2Risk, News2Result['colour']>> = {
  low: 'green',
  low_medium: 'yellow',
  medium: 'orange',
  high: 'red',
};

export function news2Colour(risk: News2Risk): News2Result['colour'] {
  return COLOURS[risk];
}

/** NEWS2 of a set of vitals; `hypercapnic` switches SpO₂ to scale 2. */
export function computeNews2(v: News2Input, options: { hypercapnic?: boolean } = {}): News2Result {
  const scale: 1 | 2 = options.hypercapnic ? 2 : 1;
  const onOxygen = v.on_oxygen === true;
  const breakdown: News2Breakdown = {
    respiratory_rate: has(v.respiratory_rate) ? respirationPoints(v.respiratory_rate) : null,
    spo2: has(v.spo2) ? (scale === 2 ? spo2Scale2Points(v.spo2, onOxygen) : spo2Scale1Points(v.spo2)) : null,
    air_or_oxygen: v.on_oxygen === true ? 2 : v.on_oxygen === false ? 0 : null,
    systolic_bp: has(v.systolic_bp) ? systolicPoints(v.systolic_bp) : null,
    heart_rate: has(v.heart_rate) ? pulsePoints(v.heart_rate) : null,
    consciousness: consciousnessPoints(v),
    temperature: has(v.temperature) ? temperaturePoints(v.temperature) : null,
  };
  const points = Object.values(breakdown);
  const score = points.reduce<number>((sum, p) => sum + (p ?? 0), 0);
  const redParameter = points.some((p) => p === 3);
  const risk = news2Risk(score, redParameter);
  return {
    score,
    complete: points.every((p) => p !== null),
    spo2_scale: scale,
    breakdown,
    red_parameter: redParameter,
    risk,
    escalation: news2Escalation(score, redParameter),
    colour: news2Colour(risk),
  };
}

/** NEWS2 is computed from 16 years; an unknown age is treated as an adult's. */
export function news2Applies(ageYears: number | null | undefined): boolean {
  return ageYears === null || ageYears === undefined || ageYears >= NEWS2_MIN_AGE;
}
