import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '../stores/auth';
import { makeUser, renderApp } from '../test/render';

afterEach(() => vi.unstubAllGlobals());

describe('app start', () => {
  it('shows "Failed to initialize application" with a retry when the config cannot load', async () => {
    const { fetchMock } = renderApp('/en/login');
    let fail = true;
    fetchMock.mockImplementation(async () =>
      fail
        ? Response.json({ detail: 'down' }, { status: 400 })
        : Response.json({ environment: 'development' }),
    );
    await screen.findByText('Failed to initialize application');
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await screen.findByRole('heading', { name: 'Sign in' });
  });

  it('keeps the session when the user cannot be fetched for want of an answer, and offers a retry', async () => {
    const user = makeUser({ full_name: 'Awa Diop' });
    let offline = true;
    renderApp('/', {
      user,
      routes: {
        '/api/profile/': async () => {
          if (offline) throw new TypeError('Failed to fetch');
          return Response.json(user);
        },
      },
    });
    await screen.findByText("Échec de l'initialisation de l'application", undefined, { timeout: 5000 });
    expect(useAuthStore.getState().isAuthenticated).toBe(true);
    offline = false;
    fireEvent.click(screen.getByRole('button', { name: 'Réessayer' }));
    await screen.findByTestId('dashboard-doctor');
    expect(useAuthStore.getState().isAuthenticated).toBe(true);
  });

  it('refreshes the user before showing content', async () => {
    const { fetchMock } = renderApp('/', { user: makeUser({ full_name: 'Awa Diop' }) });
    await screen.findByTestId('dashboard-doctor');
    expect(fetchMock.mock.calls.some(([input]) => String(input) === '/api/profile/')).toBe(true);
  });
});
