import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useRefreshFlagsStore } from '../../../stores/refresh-flags';
import { makeUser, renderApp } from '../../../test/render';
import {
  BED_A,
  BED_C,
  board,
  callsOf,
  census,
  DEP,
  page,
  STAY_PENDING,
  stayDetail,
} from '../components/inpatient.fixture';

afterEach(() => {
  vi.unstubAllGlobals();
  useRefreshFlagsStore.setState({ hospitalization: false, transfer: false, bed_assignment: false });
});

const nurse = makeUser({
  id: 'n1',
  active_roles: [{ role_code: 'NURSE', hospital: 'h1', department: null }],
});
const secretary = makeUser({ active_roles: [{ role_code: 'SECRETARY', hospital: 'h1', department: null }] });

const NO_GUARDRAIL = { bed: BED_A, guardrails: [], may_override: false };

function routes(
  assign: () => Response = () => Response.json(stayDetail(), { status: 201 }),
  check: () => Response = () => Response.json(NO_GUARDRAIL),
) {
  return {
    [`/api/hospitalizations/${STAY_PENDING}/bed-check/`]: check,
    '/api/hospitalizations/board/': () => Response.json(board()),
    '/api/hospitalizations/census/': () => Response.json(census()),
    '/api/departments/': () => page([{ ...DEP, is_active: true, head: null }]),
    [`/api/hospitalizations/${STAY_PENDING}/bed/`]: assign,
    [`/api/hospitalizations/beds/${BED_C}/status/`]: () =>
      Response.json({ id: BED_C, label: 'C', status: 'free', status_reason: null, occupant: null }),
  };
}

const boardGets = (fetchMock: Parameters<typeof callsOf>[0]) =>
  callsOf(fetchMock).filter((c) => c.method === 'GET' && c.path === '/api/hospitalizations/board/').length;

