/** A consultation record as the API returns it, for the web tests. */
import type { TConsultationDetail } from '@greensen/shared/contracts/consultations';

export const CONSULTATION_ID = '0190f0f0-1111-7222-8333-444455556666';

export function consultationRecord(over: Partial<TConsultationDetail> = {}): TConsultationDetail {
  return {
    id: CONSULTATION_ID,
    status: 'in_progress',
    patient: {
      id: '0190f0f0-aaaa-7222-8333-444455556666',
      record_number: 'HGG-000042',
      full_name: 'Bénédicte Ngalula',
      sex: 'F',
      age: 46,
      allergies: ['Aspirine'],
      allergies_recorded: true,
    },
    department: {
      id: '0190f0f0-bbbb-7222-8333-444455556666',
      code: 'URG',
      name: 'Urgences',
      kind: 'emergency',
    },
    doctor: { id: 'u2', full_name: 'Awa Diop' },
    admission_id: null,
    admission_type: null,
    reason: 'Fièvre',
    started_at: '2026-05-04T08:00:00Z',
    completed_at: null,
    primary_diagnosis: null,
    outcome: null,
    access: 'read',
    admission: null,
    history: 'Fièvre depuis 3 jours',
    current_treatment: null,
    allergies: null,
    allergies_confirmed: false,
    examination: null,
    vitals: null,
    conclusion: null,
    plan: null,
    outcome_notes: null,
    follow_up_date: null,
    version: 3,
    completed_by: null,
    cancel_reason: null,
    cancelled_at: null,
    updated_at: '2026-05-04T08:10:00Z',
    may_add_addendum: false,
    addenda: [],
    diagnoses: [],
    triage: null,
    ...over,
  };
}
