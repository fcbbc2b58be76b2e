import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeUser, renderApp } from '../../../test/render';

afterEach(() => {
  vi.unstubAllGlobals();
});

const admin = makeUser({ active_roles: [{ role_code: 'ADMIN', hospital: 'h1', department: null }] });

describe('the administration page', () => {
  it('switches maintenance on after a confirmation that says who it shuts out', async () => {
    const puts: unknown[] = [];
    const view = renderApp('/admin', {
      user: admin,
      routes: {
        '/api/admin/maintenance/': () => Response.json({ enabled: false, forced_by_environment: false }),
      },
    });
    const fallback = view.fetchMock.getMockImplementation()!;
    view.fetchMock.mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
      if (init?.method === 'PUT') {
        puts.push(JSON.parse(String(init.body)));
        return Response.json({ enabled: true, forced_by_environment: false });
      }
      return fallback(input);
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: 'Réglages' }));
    const panel = await screen.findByTestId('maintenance-panel');
    expect(panel).toHaveTextContent('Greensen est ouvert à tout le personnel.');
    await user.click(within(panel).getByRole('button', { name: 'Passer en maintenance…' }));
    expect(screen.getByTestId('maintenance-confirm')).toHaveTextContent('les vôtres aussi');
    expect(puts).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Oui, passer en maintenance' }));
    await vi.waitFor(() => expect(puts).toEqual([{ enabled: true }]), { timeout: 10_000 });
  });

  it('lets a signed-in administrator end the maintenance from the maintenance page', async () => {
    const puts: unknown[] = [];
    const view = renderApp('/maintenance', { user: admin, maintenance: true });
    const fallback = view.fetchMock.getMockImplementation()!;
    view.fetchMock.mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
      if (init?.method === 'PUT') {
        puts.push(JSON.parse(String(init.body)));
        return Response.json({ enabled: false, forced_by_environment: false });
      }
      return fallback(input);
    });
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('end-maintenance'));
    await vi.waitFor(() => expect(puts).toEqual([{ enabled: false }]), { timeout: 10_000 });
  });

  it('offers nobody else the switch on the maintenance page', async () => {
    const nurse = makeUser({ active_roles: [{ role_code: 'NURSE', hospital: 'h1', department: null }] });
    renderApp('/maintenance', { user: nurse, maintenance: true });
    expect(await screen.findByTestId('maintenance-page')).toBeInTheDocument();
    expect(screen.queryByTestId('end-maintenance')).not.toBeInTheDocument();
  });
});
