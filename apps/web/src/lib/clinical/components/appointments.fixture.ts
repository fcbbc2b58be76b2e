/** Appointments as the server answers them, for the web tests (appointments pages, calendar, dashboard tab). */
import type { TAppointment, TAppointmentDetail, TSlot } from '@greensen/shared/contracts/appointments';

export const APPOINTMENT_ID = '0190f0f0-aaaa-7222-8333-444455550001';
export const PATIENT_ID = '0190f0f0-bbbb-7222-8333-444455550001';
export const DOCTOR_ID = '0190f0f0-cccc-7222-8333-444455550001';
export const DEPARTMENT_ID = '0190f0f0-dddd-7222-8333-444455550001';
export const SCHEDULE_ID = '0190f0f0-eeee-7222-8333-444455550001';
export const ADMISSION_ID = '0190f0f0-ffff-7222-8333-444455550001';

export const DOCTOR = { id: DOCTOR_ID, full_name: 'Dr Awa Diop' };
export const DEPARTMENT = { id: DEPARTMENT_ID, code: 'CDF', name: 'Consultations', kind: 'clinical' };
export const PATIENT = {
  id: PATIENT_ID,
  record_number: 'HGG-000042',
  full_name: 'Bénédicte Ngalula',
  sex: 'F' as const,
  age: 34,
  allergies: [],
  allergies_recorded: true,
  deceased_at: null,
};

/** A time today (local) at `hour`:`minute`, as an ISO instant. */
export function todayAt(hour: number, minute = 0, days = 0): string {
  const now = new Date();
  return new Date(now.getFullYear(), now.getMonth(), now.getDate() + days, hour, minute).toISOString();
}

export function appointment(overrides: Partial<TAppointment> = {}): TAppointment {
  const start = overrides.start ?? todayAt(9, 0, 1);
  return {
    id: APPOINTMENT_ID,
    patient: PATIENT,
    provider: DOCTOR,
    department: DEPARTMENT,
    start,
    end: overrides.end ?? new Date(new Date(start).getTime() + 20 * 60_000).toISOString(),
    appointment_type: 'follow_up',
    reason: 'Contrôle de tension',
    notes: null,
    status: 'booked',
    cancel_reason: null,
    overbooked: false,
    overbooked_by: null,
    booked_by: { id: 'u-sec', full_name: 'Grâce Mbuyi' },
    created_at: '2026-11-20T08:00:00Z',
    confirmed_at: null,
    checked_in_at: null,
    completed_at: null,
    no_show_at: null,
    cancelled_at: null,
    admission: null,
    reschedule_count: 0,
    ...overrides,
  } as TAppointment;
}

export function appointmentDetail(overrides: Partial<TAppointmentDetail> = {}): TAppointmentDetail {
  return { ...appointment(overrides), history: [], ...overrides } as TAppointmentDetail;
}

export function slot(start: string, overrides: Partial<TSlot> = {}): TSlot {
  return {
    start,
    end: new Date(new Date(start).getTime() + 20 * 60_000).toISOString(),
    provider: DOCTOR,
    department: DEPARTMENT_ID,
    schedule: SCHEDULE_ID,
    capacity: 1,
    booked: 0,
    free: 1,
    types: ['new', 'follow_up'],
    ...overrides,
  };
}

export const page = <T>(results: T[]) =>
  Response.json({ count: results.length, next: null, previous: null, results });
