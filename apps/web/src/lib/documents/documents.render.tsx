/** Renders a documents component alone (signed in, in a router) with a fake server that records the calls. */
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import { useAuthStore } from '../../stores/auth';
import { type User, useUserStore } from '../../stores/user';
import { TestProviders } from '../../test/render';
import { queryClient } from '../query-client';

export type Handler = (method: string, url: URL, body: unknown) => Response | undefined;
export interface Call {
  method: string;
  path: string;
  url: URL;
  body: unknown;
}

export function renderDocuments(element: ReactElement, user: User, handler: Handler) {
  queryClient.clear();
  useAuthStore.setState({ access: 'a', refresh: 'r', isAuthenticated: true, currentHospitalId: 'h1' });
  useUserStore.getState().setUser(user);
  URL.createObjectURL = vi.fn(() => 'blob:file');
  URL.revokeObjectURL = vi.fn();
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const method = init?.method ?? 'GET';
      const raw = init?.body;
      const body = typeof raw === 'string' ? JSON.parse(raw) : raw;
      calls.push({ method, path: url.pathname, url, body });
      return handler(method, url, body) ?? Response.json({ detail: 'Not found' }, { status: 404 });
    }),
  );
  const router = createMemoryRouter([{ path: '*', element }], { initialEntries: ['/patients/x'] });
  render(
    <TestProviders>
      <RouterProvider router={router} />
    </TestProviders>,
  );
  return { calls, user: userEvent.setup() };
}

export const pdfResponse = () =>
  new Response(new Uint8Array([37, 80, 68, 70]), { headers: { 'Content-Type': 'application/pdf' } });
