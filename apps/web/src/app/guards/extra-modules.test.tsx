import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeUser, renderApp } from '../../test/render';

afterEach(() => {
  vi.unstubAllGlobals();
});

const admin = makeUser({
  departments: [],
  active_roles: [{ role_code: 'ADMIN', hospital: 'h1', department: null }],
});

describe("an installation's extra modules (EXTRA_MODULES)", () => {
  it('keeps the production set of the specification: no Administration, and /admin is refused', async () => {
    const { router } = renderApp('/admin', { user: admin, environment: 'production' });
    const alert = await screen.findByTestId('access-denied');
    expect(alert).toHaveTextContent(
      `L'accès au module "Administration" n'est pas autorisé dans l'environnement production`,
    );
    expect(router.state.location.pathname).toBe('/');
    const nav = await screen.findByTestId('module-nav');
    expect(within(nav).queryByText('Administration')).not.toBeInTheDocument();
    expect(within(nav).queryByText('Hôpitaux')).not.toBeInTheDocument();
  });

  it('shows and opens the modules the installation adds', async () => {
    const { router } = renderApp('/admin', {
      user: admin,
      environment: 'production',
      extraModules: ['admin', 'hospitals'],
    });
    const nav = await screen.findByTestId('module-nav');
    expect(within(nav).getByText('Administration')).toBeInTheDocument();
    expect(within(nav).getByText('Hôpitaux')).toBeInTheDocument();
    expect(within(nav).queryByText('Facturation')).not.toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin');
    expect(screen.queryByTestId('access-denied')).not.toBeInTheDocument();
  });
});
