import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import { appRoutes } from '../app/routes';
import { resetStartupState } from '../app/StartupGate';
import { i18n } from '../lib/i18n';
import { setNavigator } from '../lib/navigation';
import { queryClient } from '../lib/query-client';
import { cssVariablesResolver, localizedTheme } from '../lib/theme';
import { useAuthStore } from '../stores/auth';
import { type User, useUserStore } from '../stores/user';

export function makeUser(overrides: Partial<User> = {}): User {
  return {
    id: 'u1',
    email: 'medecin@greensen.test',
    username: 'medecin',
    full_name: 'Awa Diop',
    profile: { first_name: 'Awa', last_name: 'Diop', language_preference: 'fr' },
    hospitals: [{ id: 'h1', name: 'Hôpital Général de Greensen', code: 'HGG' }],
    departments: [{ id: 'd1', name: 'Urgences', hospital: 'h1' }],
    active_roles: [{ role_code: 'DOCTOR', hospital: 'h1', department: null }],
    roles: [{ code: 'DOCTOR', name: 'Doctor' }],
    has_pin: false,
    ...overrides,
  };
}

export function TestProviders({ children }: { children: ReactNode }) {
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <MantineProvider theme={localizedTheme(i18n.t)} cssVariablesResolver={cssVariablesResolver}>
          <ModalsProvider>
            <Notifications />
            {children}
          </ModalsProvider>
        </MantineProvider>
      </QueryClientProvider>
    </I18nextProvider>
  );
}

export interface AppOptions {
  environment?: 'development' | 'test' | 'production';
  /** The installation's extra modules (EXTRA_MODULES). */
  extraModules?: string[];
  maintenance?: boolean;
  user?: User | null;
  /** Extra fetch answers by path (after /api/config/ and /api/profile/); they may look at the request. */
  routes?: Record<string, (request: MockRequest) => Response | Promise<Response>>;
}

/** A request as the fake server's answers see it: method, URL and the JSON body (parsed; a FormData as is). */
export interface MockRequest {
  method: string;
  url: URL;
  body: unknown;
}

/** Renders the real route table in a memory router with a fake server. */
export function renderApp(path: string, options: AppOptions = {}) {
  const { environment = 'development', maintenance = false, user = null } = options;
  queryClient.clear();
  resetStartupState();
  if (user) {
    useAuthStore.setState({ access: 'a', refresh: 'r', isAuthenticated: true, currentHospitalId: null });
    useUserStore.getState().setUser(user);
  } else {
    useAuthStore.setState({
      access: null,
      refresh: null,
      isAuthenticated: false,
      currentHospitalId: null,
      isLoggingOut: false,
    });
    useUserStore.setState({ user: null, currentDepartmentId: null });
  }
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    if (url.pathname === '/api/config/') {
      return Response.json({
        environment,
        extra_modules: options.extraModules ?? [],
        maintenance,
        version: '0.1.0',
        build_id: 'b',
        languages: ['fr', 'en'],
      });
    }
    const custom = options.routes?.[url.pathname];
    if (custom) {
      const raw = init?.body;
      const body = raw instanceof FormData ? raw : raw ? JSON.parse(String(raw)) : undefined;
      return custom({ method: init?.method ?? 'GET', url, body });
    }
    if (url.pathname === '/api/profile/' && user) return Response.json(user);
    return Response.json({ detail: 'Not found' }, { status: 404 });
  });
  vi.stubGlobal('fetch', fetchMock);
  const router = createMemoryRouter(appRoutes(), { initialEntries: [path] });
  setNavigator(
    (to, navOptions) => router.navigate(to, navOptions),
    () => router.state.location.pathname,
  );
  const view = render(
    <TestProviders>
      <RouterProvider router={router} />
    </TestProviders>,
  );
  return { router, fetchMock, ...view };
}

export function locationOf(router: { state: { location: { pathname: string; search: string } } }): string {
  return `${router.state.location.pathname}${router.state.location.search}`;
}

/**
 * Fills a text field the way a user pastes into it: one input event for the whole text. Each keystroke of
 * `user.type` re-renders the form, seconds for a long form's texts; use `user.type` where typing itself is
 * under test (live parsing, masks, suggestions as one types).
 */
export async function fillIn(user: UserEvent, field: HTMLElement, text: string): Promise<void> {
  await user.click(field);
  await user.paste(text);
}
