import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { issuedItem, pageOf } from '../lib/documents/documents.fixture';
import { holdShellRequests, releaseShellRequests } from '../lib/first-data';
import { queryClient } from '../lib/query-client';
import { stubDesktopWidth } from '../test/media-query';
import { makeUser, renderApp } from '../test/render';
import { prefetchEntry, prefetchPage } from './page-prefetch';

afterEach(() => {
  releaseShellRequests();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** The API paths the fake server was asked for, in order. */
function asked(fetchMock: { mock: { calls: unknown[][] } }): string[] {
  return fetchMock.mock.calls.map(([input]) => {
    const url = new URL(String(input), 'http://localhost');
    return `${url.pathname}${url.search}`;
  });
}

describe('the page’s first data, started by path as the app starts (issue 38)', () => {
  it('the documents page finds its list in the cache: one request for it, asked before the page was there', {
    timeout: 40_000,
  }, async () => {
    stubDesktopWidth();
    const { fetchMock } = renderApp('/documents', {
      user: makeUser(),
      routes: { '/api/documents/': () => pageOf([issuedItem()]) },
    });
    // As main.tsx does beside the user's refresh, before the route's chunks and the page are in.
    await prefetchPage(queryClient, '/documents');
    expect(asked(fetchMock)).toContain('/api/documents/?status=all&page=1&page_size=20');
    expect(screen.queryByTestId('documents-page')).toBeNull();
    const page = await screen.findByTestId('documents-page', {}, { timeout: 15_000 });
    expect(await within(page).findByText('CM-HGG-2026-000042')).toBeInTheDocument();
    expect(asked(fetchMock).filter((path) => path.startsWith('/api/documents/'))).toEqual([
      '/api/documents/?status=all&page=1&page_size=20',
    ]);
  });

  it('the doctor’s home finds its queue and workload in the cache (the doctor is the signed-in user)', {
    timeout: 40_000,
  }, async () => {
    stubDesktopWidth();
    const { fetchMock } = renderApp('/', {
      user: makeUser({ id: 'u1' }),
      routes: {
        '/api/doctors/u1/execution-queue/': () => pageOf([]),
        '/api/doctors/u1/workload/': () =>
          Response.json({ assigned: 0, in_progress: 0, completed_today: 0, average_minutes: null }),
      },
    });
    await prefetchPage(queryClient, '/');
    expect(screen.queryByTestId('dashboard-doctor')).toBeNull();
    expect(asked(fetchMock)).toContain('/api/doctors/u1/execution-queue/?status=open&page=1&page_size=20');
    await screen.findByTestId('dashboard-doctor', {}, { timeout: 15_000 });
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    const queue = asked(fetchMock).filter((path) => path.startsWith('/api/doctors/u1/'));
    expect(queue.sort()).toEqual([
      '/api/doctors/u1/execution-queue/?status=completed&page=1&page_size=20',
      '/api/doctors/u1/execution-queue/?status=open&page=1&page_size=20',
      '/api/doctors/u1/workload/',
    ]);
  });

  it('asks nothing for a page the module guard refuses (a refusal from the API would leave the page)', async () => {
    const { fetchMock } = renderApp('/hospitalizations', {
      user: makeUser({ active_roles: [{ role_code: 'CASHIER', hospital: 'h1', department: null }] }),
    });
    await prefetchPage(queryClient, '/hospitalizations');
    expect(asked(fetchMock).filter((path) => path.startsWith('/api/hospitalizations/'))).toEqual([]);
    expect(asked(fetchMock)).toContain('/api/config/');
  });

  it('asks for the bed board when the module guard lets the user in', async () => {
    const { fetchMock } = renderApp('/hospitalizations', { user: makeUser() });
    await prefetchPage(queryClient, '/hospitalizations');
    expect(asked(fetchMock)).toContain('/api/hospitalizations/board/');
  });

  it('knows the home by the dashboard the user opens on, and nothing for a path it has no entry for', () => {
    renderApp('/', { user: makeUser() });
    expect(prefetchEntry('/')).not.toBeNull();
    expect(prefetchEntry('/en/documents')).toBe(prefetchEntry('/documents'));
    expect(prefetchEntry('/patients/123')).toBeNull();
  });
});

describe('the shell’s secondary requests wait for the page’s first data (issue 38)', () => {
  it('asks for the notifications, the hospital settings and the unread messages only once the list is in', {
    timeout: 40_000,
  }, async () => {
    stubDesktopWidth();
    holdShellRequests(600_000);
    let answer: (response: Response) => void = () => {};
    const { fetchMock } = renderApp('/documents', {
      user: makeUser(),
      routes: {
        '/api/documents/': () =>
          new Promise<Response>((resolve) => {
            answer = resolve;
          }),
        '/api/notifications/': () => Response.json({ results: [], next: null, unread_count: 0 }),
        '/api/hospital/settings/': () => Response.json({ notification_sound: true }),
        '/api/chat/unread/': () => Response.json({ unread_total: 0 }),
      },
    });
    await waitFor(() => expect(asked(fetchMock).some((p) => p.startsWith('/api/documents/'))).toBe(true), {
      timeout: 15_000,
    });
    // The socket's ticket goes at once (it is not a read of the database's lists).
    const shell = (path: string) =>
      ['/api/notifications/', '/api/hospital/settings/', '/api/chat/unread/'].includes(
        path.split('?')[0] ?? '',
      );
    expect(asked(fetchMock).filter(shell)).toEqual([]);
    answer(pageOf([issuedItem()]) as Response);
    await screen.findByText('CM-HGG-2026-000042');
    await waitFor(() =>
      expect(
        asked(fetchMock)
          .filter(shell)
          .map((p) => p.split('?')[0]),
      ).toEqual(expect.arrayContaining(['/api/notifications/', '/api/hospital/settings/'])),
    );
  });
});
