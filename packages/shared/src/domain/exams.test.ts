import { describe, expect, it } from 'vitest';
import { isExamValidatedNotification } from './exam-notifications.js';
import {
  ageInYears,
  availableExamActions,
  canMoveExam,
  computeExamResults,
  EXAM_STATUSES,
  type ExamActor,
  type ExamField,
  type ExamOrderFacts,
  type ExamStatus,
  examActionLegal,
  examActionPermitted,
  examResultLines,
  flagOf,
  REFERENCE_ABSENT,
  referenceRange,
  referenceText,
  validateExamValues,
} from './exams.js';

const HB: ExamField = {
  key: 'hb',
  label_fr: 'Hémoglobine',
  label_en: 'Haemoglobin',
  type: 'number',
  unit: 'g/dL',
  min: 1,
  max: 25,
  decimals: 1,
  ranges: [
    { age_max: 0, low: 10, high: 18 },
    { age_min: 1, age_max: 11, low: 11, high: 14.5 },
    { sex: 'F', age_min: 12, low: 12, high: 16 },
    { sex: 'M', age_min: 12, low: 13, high: 17 },
  ],
};
const MALARIA: ExamField = {
  key: 'result',
  label_fr: 'Résultat',
  label_en: 'Result',
  type: 'choice',
  choices: [
    { value: 'negative', label_fr: 'Négatif', label_en: 'Negative' },
    { value: 'pf', label_fr: 'Positif P. falciparum', label_en: 'Positive P. falciparum', abnormal: true },
  ],
};
const NOTE: ExamField = { key: 'note', label_fr: 'Note', label_en: 'Note', type: 'text', optional: true };

describe('exam status machine', () => {
  it('moves requested → in_progress → completed → validated, and cancels before the results', () => {
    expect(canMoveExam('requested', 'in_progress')).toBe(true);
    expect(canMoveExam('in_progress', 'completed')).toBe(true);
    expect(canMoveExam('completed', 'validated')).toBe(true);
    expect(canMoveExam('requested', 'cancelled')).toBe(true);
    expect(canMoveExam('in_progress', 'cancelled')).toBe(true);
  });

  it('refuses skipping steps, going back, and any move out of validated or cancelled', () => {
    expect(canMoveExam('requested', 'completed')).toBe(false);
    expect(canMoveExam('requested', 'validated')).toBe(false);
    expect(canMoveExam('in_progress', 'validated')).toBe(false);
    expect(canMoveExam('completed', 'cancelled')).toBe(false);
    expect(canMoveExam('completed', 'in_progress')).toBe(false);
    for (const to of EXAM_STATUSES) {
      expect(canMoveExam('validated', to)).toBe(false);
      expect(canMoveExam('cancelled', to)).toBe(false);
    }
  });

  it('lets results be corrected until validation; acknowledge only a validated order', () => {
    expect(examActionLegal('completed', 'results')).toBe(true);
    expect(examActionLegal('validated', 'results')).toBe(false);
    expect(examActionLegal('validated', 'acknowledge')).toBe(true);
    expect(examActionLegal('completed', 'acknowledge')).toBe(false);
    expect(examActionLegal('in_progress', 'start')).toBe(false);
  });
});

