import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
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

  it('refreshes the user before showing content', async () => {
    const { fetchMock } = renderApp('/', { user: makeUser({ full_name: 'Awa Diop' }) });
    await screen.findByTestId('dashboard-doctor');
    expect(fetchMock.mock.calls.some(([input]) => String(input) === '/api/profile/')).toBe(true);
  });
});
