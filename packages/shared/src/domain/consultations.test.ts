import { describe, expect, it } from 'vitest';
import { ZConsultationUpdate, ZDiagnosisCreate } from '../contracts/consultations.js';
import { completionProblems, OUTCOME_ADMISSION_STATUS } from './consultations.js';
import { ACTION_GROUPS } from './permissions.js';

const TODAY = '2026-05-04';

describe('consultation completion', () => {
  it('needs a primary diagnosis and an outcome', () => {
    expect(
      completionProblems({ hasPrimaryDiagnosis: false, outcome: null, followUpDate: null }, TODAY).map(
        (p) => p.field,
      ),
    ).toEqual(['diagnoses', 'outcome']);
    expect(
      completionProblems({ hasPrimaryDiagnosis: true, outcome: 'discharge', followUpDate: null }, TODAY),
    ).toEqual([]);
  });

  it('needs a follow-up date, today or later, for a follow-up', () => {
    const base = { hasPrimaryDiagnosis: true, outcome: 'follow_up' as const };
    expect(completionProblems({ ...base, followUpDate: null }, TODAY)).toEqual([
      { field: 'follow_up_date', key: 'consultations.follow_up_date_required' },
    ]);
    expect(completionProblems({ ...base, followUpDate: '2026-05-03' }, TODAY)).toEqual([
      { field: 'follow_up_date', key: 'consultations.follow_up_date_past' },
    ]);
    expect(completionProblems({ ...base, followUpDate: TODAY }, TODAY)).toEqual([]);
  });

  it('moves the visit by outcome', () => {
    expect(OUTCOME_ADMISSION_STATUS).toEqual({
      discharge: 'completed',
      follow_up: 'completed',
      deceased: 'completed',
      hospitalize: 'hospitalized',
      refer: 'transferred',
    });
  });
});

describe('consultation contracts', () => {
  it('takes exactly one of an ICD-10 code (normalized) or a free text', () => {
    expect(ZDiagnosisCreate.parse({ icd_code: 'b509', rank: 'primary' })).toMatchObject({
      icd_code: 'B50.9',
      free_text: null,
      rank: 'primary',
      certainty: 'confirmed',
    });
    expect(ZDiagnosisCreate.safeParse({}).success).toBe(false);
    expect(ZDiagnosisCreate.safeParse({ icd_code: 'B50', free_text: 'Paludisme' }).success).toBe(false);
    expect(ZDiagnosisCreate.safeParse({ icd_code: 'paludisme' }).success).toBe(false);
    expect(ZDiagnosisCreate.parse({ free_text: ' Fièvre inexpliquée ' }).free_text).toBe(
      'Fièvre inexpliquée',
    );
  });

  it('requires the version on a draft save and bounds the vitals like triage', () => {
    expect(ZConsultationUpdate.safeParse({ history: 'x' }).success).toBe(false);
    expect(ZConsultationUpdate.safeParse({ version: 1, vitals: { heart_rate: 400 } }).success).toBe(false);
    expect(ZConsultationUpdate.parse({ version: 2, history: '   ' })).toEqual({ version: 2, history: null });
  });

  it('leaves consultations to practitioners', () => {
    for (const action of ['consultation.create', 'consultation.edit', 'consultation.addendum'] as const)
      expect(ACTION_GROUPS[action]).toEqual(['doctor', 'head_doctor', 'midwife']);
  });
});
