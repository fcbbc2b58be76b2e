import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { locationOf, makeUser, renderApp } from '../../test/render';
import { moduleRedirect } from './ModuleGuard';

afterEach(() => {
  vi.unstubAllGlobals();
});

const secretary = makeUser({ active_roles: [{ role_code: 'SECRETARY', hospital: 'h1' }] });
const midwife = makeUser({ active_roles: [{ role_code: 'SAGE_FEMME', hospital: 'h1' }] });

describe('module guard texts', () => {
  it('refuses consultations and exams to a secretary with the exact French text', () => {
    for (const [path, title] of [
      ['/consultations', 'Consultations'],
      ['/exams/12', 'Examens'],
    ]) {
      const target = moduleRedirect({
        pathname: path as string,
        environment: 'development',
        user: secretary,
        hospitalId: 'h1',
        lang: 'fr',
      });
      expect(target).toBe(
        `/?access_denied=true&message=${encodeURIComponent(`L'accès au module "${title}" n'est pas autorisé pour votre rôle`)}`,
      );
    }
  });

  it('refuses exams to a midwife, not consultations', () => {
    const base = {
      environment: 'development' as const,
      user: midwife,
      hospitalId: 'h1',
      lang: 'fr' as const,
    };
    expect(moduleRedirect({ ...base, pathname: '/exams' })).not.toBeNull();
    expect(moduleRedirect({ ...base, pathname: '/consultations' })).toBeNull();
  });

  it('refuses a module outside the environment with the environment text', () => {
    const target = moduleRedirect({
      pathname: '/billing',
      environment: 'production',
      user: makeUser(),
      hospitalId: 'h1',
      lang: 'fr',
    });
    expect(target).toBe(
      `/?access_denied=true&message=${encodeURIComponent(
        `L'accès au module "Facturation" n'est pas autorisé dans l'environnement production`,
      )}`,
    );
    // Reporting is in the test set, for the roles that have something to do there (a head doctor).
    const head = makeUser({ active_roles: [{ role_code: 'HEAD_DOCTOR', hospital: 'h1', department: null }] });
    expect(
      moduleRedirect({
        pathname: '/analytics',
        environment: 'test',
        user: head,
        hospitalId: 'h1',
        lang: 'fr',
      }),
    ).toBeNull();
    expect(
      moduleRedirect({
        pathname: '/analytics',
        environment: 'production',
        user: head,
        hospitalId: 'h1',
        lang: 'fr',
      }),
    ).not.toBeNull();
  });

  it('keeps the /en prefix and the English text in English', () => {
    const target = moduleRedirect({
      pathname: '/en/consultations/create',
      environment: 'development',
      user: secretary,
      hospitalId: 'h1',
      lang: 'en',
    });
    expect(target?.startsWith('/en?access_denied=true&message=')).toBe(true);
    expect(decodeURIComponent(target?.split('message=')[1] ?? '')).toBe(
      'Access to the "Consultations" module is not allowed for your role',
    );
  });

  it('never guards routes outside the module table', () => {
    for (const pathname of ['/settings', '/profile', '/notes', '/calendar', '/error-404', '/transfers']) {
      expect(
        moduleRedirect({
          pathname,
          environment: 'production',
          user: secretary,
          hospitalId: 'h1',
          lang: 'fr',
        }),
      ).toBeNull();
    }
  });
});

describe('route guards in the router', () => {
  it('maintenance sends every route to /maintenance', async () => {
    const { router } = renderApp('/patients', { maintenance: true, user: makeUser() });
    await screen.findByTestId('maintenance-page');
    expect(locationOf(router)).toBe('/maintenance');
  });

  it('maintenance applies to public routes and English too', async () => {
    const { router } = renderApp('/en/login', { maintenance: true });
    await screen.findByText('Maintenance in progress');
    expect(locationOf(router)).toBe('/en/maintenance');
  });

  it('/maintenance goes to / when maintenance is off (then /login when signed out)', async () => {
    const { router } = renderApp('/maintenance');
    await screen.findByRole('button', { name: 'Se connecter' });
    expect(locationOf(router)).toBe('/login');
  });

  it('an unauthenticated user goes to /login', async () => {
    const { router } = renderApp('/patients/42');
    await screen.findByRole('heading', { name: 'Connexion' });
    expect(locationOf(router)).toBe('/login');
  });

  it.each([
    ['/nowhere/here', '/login'],
    ['/en/no-such-page', '/en/login'],
  ])(
    'an unauthenticated user on an unknown path (%s) goes to %s, not to the not-found page',
    async (path, login) => {
      const { router } = renderApp(path);
      // The English strings load first under /en.
      await waitFor(() => expect(locationOf(router)).toBe(login), { timeout: 5000 });
      expect(screen.queryByText(/Page introuvable|Page Not Found/)).not.toBeInTheDocument();
    },
  );

  it.each(['/register', '/forgot-password', '/reset-password/abc.def', '/verify-email/u1/t1'])(
    '%s is open to unauthenticated users',
    async (path) => {
      const { router } = renderApp(path);
      await waitFor(() => expect(screen.getAllByText('Greensen').length).toBeGreaterThan(0));
      expect(locationOf(router)).toBe(path);
    },
  );

  it('an authenticated user on /login goes to /', async () => {
    const { router } = renderApp('/login', { user: makeUser() });
    await screen.findByTestId('dashboard-doctor');
    expect(locationOf(router)).toBe('/');
  });

  it('an authenticated user on /en/register goes to /en', async () => {
    const { router } = renderApp('/en/register', { user: makeUser() });
    await screen.findByText('My Patients Today');
    expect(locationOf(router)).toBe('/en');
  });

  it('a refused module goes to the dashboard that shows the refusal', async () => {
    const { router } = renderApp('/consultations', { user: secretary });
    const alert = await screen.findByTestId('access-denied');
    expect(alert).toHaveTextContent(`L'accès au module "Consultations" n'est pas autorisé pour votre rôle`);
    expect(router.state.location.pathname).toBe('/');
    expect(new URLSearchParams(router.state.location.search).get('access_denied')).toBe('true');
  });

  it('the dashboard shows the default refusal text without a message', async () => {
    renderApp('/?access_denied=true', { user: makeUser() });
    const alert = await screen.findByTestId('access-denied');
    expect(alert).toHaveTextContent('Accès refusé');
  });

  it('an allowed module opens its page', async () => {
    const { router } = renderApp('/appointments', { user: makeUser() });
    await screen.findByTestId('appointments-page', {}, { timeout: 15_000 });
    expect(locationOf(router)).toBe('/appointments');
  });

  it('care (Soins) is for the care team: hidden from a secretary and refused to her, listed for a nurse', async () => {
    const { router } = renderApp('/care', { user: secretary });
    const alert = await screen.findByTestId('access-denied');
    expect(alert).toHaveTextContent(`L'accès au module "Soins" n'est pas autorisé pour votre rôle`);
    expect(router.state.location.pathname).toBe('/');
    const nav = await screen.findByTestId('module-nav');
    expect(within(nav).queryByText('Soins')).not.toBeInTheDocument();
  });

  it('the navigation lists Soins for a nurse', async () => {
    renderApp('/settings', {
      user: makeUser({ active_roles: [{ role_code: 'NURSE', hospital: 'h1', department: null }] }),
    });
    const nav = await screen.findByTestId('module-nav');
    expect(within(nav).getByText('Soins')).toBeInTheDocument();
  });

  it('appointments (Rendez-vous) are not in an administrator’s navigation, and the guard refuses them with the specification’s text (issue 36)', async () => {
    const admin = makeUser({ active_roles: [{ role_code: 'ADMIN', hospital: 'h1', department: null }] });
    const { router } = renderApp('/appointments', { user: admin });
    const alert = await screen.findByTestId('access-denied', {}, { timeout: 15_000 });
    expect(alert).toHaveTextContent(`L'accès au module "Rendez-vous" n'est pas autorisé pour votre rôle`);
    expect(router.state.location.pathname).toBe('/');
    expect(screen.queryByTestId('appointments-page')).not.toBeInTheDocument();
    const nav = await screen.findByTestId('module-nav');
    expect(within(nav).queryByText('Rendez-vous')).not.toBeInTheDocument();
    expect(within(nav).queryByText('Soins')).not.toBeInTheDocument();
    expect(within(nav).getByText('Administration')).toBeInTheDocument();
  });

  it('the navigation lists only the modules of the environment and role', async () => {
    renderApp('/', { user: secretary, environment: 'test' });
    const nav = await screen.findByTestId('module-nav');
    const labels = Array.from(nav.querySelectorAll('a')).map((link) => link.textContent);
    // Reporting is in the test set, but a secretary has nothing to do there (module × role table).
    expect(labels).toEqual(['Tableau de bord', 'Patients', 'Admissions', 'Modèles']);
  });

  it('an unknown path shows the error page with status 404 and the path', async () => {
    renderApp('/nowhere/here', { user: makeUser() });
    expect(await screen.findByText('Page introuvable')).toBeInTheDocument();
    expect(screen.getByTestId('error-message')).toHaveTextContent('Page Not Found /nowhere/here');
  });

  it('a user without hospital sees the waiting-for-assignment page', async () => {
    renderApp('/', { user: makeUser({ hospitals: [], departments: [], active_roles: [] }) });
    expect(await screen.findByTestId('waiting-assignment')).toBeInTheDocument();
    expect(screen.queryByTestId('module-nav')).not.toBeInTheDocument();
  });

  it('a locked session only reaches /pin-verify', async () => {
    const { useLockStore } = await import('../../stores/lock');
    useLockStore.setState({ locked: true, returnTo: '/patients' });
    const { router } = renderApp('/patients', { user: makeUser() });
    await screen.findByText('Session verrouillée', { selector: 'h3' });
    expect(locationOf(router)).toBe('/pin-verify');
    useLockStore.setState({ locked: false, returnTo: '/' });
  });

  it('sets document.title from the route title', async () => {
    renderApp('/en/login');
    await screen.findByRole('heading', { name: 'Sign in' });
    await waitFor(() => expect(document.title).toBe('Sign in · Greensen'));
  });
});