describe('who may act on an order', () => {
  const LAB = 'dep-lab';
  const URG = 'dep-urg';
  const order = (status: ExamStatus = 'requested'): ExamOrderFacts => ({
    status,
    requestedBy: 'doc',
    departmentId: LAB,
  });
  const actor = (id: string, ...m: [string | null, ExamActor['memberships'][number]['group']][]) => ({
    id,
    memberships: m.map(([departmentId, group]) => ({ departmentId, group })),
  });
  const requester = actor('doc', [URG, 'doctor']);
  const technician = actor('tech', [LAB, 'nurse']);
  const biologist = actor('bio', [LAB, 'doctor']);
  const head = actor('chef', [URG, 'head_doctor']);
  const wardNurse = actor('nurse', [URG, 'nurse']);
  const otherDoctor = actor('doc2', [URG, 'doctor']);

  it('lets the performing department and head doctors start and enter results, no one else', () => {
    for (const a of [technician, biologist, head])
      expect(examActionPermitted(a, order(), 'results'), a.id).toBe(true);
    for (const a of [requester, wardNurse, otherDoctor])
      expect(examActionPermitted(a, order(), 'start'), a.id).toBe(false);
  });

  it('leaves validation to doctors of the performing department and head doctors', () => {
    expect(examActionPermitted(biologist, order('completed'), 'validate')).toBe(true);
    expect(examActionPermitted(head, order('completed'), 'validate')).toBe(true);
    expect(examActionPermitted(technician, order('completed'), 'validate')).toBe(false);
    expect(examActionPermitted(requester, order('completed'), 'validate')).toBe(false);
  });

  it('a nurse who is a doctor elsewhere does not validate in the lab', () => {
    const mixed = actor('mixed', [LAB, 'nurse'], [URG, 'doctor']);
    expect(examActionPermitted(mixed, order('completed'), 'validate')).toBe(false);
    expect(examActionPermitted(mixed, order('completed'), 'results')).toBe(true);
  });

  it('lets the requester or a head doctor cancel; the lab only while requested', () => {
    expect(examActionPermitted(requester, order('in_progress'), 'cancel')).toBe(true);
    expect(examActionPermitted(head, order('in_progress'), 'cancel')).toBe(true);
    expect(examActionPermitted(technician, order('requested'), 'cancel')).toBe(true);
    expect(examActionPermitted(technician, order('in_progress'), 'cancel')).toBe(false);
    expect(examActionPermitted(otherDoctor, order('requested'), 'cancel')).toBe(false);
  });

  it('only the requester acknowledges', () => {
    expect(examActionPermitted(requester, order('validated'), 'acknowledge')).toBe(true);
    expect(examActionPermitted(head, order('validated'), 'acknowledge')).toBe(false);
  });

  it('offers the actions both permitted and legal', () => {
    expect(availableExamActions(technician, order('requested'))).toEqual(['start', 'cancel']);
    expect(availableExamActions(technician, order('in_progress'))).toEqual(['results']);
    expect(availableExamActions(biologist, order('completed'))).toEqual(['results', 'validate']);
    expect(availableExamActions(requester, order('validated'))).toEqual(['acknowledge']);
    expect(availableExamActions(wardNurse, order('requested'))).toEqual([]);
  });
});

describe('age at the sampling date', () => {
  it('counts whole years completed, the birthday included', () => {
    expect(ageInYears('2000-06-15', '2026-06-14T10:00:00Z')).toBe(25);
    expect(ageInYears('2000-06-15', '2026-06-15T10:00:00Z')).toBe(26);
    expect(ageInYears('2026-01-01', '2026-05-01T00:00:00Z')).toBe(0);
  });
  it('is null without a birth date and never negative', () => {
    expect(ageInYears(null, new Date())).toBeNull();
    expect(ageInYears('2030-01-01', '2026-01-01T00:00:00Z')).toBe(0);
  });
});

describe('flags against the reference range for sex and age', () => {
  it('uses the sex-specific adult range', () => {
    expect(flagOf(HB, 12.5, { sex: 'F', age: 30 })).toBeNull();
    expect(flagOf(HB, 12.5, { sex: 'M', age: 30 })).toBe('low');
    expect(flagOf(HB, 16.5, { sex: 'F', age: 30 })).toBe('high');
    expect(flagOf(HB, 16.5, { sex: 'M', age: 30 })).toBeNull();
  });
  it('uses the child range by age, bounds included, then the infant one', () => {
    expect(referenceRange(HB, { sex: 'M', age: 11 })).toMatchObject({ low: 11, high: 14.5 });
    expect(referenceRange(HB, { sex: 'M', age: 12 })).toMatchObject({ low: 13, high: 17 });
    expect(flagOf(HB, 10.5, { sex: 'F', age: 5 })).toBe('low');
    expect(flagOf(HB, 10.5, { sex: 'F', age: 0 })).toBeNull();
  });
  it('has no flag when no range applies (unknown age), for text, or for an empty value', () => {
    expect(flagOf(HB, 3, { sex: 'F', age: null })).toBeNull();
    expect(flagOf(NOTE, 'x', { sex: 'F', age: 30 })).toBeNull();
    expect(flagOf(HB, null, { sex: 'F', age: 30 })).toBeNull();
  });
  it('flags a choice marked abnormal', () => {
    expect(flagOf(MALARIA, 'pf', { sex: 'F', age: 30 })).toBe('abnormal');
    expect(flagOf(MALARIA, 'negative', { sex: 'F', age: 30 })).toBeNull();
  });
  it('writes the range for display', () => {
    expect(referenceText({ low: 12, high: 16 })).toBe('12 – 16');
    expect(referenceText({ high: 5 })).toBe('≤ 5');
    expect(referenceText({ low: 60 })).toBe('≥ 60');
    expect(referenceText(null)).toBeNull();
  });
  it('writes a range of at most 0 (a parasite density) as absence, not `≤ 0`', () => {
    expect(referenceText({ high: 0 })).toBe(REFERENCE_ABSENT);
    expect(referenceText({ low: 0, high: 0 })).toBe(REFERENCE_ABSENT);
    expect(referenceText({ low: 0, high: 5 })).toBe('0 – 5');
    expect(referenceText({ high: 0.5 })).toBe('≤ 0.5');
    expect(referenceText({ low: 0 })).toBe('≥ 0');
  });
});

