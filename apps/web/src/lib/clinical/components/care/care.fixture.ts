/** Test data of nursing care (issue 20): a plan, executions, a MAR line with its doses, handoffs, a round. */
import type {
  TCareExecution,
  TCarePlan,
  TDose,
  THandoff,
  TMarLine,
  TShift,
  TTask,
} from '@greensen/shared/contracts/care';

export const NURSE_ID = '0190f0f0-abcd-7222-8333-444455556666';
export const PLAN_ID = '0190f0f0-c0c0-7222-8333-444455556601';
export const STAY_ID = '0190f0f0-5555-7222-8333-444455556662';
export const LINE_ID = '0190f0f0-1e1e-7222-8333-444455556601';
export const DEPARTMENT = {
  id: '0190f0f0-2222-7222-8333-444455556666',
  code: 'URG',
  name: 'Urgences',
  kind: 'emergency',
};
export const PLACE = {
  bed: { id: '0190f0f0-4444-7222-8333-444455556662', label: 'B' },
  room: { id: '0190f0f0-3333-7222-8333-444455556666', name: '12' },
  ward: { id: '0190f0f0-1111-7222-8333-444455556666', code: 'URG-OBS', name: 'Observation' },
};
export const PATIENT = {
  id: '0190f0f0-7777-7222-8333-444455556662',
  record_number: 'HGG-0042',
  full_name: 'Joseph Kabila',
  sex: 'M' as const,
  age: 61,
  allergies: ['Pénicilline'],
  allergies_recorded: true,
};
export const SHIFT: TShift = {
  start: '2026-03-04T07:00:00Z',
  end: '2026-03-04T19:00:00Z',
  label: '07:00',
  time_zone: 'Africa/Kinshasa',
};

export function plan(overrides: Partial<TCarePlan> = {}): TCarePlan {
  return {
    id: PLAN_ID,
    plan: PLAN_ID,
    hospitalization: STAY_ID,
    admission: null,
    patient: PATIENT,
    department: DEPARTMENT,
    place: PLACE,
    doctor: { id: '0190f0f0-6666-7222-8333-444455556666', full_name: 'Awa Diop' },
    since: '2026-03-01T09:00:00Z',
    hypercapnic: false,
    news2: null,
    overdue: 0,
    due: 1,
    status: 'active',
    goals: null,
    created_by: { id: NURSE_ID, full_name: 'Inès Mbala' },
    created_at: '2026-03-01T09:10:00Z',
    can: { order: true, record: true, assign: true, edit: true },
    ...overrides,
  };
}

export function execution(overrides: Partial<TCareExecution> = {}): TCareExecution {
  return {
    id: '0190f0f0-e0e0-7222-8333-444455556601',
    plan: PLAN_ID,
    order: {
      id: '0190f0f0-0d0d-7222-8333-444455556601',
      kind: 'dressing',
      title: 'Réfection du pansement',
      instructions: null,
      signs: [],
    },
    patient: PATIENT,
    department: DEPARTMENT,
    place: PLACE,
    priority: 'normal',
    scheduled_at: '2026-03-04T08:00:00Z',
    status: 'scheduled',
    late: false,
    assignee: { id: NURSE_ID, full_name: 'Inès Mbala' },
    done_by: null,
    done_at: null,
    not_done_reason: null,
    note: null,
    recorded_at: null,
    ...overrides,
  };
}

export function marLine(doses: TDose[]): TMarLine {
  return {
    id: LINE_ID,
    prescription: '0190f0f0-9999-7222-8333-444455556601',
    medication: { id: '0190f0f0-8888-7222-8333-444455556601', inn_fr: 'Paracétamol', inn_en: 'Paracetamol' },
    strength: '500 mg',
    form: 'tablet',
    dose: 1,
    dose_unit: 'tablet',
    route: 'oral',
    frequency: { kind: 'times_per_day', times: 3 },
    instructions: null,
    starts_at: '2026-03-01T09:00:00Z',
    ends_at: null,
    prescriber: { id: '0190f0f0-6666-7222-8333-444455556666', full_name: 'Awa Diop' },
    as_needed: false,
    doses,
  };
}

export function dose(overrides: Partial<TDose> = {}): TDose {
  return {
    prescription_line: LINE_ID,
    scheduled_at: '2026-03-04T08:00:00Z',
    status: 'due',
    record: null,
    ...overrides,
  };
}

export function executionTask(e: TCareExecution): TTask {
  return { type: 'execution', scheduled_at: e.scheduled_at, late: e.late, execution: e };
}

export function doseTask(d: TDose): TTask {
  const { doses: _doses, ...line } = marLine([d]);
  return {
    type: 'dose',
    scheduled_at: d.scheduled_at,
    late: d.status === 'overdue',
    plan: PLAN_ID,
    patient: PATIENT,
    place: PLACE,
    line,
    dose: d,
  };
}

export function handoff(overrides: Partial<THandoff> = {}): THandoff {
  return {
    id: '0190f0f0-4a4a-7222-8333-444455556601',
    plan: PLAN_ID,
    patient: PATIENT,
    department: DEPARTMENT,
    place: PLACE,
    shift: SHIFT,
    situation: 'Stable, afébrile.',
    background: 'Pneumopathie J3.',
    assessment: 'Amélioration.',
    recommendation: 'Surveiller la SpO₂.',
    changes: [],
    author: { id: '0190f0f0-abab-7222-8333-444455556601', full_name: 'Paul Nkosi' },
    written_at: '2026-03-04T06:45:00Z',
    acknowledged_by: null,
    acknowledged_at: null,
    acknowledge_note: null,
    can: { acknowledge: true },
    ...overrides,
  };
}
