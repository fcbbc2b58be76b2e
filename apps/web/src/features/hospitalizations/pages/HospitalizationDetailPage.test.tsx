import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { locationOf, makeUser, renderApp } from '../../../test/render';
import { callsOf, page, STAY_ADMITTED, stayDetail } from '../components/inpatient.fixture';

afterEach(() => {
  vi.unstubAllGlobals();
});

const doctor = makeUser();
const routes = (detail = stayDetail()) => ({
  [`/api/hospitalizations/${STAY_ADMITTED}/`]: () => Response.json(detail),
  [`/api/hospitalizations/${STAY_ADMITTED}/notes/`]: () => page([]),
  '/api/transfers/': () => page([]),
  [`/api/hospitalizations/${STAY_ADMITTED}/discharge/`]: () =>
    Response.json(stayDetail({ status: 'discharged', place: null })),
});
const writes = (fetchMock: Parameters<typeof callsOf>[0]) =>
  callsOf(fetchMock).filter((c) => c.method !== 'GET' && !c.path.startsWith('/api/notifications/'));

async function openDischarge() {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'Sortie' }));
  const form = await screen.findByTestId('discharge-form');
  return { user, form };
}

describe('the stay page', () => {
  it("a missing stay (or another hospital's) leads to the error page with type hospitalization", async () => {
    const missing = '0190f0f0-9999-7222-8333-444455556666';
    const { router } = renderApp(`/hospitalizations/${missing}`, { user: doctor });
    await waitFor(() => expect(locationOf(router)).toBe(`/error-404?type=hospitalization&id=${missing}`), {
      timeout: 15_000,
    });
    expect(await screen.findByRole('heading', { name: 'Hospitalisation introuvable' })).toBeInTheDocument();
  });

  it('shows the patient with allergies, the bed and the days', async () => {
    renderApp(`/hospitalizations/${STAY_ADMITTED}`, { user: doctor, routes: routes() });
    // The first render compiles the page's lazy chunk.
    const heading = await screen.findByRole(
      'heading',
      { name: 'Hospitalisation de Bénédicte Ngalula' },
      { timeout: 15_000 },
    );
    expect(heading).toBeInTheDocument();
    expect(screen.getByTestId('allergy-alert')).toHaveTextContent('Pénicilline');
    expect(screen.getAllByText('Médecine A · Ch. 12 · Lit B').length).toBeGreaterThan(0);
    expect(screen.getByText(/J3 \/ 5 jours prévus/)).toBeInTheDocument();
  });

  it('a death cannot be recorded without its time and cause', async () => {
    const { fetchMock } = renderApp(`/hospitalizations/${STAY_ADMITTED}`, { user: doctor, routes: routes() });
    const { user, form } = await openDischarge();
    await user.click(within(form).getByRole('combobox', { name: /Mode de sortie/ }));
    await user.click(await screen.findByRole('option', { name: 'Décès', hidden: true }));
    await user.type(within(form).getByRole('textbox', { name: /Résumé du séjour/ }), 'Arrêt cardiaque à J3.');
    await user.click(within(form).getByRole('button', { name: 'Enregistrer la sortie' }));
    expect(await within(form).findByText("Indiquez la date et l'heure du décès.")).toBeInTheDocument();
    expect(within(form).getByText('Indiquez la cause du décès (code CIM-10).')).toBeInTheDocument();
    // No follow-up date for a death.
    expect(within(form).queryByLabelText(/Date de suivi/)).not.toBeInTheDocument();
    expect(writes(fetchMock)).toEqual([]);
  });

  it('records a discharge home with its summary, follow-up date and the stay’s diagnosis prefilled', async () => {
    const { fetchMock } = renderApp(`/hospitalizations/${STAY_ADMITTED}`, { user: doctor, routes: routes() });
    const { user, form } = await openDischarge();
    await user.click(within(form).getByRole('button', { name: 'Enregistrer la sortie' }));
    expect(await within(form).findByText('Ce champ est obligatoire.')).toBeInTheDocument();
    expect(writes(fetchMock)).toEqual([]);
    await user.type(
      within(form).getByRole('textbox', { name: /Résumé du séjour/ }),
      'Apyrétique, sortie à J3.',
    );
    await user.type(within(form).getByLabelText(/Date de suivi/), '2026-03-20');
    await user.click(within(form).getByRole('button', { name: 'Enregistrer la sortie' }));
    await waitFor(() => expect(writes(fetchMock)).toHaveLength(1));
    expect(writes(fetchMock)[0]).toEqual({
      method: 'POST',
      path: `/api/hospitalizations/${STAY_ADMITTED}/discharge/`,
      body: {
        mode: 'home',
        // The discharge diagnoses start from the stay's (its provisional B50.9), issue 37.
        diagnoses: ['B50.9'],
        summary: 'Apyrétique, sortie à J3.',
        treatments: null,
        follow_up_date: '2026-03-20',
        death_at: null,
        death_cause_icd_code: null,
      },
    });
  });

  it("lists the stay's prescriptions and offers prescribing from an open stay, not from a closed one", async () => {
    const asked: string[] = [];
    const prescriptions = {
      '/api/prescriptions/': (request: { url: URL }) => {
        asked.push(request.url.search);
        return page([]);
      },
    };
    const open = renderApp(`/hospitalizations/${STAY_ADMITTED}`, {
      user: doctor,
      routes: { ...routes(), ...prescriptions },
    });
    const panel = await screen.findByTestId('stay-prescriptions', {}, { timeout: 15_000 });
    expect(await within(panel).findByText('Aucune ordonnance pour ce séjour.')).toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: 'Prescrire' })).toBeInTheDocument();
    expect(new URLSearchParams(asked[0]).get('hospitalization')).toBe(STAY_ADMITTED);
    expect(new URLSearchParams(asked[0]).get('consultation')).toBeNull();
    open.unmount();

    renderApp(`/hospitalizations/${STAY_ADMITTED}`, {
      user: doctor,
      routes: {
        ...routes(stayDetail({ status: 'discharged', place: null, ended_at: '2026-03-04T10:00:00Z' })),
        ...prescriptions,
      },
    });
    const closed = await screen.findByTestId('stay-prescriptions', {}, { timeout: 15_000 });
    expect(await within(closed).findByText('Aucune ordonnance pour ce séjour.')).toBeInTheDocument();
    expect(within(closed).queryByRole('button', { name: 'Prescrire' })).not.toBeInTheDocument();
  });

  it('a closed stay is read-only apart from addenda', async () => {
    const closed = stayDetail({
      status: 'discharged',
      place: null,
      ended_at: '2026-03-04T10:00:00Z',
      can: { edit: false, assign_bed: false, note: false, discharge: false },
      discharge: {
        mode: 'home',
        diagnoses: [{ code: 'B50.9', label: 'Paludisme' }],
        summary: 'Bonne évolution.',
        treatments: null,
        follow_up_date: null,
        death_at: null,
        death_cause: null,
        discharged_by: { id: 'u1', full_name: 'Awa Diop' },
      },
    });
    renderApp(`/hospitalizations/${STAY_ADMITTED}`, {
      user: doctor,
      routes: {
        ...routes(closed),
        [`/api/hospitalizations/${STAY_ADMITTED}/notes/`]: () =>
          page([
            {
              id: '0190f0f0-aaaa-7222-8333-444455556666',
              text: 'Fièvre en baisse.',
              author: { id: 'u1', full_name: 'Awa Diop' },
              signed_at: '2026-03-02T08:00:00Z',
              addenda: [],
            },
          ]),
      },
    });
    expect(await screen.findByTestId('stay-closed')).toBeInTheDocument();
    expect(screen.getByTestId('discharge-summary')).toHaveTextContent('Bonne évolution.');
    expect(await screen.findByText('Fièvre en baisse.')).toBeInTheDocument();
    for (const name of ['Sortie', 'Modifier', 'Changer de lit', 'Demander un transfert', 'Signer la note'])
      expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Ajouter un addendum à la note/ })).toBeInTheDocument();
  });
});
