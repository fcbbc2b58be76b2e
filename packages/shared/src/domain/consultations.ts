/**
 * Consultation rules shared by the server and the web (issue 7): statuses, outcomes, where each outcome
 * takes the visit, and what a consultation still lacks before it can be completed. Who may read or edit one
 * is the consultation-access rule (consultation-access.ts).
 */
import type { AdmissionStatus } from './admissions.js';

export const CONSULTATION_STATUSES = ['in_progress', 'completed', 'cancelled'] as const;
export type ConsultationStatus = (typeof CONSULTATION_STATUSES)[number];

export const CONSULTATION_OUTCOMES = ['discharge', 'hospitalize', 'refer', 'follow_up', 'deceased'] as const;
export type ConsultationOutcome = (typeof CONSULTATION_OUTCOMES)[number];

export const DIAGNOSIS_RANKS = ['primary', 'secondary'] as const;
export type DiagnosisRank = (typeof DIAGNOSIS_RANKS)[number];
export const DIAGNOSIS_CERTAINTIES = ['confirmed', 'suspected'] as const;
export type DiagnosisCertainty = (typeof DIAGNOSIS_CERTAINTIES)[number];

/** The status the visit takes when its consultation completes with an outcome. */
export const OUTCOME_ADMISSION_STATUS: Readonly<Record<ConsultationOutcome, AdmissionStatus>> = {
  discharge: 'completed',
  follow_up: 'completed',
  deceased: 'completed',
  hospitalize: 'hospitalized',
  refer: 'transferred',
};

/** The sections a draft save may change (the text sections, allergies, vitals, outcome). */
export const CONSULTATION_TEXT_SECTIONS = [
  'reason',
  'history',
  'current_treatment',
  'examination',
  'conclusion',
  'plan',
] as const;
export type ConsultationTextSection = (typeof CONSULTATION_TEXT_SECTIONS)[number];

export interface CompletionFacts {
  /** An active primary diagnosis exists. */
  readonly hasPrimaryDiagnosis: boolean;
  readonly outcome: ConsultationOutcome | null | undefined;
  readonly followUpDate: string | null | undefined;
}

/** Why a consultation cannot complete yet, as `field → message key` (the server's 400 body, the web's list). */
export type CompletionProblem =
  | { field: 'diagnoses'; key: 'consultations.primary_diagnosis_required' }
  | { field: 'outcome'; key: 'consultations.outcome_required' }
  | { field: 'follow_up_date'; key: 'consultations.follow_up_date_required' }
  | { field: 'follow_up_date'; key: 'consultations.follow_up_date_past' };

/**
 * What is missing before completion: a primary diagnosis, an outcome, and a follow-up date (today or later,
 * `today` as `YYYY-MM-DD` in the hospital's time zone) when the outcome is a follow-up.
 */
export function completionProblems(facts: CompletionFacts, today: string): CompletionProblem[] {
  const problems: CompletionProblem[] = [];
  if (!facts.hasPrimaryDiagnosis)
    problems.push({ field: 'diagnoses', key: 'consultations.primary_diagnosis_required' });
  if (!facts.outcome) problems.push({ field: 'outcome', key: 'consultations.outcome_required' });
  if (facts.outcome === 'follow_up') {
    if (!facts.followUpDate)
      problems.push({ field: 'follow_up_date', key: 'consultations.follow_up_date_required' });
    else if (facts.followUpDate < today)
      problems.push({ field: 'follow_up_date', key: 'consultations.follow_up_date_past' });
  }
  return problems;
}
