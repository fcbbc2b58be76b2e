import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiUrl } from '../../../lib/api-client';
import {
  DEPARTMENT,
  NURSE_ID,
  PATIENT,
  PLAN_ID,
  plan,
  SHIFT,
  STAY_ID,
} from '../../../lib/clinical/components/care/care.fixture';
import { isKeptRead } from '../../../lib/offline/policy';
import { readCache } from '../../../lib/offline/read-cache';
import { fakeMediaQueryList } from '../../../test/media-query';
import { locationOf, type MockRequest, makeUser, renderApp } from '../../../test/render';

beforeEach(() => {
  vi.spyOn(window, 'matchMedia').mockImplementation((query) =>
    fakeMediaQueryList(query, !query.includes('prefers-')),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const nurse = makeUser({
  id: NURSE_ID,
  full_name: 'Inès Mbala',
  departments: [{ id: DEPARTMENT.id, name: 'Urgences', hospital: 'h1' }],
  active_roles: [{ role_code: 'NURSE', hospital: 'h1', department: DEPARTMENT.id }],
});

const CHILD_STAY = '0190f0f0-5555-7222-8333-444455556663';
const roundPatient = (overrides: Record<string, unknown> = {}) => ({
  ...plan(),
  plan: PLAN_ID,
  news2_applies: true,
  latest: null,
  due_execution: null,
  ...overrides,
});
const child = roundPatient({
  plan: null,
  hospitalization: CHILD_STAY,
  patient: { ...PATIENT, id: '0190f0f0-7777-7222-8333-444455556663', full_name: 'Léa Kabila', age: 7 },
  news2_applies: false,
});

function routes(submit: (r: MockRequest) => Response) {
  return {
    '/api/departments/': () =>
      Response.json({ count: 1, next: null, previous: null, results: [{ ...DEPARTMENT, is_active: true }] }),
    '/api/wards/': () => Response.json({ count: 0, next: null, previous: null, results: [] }),
    '/api/care/patients/': () =>
      Response.json({
        count: 1,
        next: null,
        previous: null,
        results: [{ ...plan(), plan: PLAN_ID, overdue: 2, due: 3, news2: null }],
      }),
    '/api/care/rounds/': (request: MockRequest) =>
      request.method === 'POST'
        ? submit(request)
        : Response.json({ shift: SHIFT, results: [roundPatient(), child] }),
  };
}

async function openRound(submit: (r: MockRequest) => Response = () => Response.json({ results: [] })) {
  const user = userEvent.setup();
  const view = renderApp('/care', { user: nurse, routes: routes(submit) });
  await user.click(await screen.findByRole('tab', { name: 'Tournée' }, { timeout: 15_000 }));
  await screen.findAllByTestId('round-row');
  const row = screen.getAllByTestId('round-row').find((r) => r.dataset.patient === 'Joseph Kabila');
  if (!row) throw new Error('no row');
  return { user, row, ...view };
}

describe('/care', () => {
  it('reads ahead the MAR of the current and next shift of the unit’s plans, and the device keeps them', async () => {
    const keep = vi.spyOn(readCache, 'keep');
    const next = { ...SHIFT, start: '2026-03-04T19:00:00Z', end: '2026-03-05T07:00:00Z', label: '19:00' };
    const asked: string[] = [];
    const mar = (window: { from: string; to: string }) => ({ plan: PLAN_ID, ...window, lines: [] });
    renderApp('/care', {
      user: nurse,
      routes: {
        ...routes(() => Response.json({})),
        '/api/care/shift/': () => Response.json({ current: SHIFT, previous: SHIFT, next }),
        [`/api/care/plans/${PLAN_ID}/mar/`]: (request) => {
          asked.push(request.url.search);
          const from = request.url.searchParams.get('from');
          return Response.json(mar(from ? { from, to: next.end } : { from: SHIFT.start, to: SHIFT.end }));
        },
      },
    });
    // The child's stay has no plan yet: one plan, its two shifts, nothing opened by the nurse.
    const nextUrl = apiUrl(`care/plans/${PLAN_ID}/mar/`, { from: next.start, to: next.end });
    const currentUrl = apiUrl(`care/plans/${PLAN_ID}/mar/`);
    await waitFor(() => expect(keep).toHaveBeenCalledWith(nextUrl, mar({ from: next.start, to: next.end })), {
      timeout: 15_000,
    });
    await waitFor(() =>
      expect(keep).toHaveBeenCalledWith(currentUrl, mar({ from: SHIFT.start, to: SHIFT.end })),
    );
    expect(isKeptRead(nextUrl)).toBe(true);
    expect(asked.sort()).toEqual([
      '',
      `?from=${encodeURIComponent(next.start)}&to=${encodeURIComponent(next.end)}`,
    ]);
  });

  it('lists the patients of the department with their late and due care', async () => {
    renderApp('/care', { user: nurse, routes: routes(() => Response.json({})) });
    expect(await screen.findByText('Joseph Kabila', {}, { timeout: 15_000 })).toBeInTheDocument();
    expect(screen.getByTestId('ward-overdue')).toHaveTextContent('2 en retard');
    expect(screen.getByText('3 à faire')).toBeInTheDocument();
    expect(screen.getByText('Ch. 12 · lit B')).toBeInTheDocument();
  });

  it('opens a stay’s care file from ?stay=: the plan is opened, then its page', async () => {
    const opened: MockRequest[] = [];
    const { router } = renderApp(`/care?stay=${STAY_ID}`, {
      user: nurse,
      routes: {
        '/api/care/plans/': (request) => {
          opened.push(request);
          return Response.json(plan(), { status: 200 });
        },
        [`/api/care/plans/${PLAN_ID}/`]: () => Response.json(plan()),
        [`/api/care/plans/${PLAN_ID}/executions/`]: () =>
          Response.json({ count: 0, next: null, previous: null, results: [] }),
      },
    });
    await waitFor(() => expect(locationOf(router)).toBe(`/care/${PLAN_ID}`), { timeout: 15_000 });
    expect(opened).toHaveLength(1);
    expect(opened[0]?.body).toEqual({ hospitalization: STAY_ID });
  });

  it('the round shows the NEWS2 of what is typed, live, with its colour and the escalation', async () => {
    const { user, row } = await openRound();
    expect(within(row).queryByTestId('live-news2')).not.toBeInTheDocument();
    await user.type(within(row).getByLabelText('Fréquence respiratoire — Joseph Kabila'), '18');
    expect(within(row).getByTestId('live-news2')).toHaveTextContent('NEWS2 0 (partiel)');
    expect(within(row).getByTestId('live-news2')).toHaveAttribute('data-risk', 'low');
    const rr = within(row).getByLabelText('Fréquence respiratoire — Joseph Kabila');
    await user.clear(rr);
    await user.type(rr, '26');
    // A single parameter at 3: low-medium (yellow), already an urgent ward response.
    expect(within(row).getByTestId('live-news2')).toHaveAttribute('data-risk', 'low_medium');
    await user.type(within(row).getByLabelText('SpO₂ — Joseph Kabila'), '91');
    await user.type(within(row).getByLabelText('Température — Joseph Kabila'), '38,6');
    await user.type(within(row).getByLabelText('Pouls — Joseph Kabila'), '112');
    await user.type(within(row).getByLabelText('Pression systolique — Joseph Kabila'), '105');
    await user.click(within(row).getByRole('radio', { name: 'A — alerte' }));
    // 3 (RR) + 3 (SpO₂) + 0 (air) + 1 (SBP) + 2 (pulse) + 0 (A) + 1 (T°) = 10: high.
    expect(within(row).getByTestId('live-news2')).toHaveTextContent('NEWS2 10');
    expect(within(row).getByTestId('live-news2')).toHaveAttribute('data-risk', 'high');
    expect(within(row).getByTestId('news2-escalation')).toHaveTextContent('Score élevé');
  });

  it('a child gets no NEWS2; a value out of bounds is shown on its field and blocks the save', async () => {
    const { user, row } = await openRound();
    const childRow = screen.getAllByTestId('round-row').find((r) => r.dataset.patient === 'Léa Kabila');
    if (!childRow) throw new Error('no child row');
    await user.type(within(childRow).getByLabelText('Fréquence respiratoire — Léa Kabila'), '30');
    expect(within(childRow).queryByTestId('live-news2')).not.toBeInTheDocument();
    expect(within(childRow).getByText('Enfant : pas de NEWS2')).toBeInTheDocument();
    await user.type(within(row).getByLabelText('SpO₂ — Joseph Kabila'), '120');
    expect(within(row).getByText('Valeur hors limites : 40–100 %.')).toBeInTheDocument();
    expect(within(row).getByLabelText('SpO₂ — Joseph Kabila')).toHaveValue('120');
    expect(screen.getByTestId('round-submit')).toBeDisabled();
    expect(screen.getByText('1 patient a une valeur à corriger')).toBeInTheDocument();
  });

  it('saves the patients entered in one request and shows who was notified; server errors go to their row', async () => {
    const sent: MockRequest[] = [];
    const { user, row } = await openRound((request) => {
      sent.push(request);
      if (sent.length === 1)
        return Response.json({ 'entries.0.vitals.spo2': ['Valeur refusée'] }, { status: 400 });
      return Response.json({
        results: [
          {
            id: 'v1',
            plan: PLAN_ID,
            patient: PATIENT.id,
            recorded_at: '2026-03-04T10:00:00Z',
            recorded_by: { id: NURSE_ID, full_name: 'Inès Mbala' },
            news2: {
              score: 6,
              complete: false,
              spo2_scale: 1,
              breakdown: {},
              red_parameter: true,
              risk: 'medium',
              escalation: 'urgent',
              colour: 'orange',
            },
            escalated_to: [{ id: 'd1', full_name: 'Awa Diop' }],
          },
        ],
      });
    });
    await user.type(within(row).getByLabelText('Fréquence respiratoire — Joseph Kabila'), '26');
    await user.type(within(row).getByLabelText('SpO₂ — Joseph Kabila'), '91');
    await user.click(screen.getByTestId('round-submit'));
    expect(await within(row).findByText('Valeur refusée')).toBeInTheDocument();
    expect(sent[0]?.body).toEqual({
      entries: [
        {
          hospitalization: STAY_ID,
          admission: null,
          execution: null,
          // Issue 40: each set carries its key (sent again after a cut, it is kept once).
          idempotency_key: expect.stringMatching(/^[0-9a-f-]{36}$/),
          vitals: expect.objectContaining({
            respiratory_rate: 26,
            spo2: 91,
            temperature: null,
            on_oxygen: false,
          }),
        },
      ],
    });
    await user.click(screen.getByTestId('round-submit'));
    expect(await within(row).findByTestId('round-escalated')).toHaveTextContent('Médecin prévenu : Awa Diop');
    expect(sent).toHaveLength(2);
  });
});