describe('validation of entered values', () => {
  const fields = [HB, MALARIA, NOTE];
  it('accepts valid values and nulls the empty optional ones', () => {
    const r = validateExamValues('lab', fields, { hb: 9.5, result: 'pf', note: '' }, null);
    expect(r.issues).toEqual([]);
    expect(r.values).toEqual({ hb: 9.5, result: 'pf', note: null });
  });
  it('refuses unknown keys, non-numbers, implausible numbers, unknown choices and missing values', () => {
    const r = validateExamValues('lab', fields, { hb: '9.5', result: 'maybe', extra: 1 }, null);
    expect(r.issues).toEqual(
      expect.arrayContaining([
        { path: 'results.extra', code: 'field_unknown' },
        { path: 'results.hb', code: 'value_not_number' },
        { path: 'results.result', code: 'choice_invalid' },
      ]),
    );
    const bounds = validateExamValues('lab', fields, { hb: 250, result: 'pf' }, null);
    expect(bounds.issues).toEqual([
      { path: 'results.hb', code: 'value_out_of_bounds', params: { min: 1, max: 25 } },
    ]);
    const missing = validateExamValues('lab', fields, { result: 'pf' }, null);
    expect(missing.issues).toEqual([{ path: 'results.hb', code: 'value_required' }]);
    const precise = validateExamValues('lab', fields, { hb: 9.55, result: 'pf' }, null);
    expect(precise.issues[0]).toMatchObject({ path: 'results.hb', code: 'value_too_precise' });
  });
  it('requires the report of an imaging exam', () => {
    expect(validateExamValues('imaging', [], {}, '  ').issues).toEqual([
      { path: 'report', code: 'report_required' },
    ]);
    expect(validateExamValues('imaging', [], {}, 'Poumons clairs.').issues).toEqual([]);
  });
});

describe('computed results', () => {
  it('flags each value and marks the order abnormal when one is', () => {
    const patient = { sex: 'M' as const, age: 40 };
    const normal = computeExamResults([HB, MALARIA], { hb: 14, result: 'negative' }, patient);
    expect(normal).toEqual({
      abnormal: false,
      results: { hb: { value: 14, flag: null }, result: { value: 'negative', flag: null } },
    });
    const abnormal = computeExamResults([HB, MALARIA], { hb: 8, result: 'negative' }, patient);
    expect(abnormal.abnormal).toBe(true);
    expect(abnormal.results.hb).toEqual({ value: 8, flag: 'low' });
  });
  it('lists entered results with labels, units and the patient’s range', () => {
    const lines = examResultLines(
      [HB, MALARIA, NOTE],
      {
        hb: { value: 8, flag: 'low' },
        result: { value: 'pf', flag: 'abnormal' },
        note: { value: null, flag: null },
      },
      { sex: 'F', age: 30 },
    );
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ key: 'hb', unit: 'g/dL', reference: '12 – 16', flag: 'low' });
    expect(lines[1]).toMatchObject({ value_label_fr: 'Positif P. falciparum', flag: 'abnormal' });
  });
});

describe('the validation notification', () => {
  it('is a consultation notification with action exam_validated', () => {
    expect(
      isExamValidatedNotification({ notification_type: 'consultation', data: { action: 'exam_validated' } }),
    ).toBe(true);
    expect(
      isExamValidatedNotification({
        notification_type: 'consultation',
        data: { action: 'patient_assigned' },
      }),
    ).toBe(false);
    expect(
      isExamValidatedNotification({ notification_type: 'other', data: { action: 'exam_validated' } }),
    ).toBe(false);
  });
});
