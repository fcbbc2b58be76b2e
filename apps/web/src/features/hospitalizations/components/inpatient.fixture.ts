/** Answers of the inpatient API for the tests (shapes of @greensen/shared/contracts/hospitalizations). */
import type {
  TBedBoard,
  TCensus,
  THospitalizationDetail,
  THospitalizationListItem,
} from '@greensen/shared/contracts/hospitalizations';
import type { Mock } from 'vitest';

export const DEP = {
  id: '0190f0f0-2222-7222-8333-444455556666',
  code: 'MED',
  name: 'Médecine interne',
  kind: 'clinical',
};
export const WARD = { id: '0190f0f0-1111-7222-8333-444455556666', code: 'MED-A', name: 'Médecine A' };
export const ROOM = { id: '0190f0f0-3333-7222-8333-444455556666', name: '12' };
export const BED_A = '0190f0f0-4444-7222-8333-444455556661';
export const BED_B = '0190f0f0-4444-7222-8333-444455556662';
export const BED_C = '0190f0f0-4444-7222-8333-444455556663';
export const STAY_PENDING = '0190f0f0-5555-7222-8333-444455556661';
export const STAY_ADMITTED = '0190f0f0-5555-7222-8333-444455556662';
const DOCTOR = { id: '0190f0f0-6666-7222-8333-444455556666', full_name: 'Awa Diop' };

const patient = (id: string, full_name: string, allergies: string[] = []) => ({
  id,
  record_number: `HGG-${id.slice(-4)}`,
  full_name,
  sex: 'F' as const,
  age: 54,
  allergies,
  allergies_recorded: true,
});

export function stayItem(overrides: Partial<THospitalizationListItem> = {}): THospitalizationListItem {
  return {
    id: STAY_PENDING,
    patient: patient('0190f0f0-7777-7222-8333-444455556661', 'Bénédicte Ngalula', ['Pénicilline']),
    department: DEP,
    doctor: DOCTOR,
    status: 'pending_bed',
    reason: 'Paludisme grave',
    provisional_diagnosis: { code: 'B50.9', label: 'Paludisme à Plasmodium falciparum, sans précision' },
    expected_days: 5,
    place: null,
    requested_at: '2026-03-01T08:00:00Z',
    admitted_at: null,
    ended_at: null,
    days: 1,
    open_transfer: null,
    ...overrides,
  };
}

export function stayDetail(overrides: Partial<THospitalizationDetail> = {}): THospitalizationDetail {
  return {
    ...stayItem({
      id: STAY_ADMITTED,
      status: 'admitted',
      place: { bed: { id: BED_B, label: 'B' }, room: ROOM, ward: WARD },
      admitted_at: '2026-03-01T09:00:00Z',
      days: 3,
    }),
    admission: '0190f0f0-8888-7222-8333-444455556666',
    consultation: null,
    consultation_diagnoses: [],
    bed_moves: [],
    discharge: null,
    created_by: DOCTOR,
    orders: [],
    can: { edit: true, assign_bed: true, note: true, discharge: true },
    ...overrides,
  };
}

export function board(): TBedBoard {
  return {
    wards: [
      {
        ...WARD,
        department: DEP,
        sex_restriction: null,
        min_age: null,
        max_age: null,
        beds: { total: 3, free: 1, occupied: 1, cleaning: 1, out_of_service: 0 },
        rooms: [
          {
            ...ROOM,
            beds: [
              { id: BED_A, label: 'A', status: 'free', status_reason: null, occupant: null },
              {
                id: BED_B,
                label: 'B',
                status: 'occupied',
                status_reason: null,
                occupant: {
                  hospitalization: STAY_ADMITTED,
                  patient: patient('0190f0f0-7777-7222-8333-444455556662', 'Joseph Kabila'),
                  days: 3,
                  main_diagnosis: { code: 'J18.9', label: 'Pneumopathie, sans précision' },
                  doctor: DOCTOR,
                  open_transfer: null,
                },
              },
              { id: BED_C, label: 'C', status: 'cleaning', status_reason: null, occupant: null },
            ],
          },
        ],
      },
    ],
    pending: [stayItem()],
    pending_count: 1,
  };
}

export function census(): TCensus {
  return {
    wards: [
      {
        ...WARD,
        department: DEP,
        beds: { total: 3, free: 1, occupied: 1, cleaning: 1, out_of_service: 0 },
        occupancy_rate: 1 / 3,
      },
    ],
    totals: {
      total: 3,
      free: 1,
      occupied: 1,
      cleaning: 1,
      out_of_service: 0,
      occupancy_rate: 1 / 3,
      pending: 1,
    },
  };
}

export const page = (results: unknown[]) =>
  Response.json({ count: results.length, next: null, previous: null, results });

export interface Call {
  method: string;
  path: string;
  body: unknown;
}

/** The calls the page made (method, path, JSON body), from the fake server of renderApp. */
export function callsOf(fetchMock: Mock): Call[] {
  return (fetchMock.mock.calls as unknown as [RequestInfo | URL, RequestInit | undefined][]).map(
    ([input, init]) => ({
      method: init?.method ?? 'GET',
      path: new URL(String(input), 'http://localhost').pathname,
      body: init?.body ? JSON.parse(String(init.body)) : undefined,
    }),
  );
}
