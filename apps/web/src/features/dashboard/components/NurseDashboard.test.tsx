import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeMediaQueryList } from '../../../test/media-query';
import { locationOf, makeUser, renderApp } from '../../../test/render';

beforeEach(() => {
  // The table shows a cell while its column's media query matches (the empty query, which a browser always
  // matches; the test setup's stub matches nothing).
  vi.spyOn(window, 'matchMedia').mockImplementation((query) =>
    fakeMediaQueryList(query, !query.includes('prefers-')),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const NURSE = '0190f0f0-abcd-7222-8333-444455556666';
const STAY = '0190f0f0-5555-7222-8333-444455556662';
const nurse = makeUser({
  id: NURSE,
  active_roles: [{ role_code: 'NURSE', hospital: 'h1', department: null }],
});

const inpatient = {
  id: STAY,
  patient: {
    id: '0190f0f0-7777-7222-8333-444455556662',
    record_number: 'HGG-0042',
    full_name: 'Joseph Kabila',
    sex: 'M',
    age: 61,
    allergies: ['Pénicilline'],
    allergies_recorded: true,
  },
  department: {
    id: '0190f0f0-2222-7222-8333-444455556666',
    code: 'MED',
    name: 'Médecine interne',
    kind: 'clinical',
  },
  doctor: { id: '0190f0f0-6666-7222-8333-444455556666', full_name: 'Awa Diop' },
  status: 'admitted',
  reason: 'Pneumopathie',
  provisional_diagnosis: { code: 'J18.9', label: 'Pneumopathie, sans précision' },
  expected_days: 2,
  place: {
    bed: { id: '0190f0f0-4444-7222-8333-444455556662', label: 'B' },
    room: { id: '0190f0f0-3333-7222-8333-444455556666', name: '12' },
    ward: { id: '0190f0f0-1111-7222-8333-444455556666', code: 'MED-A', name: 'Médecine A' },
  },
  requested_at: '2026-03-01T08:00:00Z',
  admitted_at: '2026-03-01T09:00:00Z',
  ended_at: null,
  days: 4,
  open_transfer: null,
  latest_vitals: {
    recorded_at: '2026-03-04T06:30:00Z',
    temperature: 38.4,
    heart_rate: 104,
    respiratory_rate: 22,
    systolic_bp: 128,
    diastolic_bp: 79,
    spo2: 93,
  },
  news2: {
    score: 10,
    risk: 'high',
    escalation: 'emergency',
    complete: true,
    recorded_at: '2026-03-04T06:30:00Z',
  },
  flags: ['allergies', 'overstay'],
};

const stable = {
  ...inpatient,
  id: '0190f0f0-5555-7222-8333-444455556663',
  patient: { ...inpatient.patient, id: '0190f0f0-7777-7222-8333-444455556663', full_name: 'Marie Tshala' },
  latest_vitals: null,
  news2: null,
  flags: [],
};

describe("the nurse's patients", () => {
  it("lists the inpatients of the nurse's wards with bed, days, latest vitals and flags, and opens the stay", async () => {
    const { fetchMock, router } = renderApp('/', {
      user: nurse,
      routes: {
        [`/api/nurses/${NURSE}/patients/`]: () =>
          Response.json({ count: 1, next: null, previous: null, results: [inpatient] }),
      },
    });
    const name = await screen.findByText('Joseph Kabila', {}, { timeout: 15_000 });
    const row = name.closest('tr') as HTMLElement;
    expect(within(row).getByText('Ch. 12 · Lit B')).toBeInTheDocument();
    expect(within(row).getByText('Médecine A')).toBeInTheDocument();
    expect(within(row).getByText('J4')).toBeInTheDocument();
    expect(within(row).getByText('T 38,4 °C · FC 104 · TA 128/79 · FR 22 · SpO₂ 93 %')).toBeInTheDocument();
    expect(within(row).getByText('Durée prévue dépassée')).toBeInTheDocument();
    // The NEWS2 of the patient's one series of vitals (issue 37), in its colour.
    expect(within(row).getByTestId('nurse-news2')).toHaveTextContent('NEWS2 10');
    expect(within(row).getByTestId('nurse-news2')).toHaveAttribute('data-risk', 'high');
    expect(within(row).getByTestId('allergy-badge')).toHaveTextContent('Pénicilline');
    const asked = (fetchMock.mock.calls as unknown as [RequestInfo | URL][]).map(
      ([input]) => new URL(String(input), 'http://localhost').pathname,
    );
    expect(asked).toContain(`/api/nurses/${NURSE}/patients/`);
    await userEvent.setup().click(name);
    await waitFor(() => expect(locationOf(router)).toBe(`/hospitalizations/${STAY}`));
  });

  it('shows the NEWS2 column, and says so for a patient without vitals', async () => {
    renderApp('/', {
      user: nurse,
      routes: {
        [`/api/nurses/${NURSE}/patients/`]: () =>
          Response.json({ count: 2, next: null, previous: null, results: [inpatient, stable] }),
      },
    });
    const name = await screen.findByText('Marie Tshala', {}, { timeout: 15_000 });
    const row = name.closest('tr') as HTMLElement;
    expect(within(row).getByText('Pas de NEWS2')).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'NEWS2' })).toBeInTheDocument();
  });

  it('says so when no inpatient is in her wards', async () => {
    renderApp('/', {
      user: nurse,
      routes: {
        [`/api/nurses/${NURSE}/patients/`]: () =>
          Response.json({ count: 0, next: null, previous: null, results: [] }),
      },
    });
    expect(
      await screen.findByText('Aucun patient hospitalisé dans vos unités.', {}, { timeout: 15_000 }),
    ).toBeInTheDocument();
  });
});