describe('the bed board', () => {
  it('shows every bed with its state and patient, and the patients waiting for a bed', async () => {
    renderApp('/hospitalizations', { user: nurse, routes: routes() });
    // The first render compiles the page's lazy chunk.
    const ward = await screen.findByRole('region', { name: 'Médecine A' }, { timeout: 15_000 });
    const beds = within(ward).getAllByTestId('bed-card');
    expect(beds.map((b) => b.getAttribute('data-status'))).toEqual(['free', 'occupied', 'cleaning']);
    expect(within(beds[1] as HTMLElement).getByText('Joseph Kabila')).toBeInTheDocument();
    expect(within(beds[1] as HTMLElement).getByText(/J18\.9 Pneumopathie/)).toBeInTheDocument();
    const pending = screen.getByRole('region', { name: 'En attente de lit' });
    const card = within(pending).getByTestId('pending-stay');
    expect(within(card).getByText('Bénédicte Ngalula')).toBeInTheDocument();
    expect(within(card).getByTestId('allergy-badge')).toHaveTextContent('Pénicilline');
    expect(within(pending).getByTestId('pending-count')).toHaveTextContent('1');
  });

  it('assigns a waiting patient to a free bed with the keyboard', async () => {
    const user = userEvent.setup();
    const { fetchMock } = renderApp('/hospitalizations', { user: nurse, routes: routes() });
    const select = await screen.findByRole('button', {
      name: 'Sélectionner Bénédicte Ngalula pour lui attribuer un lit',
    });
    // No bed offers "Attribuer" before a patient is chosen.
    expect(screen.queryByRole('button', { name: /^Attribuer/ })).not.toBeInTheDocument();
    select.focus();
    await user.keyboard('{Enter}');
    expect(select).toHaveAttribute('aria-pressed', 'true');
    const assign = screen.getByRole('button', { name: 'Attribuer la chambre 12, lit A à Bénédicte Ngalula' });
    assign.focus();
    await user.keyboard('{Enter}');
    // Every placement asks first, with the server's answer on the bed's rules (issue 37).
    const dialog = await screen.findByTestId('placement-confirm');
    expect(dialog).toHaveTextContent('Placer Bénédicte Ngalula en Médecine A, chambre 12, lit A ?');
    expect(await within(dialog).findByTestId('placement-fine')).toBeInTheDocument();
    expect(callsOf(fetchMock).filter((c) => c.path.endsWith('/bed/'))).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Confirmer' }));
    expect(await screen.findByText('Lit attribué')).toBeInTheDocument();
    const posts = callsOf(fetchMock).filter(
      (c) => c.method === 'POST' && !c.path.startsWith('/api/notifications/'),
    );
    expect(posts).toEqual([
      {
        method: 'POST',
        path: `/api/hospitalizations/${STAY_PENDING}/bed/`,
        body: { bed: BED_A, override_reason: null },
      },
    ]);
    expect(screen.queryByTestId('board-selection')).not.toBeInTheDocument();
  });

  it('says why when the bed was taken meanwhile, and fetches the board again', async () => {
    const user = userEvent.setup();
    const { fetchMock } = renderApp('/hospitalizations', {
      user: nurse,
      routes: routes(() =>
        Response.json({ detail: 'Ce lit vient d’être attribué à un autre patient.' }, { status: 409 }),
      ),
    });
    await user.click(await screen.findByRole('button', { name: /Sélectionner Bénédicte Ngalula/ }));
    const before = boardGets(fetchMock);
    await user.click(
      screen.getByRole('button', { name: 'Attribuer la chambre 12, lit A à Bénédicte Ngalula' }),
    );
    await user.click(await screen.findByRole('button', { name: 'Confirmer' }));
    const title = await screen.findByText("Le lit n'a pas pu être attribué");
    const alert = title.closest('[role="alert"]');
    expect(alert).toHaveTextContent('Ce lit vient d’être attribué à un autre patient.');
    await waitFor(() => expect(boardGets(fetchMock)).toBeGreaterThan(before));
    // The patient stays selected to pick another bed.
    expect(screen.getByTestId('board-selection')).toBeInTheDocument();
  });

  it("shows the server's guardrails: a nurse cannot place, a charge nurse places with a reason", async () => {
    const broken = {
      bed: BED_A,
      guardrails: [
        {
          code: 'ward_age',
          message: "L'unité Pédiatrie A accueille les patients de 0 à 15 ans ; ce patient a 41 ans.",
        },
        { code: 'room_mixed_sex', message: 'La chambre accueille déjà un patient de l’autre sexe.' },
      ],
    };
    const user = userEvent.setup();
    const first = renderApp('/hospitalizations', {
      user: nurse,
      routes: routes(undefined, () => Response.json({ ...broken, may_override: false })),
    });
    await user.click(await screen.findByRole('button', { name: /Sélectionner Bénédicte Ngalula/ }));
    await user.click(
      screen.getByRole('button', { name: 'Attribuer la chambre 12, lit A à Bénédicte Ngalula' }),
    );
    const listed = await screen.findByTestId('placement-guardrails');
    expect(listed).toHaveTextContent('de 0 à 15 ans ; ce patient a 41 ans');
    expect(listed).toHaveTextContent('l’autre sexe');
    expect(listed).toHaveTextContent('Seul(e) un(e) infirmier(ère) chef peut passer outre');
    expect(screen.queryByLabelText(/Motif de la dérogation/)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Placer malgré tout' })).toBeDisabled();
    first.unmount();

    const charge = makeUser({
      id: 'c1',
      active_roles: [{ role_code: 'CHARGE_NURSE', hospital: 'h1', department: null }],
    });
    const { fetchMock } = renderApp('/hospitalizations', {
      user: charge,
      routes: routes(undefined, () => Response.json({ ...broken, may_override: true })),
    });
    await user.click(await screen.findByRole('button', { name: /Sélectionner Bénédicte Ngalula/ }));
    await user.click(
      screen.getByRole('button', { name: 'Attribuer la chambre 12, lit A à Bénédicte Ngalula' }),
    );
    const place = await screen.findByRole('button', { name: 'Placer malgré tout' });
    expect(place).toBeDisabled();
    await user.type(screen.getByLabelText(/Motif de la dérogation/), 'Mère accompagnante, aucun lit adulte');
    await user.click(place);
    expect(await screen.findByText('Lit attribué')).toBeInTheDocument();
    expect(callsOf(fetchMock).filter((c) => c.method === 'POST' && c.path.endsWith('/bed/'))).toEqual([
      {
        method: 'POST',
        path: `/api/hospitalizations/${STAY_PENDING}/bed/`,
        body: { bed: BED_A, override_reason: 'Mère accompagnante, aucun lit adulte' },
      },
    ]);
  });

  it('marks a cleaned bed free again', async () => {
    const user = userEvent.setup();
    const { fetchMock } = renderApp('/hospitalizations', { user: nurse, routes: routes() });
    await user.click(await screen.findByRole('button', { name: 'Marquer libre la chambre 12, lit C' }));
    await waitFor(() =>
      expect(callsOf(fetchMock).filter((c) => c.method === 'POST' && c.path.includes('/beds/'))).toEqual([
        { method: 'POST', path: `/api/hospitalizations/beds/${BED_C}/status/`, body: { status: 'free' } },
      ]),
    );
  });

  it('offers no placing, moving or housekeeping to those who may only look', async () => {
    renderApp('/hospitalizations', { user: secretary, routes: routes() });
    await screen.findByRole('region', { name: 'Médecine A' });
    const pending = screen.getByRole('region', { name: 'En attente de lit' });
    expect(within(pending).getByText('Bénédicte Ngalula')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Sélectionner/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Déplacer/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Marquer libre/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Nouvelle hospitalisation' })).not.toBeInTheDocument();
  });

  it('refetches when a notification raised a refresh flag on this page, then lowers the flag', async () => {
    const { fetchMock } = renderApp('/hospitalizations', { user: nurse, routes: routes() });
    await screen.findByRole('region', { name: 'Médecine A' });
    await waitFor(() => expect(boardGets(fetchMock)).toBe(1));
    act(() => useRefreshFlagsStore.getState().raise('bed_assignment'));
    await waitFor(() => expect(boardGets(fetchMock)).toBe(2));
    await waitFor(() => expect(useRefreshFlagsStore.getState().bed_assignment).toBe(false));
  });

  it('shows the census per ward with the occupancy rate and the totals', async () => {
    const user = userEvent.setup();
    renderApp('/hospitalizations', { user: nurse, routes: routes() });
    await user.click(await screen.findByRole('tab', { name: 'Recensement' }));
    const table = await screen.findByTestId('census');
    const rates = within(table).getAllByTestId('occupancy-rate');
    // The French percent sign follows a narrow no-break space.
    expect(rates.map((r) => r.textContent?.replace(/\s/g, ' '))).toEqual(['33 %', '33 %']);
    expect(within(table).getByTestId('census-totals')).toHaveTextContent('1 patient en attente de lit');
  });
});
