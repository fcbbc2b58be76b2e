import { describe, expect, it } from 'vitest';
import { ACTION_GROUPS } from './permissions.js';

describe('clinical action permissions', () => {
  it('lets the front desk register patients and admissions but never start a consultation', () => {
    expect(ACTION_GROUPS['patient.register']).toContain('secretary');
    expect(ACTION_GROUPS['admission.create']).toContain('secretary');
    expect(ACTION_GROUPS['consultation.start']).not.toContain('secretary');
    expect(ACTION_GROUPS['consultation.start']).toEqual(['doctor', 'head_doctor', 'midwife']);
  });

  it('lets only the front desk, queue managers and head doctors assign patients (issue 6)', () => {
    expect(ACTION_GROUPS['patient.assign']).toEqual(['secretary', 'queue_manager', 'head_doctor']);
  });

  it('keeps triage with the clinical staff and the queue manager', () => {
    expect(ACTION_GROUPS['triage.record']).not.toContain('secretary');
    expect(ACTION_GROUPS['triage.record']).toContain('nurse');
  });

  it('leaves archiving a patient to the front desk, queue managers, head doctors and administrators', () => {
    expect(ACTION_GROUPS['patient.archive']).toEqual(['secretary', 'queue_manager', 'head_doctor', 'admin']);
  });
});

describe('nursing care permissions (issue 20)', () => {
  it('gives care to the care team and the charge nurse, never to administrators or the front desk', () => {
    expect(ACTION_GROUPS['care.write']).toContain('nurse');
    expect(ACTION_GROUPS['care.write']).toContain('queue_manager');
    expect(ACTION_GROUPS['care.read']).not.toContain('admin');
    expect(ACTION_GROUPS['care.read']).not.toContain('secretary');
  });
});
