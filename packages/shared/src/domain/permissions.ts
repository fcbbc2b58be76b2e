/**
 * Which role groups may take each clinical action. The server's routes declare exactly these lists in
 * their access policy; the web app reads the same lists only to hide what the user may not do.
 */
import type { DashboardGroup } from './roles.js';

export type Action =
  | 'patient.register'
  | 'patient.archive'
  | 'admission.create'
  | 'admission.status'
  | 'admission.cancel'
  | 'triage.record'
  | 'patient.assign'
  | 'consultation.start';

const CARE: readonly DashboardGroup[] = ['nurse', 'doctor', 'head_doctor', 'midwife'];

export const ACTION_GROUPS: Readonly<Record<Action, readonly DashboardGroup[]>> = {
  'patient.register': ['secretary', 'queue_manager', ...CARE, 'admin'],
  'patient.archive': ['secretary', 'queue_manager', 'head_doctor', 'admin'],
  'admission.create': ['secretary', 'queue_manager', ...CARE, 'admin'],
  'admission.status': ['doctor', 'head_doctor', 'midwife', 'queue_manager'],
  'admission.cancel': ['secretary', 'queue_manager', ...CARE],
  'triage.record': ['nurse', 'queue_manager', 'doctor', 'head_doctor', 'midwife'],
  'patient.assign': ['secretary', 'queue_manager', 'head_doctor'],
  'consultation.start': ['doctor', 'head_doctor', 'midwife'],
};
