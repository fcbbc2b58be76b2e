import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fillIn, locationOf, makeUser, renderApp } from '../../../test/render';
import { setupTokenOf } from '../api/setup';

afterEach(() => {
  vi.unstubAllGlobals();
});

const TOKEN = 'Zq3cTnA0b9_yX2vW-8kLmNoPqRsTuVwXyZ012345678';

describe('the setup link of a new installation (/register#setup=…)', () => {
  it('reads the token from the fragment only', () => {
    expect(setupTokenOf(`#setup=${TOKEN}`)).toBe(TOKEN);
    expect(setupTokenOf('')).toBeNull();
    expect(setupTokenOf('#setup=<script>')).toBeNull();
  });

  it('creates the first hospital and administrator, signs in and lands on the dashboard', async () => {
    const admin = makeUser({
      email: 'direction@hrt.example.sn',
      hospitals: [{ id: 'h9', name: 'Hôpital Régional de Thiès', code: 'HRT' }],
      departments: [],
      active_roles: [{ role_code: 'ADMIN', hospital: 'h9', department: null }],
    });
    const posted: unknown[] = [];
    const view = renderApp(`/register#setup=${TOKEN}`, {
      routes: {
        [`/api/setup/${TOKEN}/`]: () => Response.json({ expires_at: '2030-01-02T10:00:00.000Z' }),
        // Once signed in, the start-up refreshes the user.
        '/api/profile/': () => Response.json(admin),
      },
    });
    const fallback = view.fetchMock.getMockImplementation()!;
    view.fetchMock.mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
      if (init?.method === 'POST' && String(input).includes('/api/setup/')) {
        posted.push(JSON.parse(String(init.body)));
        return Response.json({ access: 'a2', refresh: 'r2', user: admin }, { status: 201 });
      }
      return fallback(input);
    });
    const user = userEvent.setup({ delay: null });
    expect(await screen.findByTestId('setup-form')).toHaveTextContent('Installer Greensen');
    expect(screen.queryByText('Créer mon compte')).not.toBeInTheDocument();
    await fillIn(user, screen.getByLabelText(/Nom de l'hôpital/), 'Hôpital Régional de Thiès');
    await fillIn(user, screen.getByLabelText(/Code court/), 'hrt');
    await fillIn(user, screen.getByLabelText(/^Prénom/), 'Mariama');
    await fillIn(user, screen.getByLabelText(/^Nom \*?$/), 'Ndiaye');
    await fillIn(user, screen.getByLabelText(/Adresse e-mail/), 'direction@hrt.example.sn');
    await fillIn(user, screen.getByLabelText(/^Mot de passe/), 'harbour-violet-compass-31');
    await fillIn(user, screen.getByLabelText(/Confirmer le mot de passe/), 'harbour-violet-compass-31');
    await user.click(screen.getByRole('button', { name: /Créer l'hôpital et mon compte/ }));
    await vi.waitFor(
      () =>
        expect(posted).toEqual([
          expect.objectContaining({
            token: TOKEN,
            name: 'Hôpital Régional de Thiès',
            code: 'HRT',
            currency: 'XOF',
            triage_scale: 'FRENCH',
            email: 'direction@hrt.example.sn',
            password: 'harbour-violet-compass-31',
            language_preference: 'fr',
          }),
        ]),
      { timeout: 10_000 },
    );
    await vi.waitFor(() => expect(locationOf(view.router)).toBe('/'), { timeout: 10_000 });
  }, 40_000);

  it('says so when the link was used, expired or the installation is done', async () => {
    renderApp(`/register#setup=${TOKEN}`);
    expect(await screen.findByTestId('setup-invalid')).toHaveTextContent(
      "Lien d'installation invalide, expiré ou déjà utilisé",
    );
  });

  it('keeps self-registration on /register without a setup link', async () => {
    renderApp('/register');
    expect(await screen.findByRole('button', { name: 'Créer mon compte' })).toBeInTheDocument();
    expect(screen.queryByTestId('setup-form')).not.toBeInTheDocument();
  });
});
