import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type MockRequest, renderApp } from '../../../test/render';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const TOKEN = 'tok-abc_123';

function invitationRoutes(needsPassword: boolean, sent: MockRequest[]) {
  return {
    '/api/auth/invitations/check/': () =>
      Response.json({
        hospital: 'Hôpital Général de Greensen',
        role_code: 'NURSE',
        email: 'awa@hopital.test',
        needs_password: needsPassword,
      }),
    '/api/auth/invitations/accept/': (r: MockRequest) => {
      sent.push(r);
      return Response.json({ detail: 'Invitation acceptée : connectez-vous pour travailler dans HGG.' });
    },
  };
}

describe('/invitation/:token (issue 36)', () => {
  it('a person without a password chooses one and accepts', async () => {
    const sent: MockRequest[] = [];
    renderApp(`/invitation/${TOKEN}`, { routes: invitationRoutes(true, sent) });
    const user = userEvent.setup({ delay: null });
    const page = await screen.findByTestId('invitation', {}, { timeout: 15_000 });
    expect(page).toHaveTextContent('Invitation à rejoindre Hôpital Général de Greensen');
    expect(page).toHaveTextContent('awa@hopital.test');
    await user.click(screen.getByRole('button', { name: "Accepter l'invitation" }));
    // Checked here first: a password of the right length, typed twice.
    expect(sent).toEqual([]);
    await user.type(screen.getByLabelText(/Nouveau mot de passe/), 'ocean-marble-kettle-51');
    await user.type(screen.getByLabelText(/Confirmer/), 'ocean-marble-kettle-51');
    await user.click(screen.getByRole('button', { name: "Accepter l'invitation" }));
    expect(await screen.findByTestId('invitation-accepted')).toHaveTextContent('Invitation acceptée');
    expect(sent.map((r) => r.body)).toEqual([{ token: TOKEN, new_password: 'ocean-marble-kettle-51' }]);
  });

  it('a person with an account accepts in one click; an expired link says so', async () => {
    const sent: MockRequest[] = [];
    const view = renderApp(`/invitation/${TOKEN}`, { routes: invitationRoutes(false, sent) });
    const user = userEvent.setup({ delay: null });
    const page = await screen.findByTestId('invitation', {}, { timeout: 15_000 });
    expect(page).toHaveTextContent('Vous avez déjà un compte Greensen');
    expect(screen.queryByLabelText(/Nouveau mot de passe/)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: "Accepter l'invitation" }));
    expect(await screen.findByTestId('invitation-accepted')).toBeInTheDocument();
    expect(sent.map((r) => r.body)).toEqual([{ token: TOKEN }]);
    view.unmount();

    renderApp('/invitation/expired', {
      routes: {
        '/api/auth/invitations/check/': () =>
          Response.json({ token: ['Ce lien d’invitation n’est pas valide ou a expiré.'] }, { status: 400 }),
      },
    });
    expect(await screen.findByRole('alert', {}, { timeout: 15_000 })).toHaveTextContent(
      "Lien d'invitation invalide ou expiré",
    );
  });
});
