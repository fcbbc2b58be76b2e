import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BILLING_DEPT, departments, invoice, page } from '../features/billing/billing.fixture';
import {
  appointment,
  page as appointmentsPage,
  DEPARTMENT,
  DOCTOR,
  slot,
  todayAt,
} from '../lib/clinical/components/appointments.fixture';
import {
  PHARMACY,
  pageOf as pharmacyPageOf,
  prescription,
} from '../lib/clinical/components/pharmacy.fixture';
import { issuedItem, pageOf } from '../lib/documents/documents.fixture';
import { holdShellRequests, releaseShellRequests } from '../lib/first-data';
import { loadedComponent } from '../lib/lazy-component';
import { queryClient } from '../lib/query-client';
import { stubDesktopWidth } from '../test/media-query';
import { makeUser, renderApp } from '../test/render';
import { loadPharmacistHome } from './home-screen-loaders';
import { prefetchEntry, prefetchPage, startChunksLoaded } from './page-prefetch';

/** The calendar library, replaced (its drawing is its own: CalendarPage.test.tsx). */
vi.mock('@event-calendar/core', () => ({
  DayGrid: {},
  TimeGrid: {},
  Interaction: {},
  createCalendar: () => ({ setOption: () => {} }),
  destroyCalendar: async () => undefined,
}));

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
  // Whether the page is already on screen when the start's request goes is a race in a test (the page's chunk may
  // already be loaded by an earlier file of the shared graph): each test proves the start asks (right after
  // `prefetchPage`) and that the page then asks nothing more (the same query key), not the order of the two.
  it('the documents page finds its list in the cache: one request for it, asked by the start', {
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

  it('the pharmacist’s home is in once the start’s chunks are: the page renders it without a loader', {
    timeout: 40_000,
  }, async () => {
    renderApp('/', {
      user: makeUser({
        id: 'ph1',
        departments: [{ id: PHARMACY.id, name: PHARMACY.name, hospital: 'h1' }],
        active_roles: [{ role_code: 'PHARMACIST', hospital: 'h1', department: PHARMACY.id }],
        roles: [{ code: 'PHARMACIST', name: 'Pharmacist' }],
      }),
    });
    const started = prefetchPage(queryClient, '/', '');
    // main.tsx renders once these are in (or after the wait's limit): the module the dashboard renders is loaded.
    await startChunksLoaded(30_000);
    expect(loadedComponent(loadPharmacistHome)).toBeDefined();
    await started;
  });

  it('does not hold the first render when nothing was started by path', async () => {
    vi.useFakeTimers();
    try {
      let done = false;
      void startChunksLoaded(1_000).then(() => {
        done = true;
      });
      await vi.advanceTimersByTimeAsync(0);
      // Either nothing was started (at once) or the chunks of an earlier test are in (at once too): never the wait.
      expect(done).toBe(true);
    } finally {
      vi.useRealTimers();
    }
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

/** The requests for `path` (without the query string). */
const to = (list: string[], path: string) => list.filter((p) => p.split('?')[0] === path);

describe('first queries decided as the page decides them (issue 38)', { timeout: 60_000 }, () => {
  it('the calendar: the doctor’s own week — appointments, free places, pickers, iCalendar — each asked once', async () => {
    stubDesktopWidth();
    const { fetchMock } = renderApp('/calendar', {
      user: makeUser({ id: DOCTOR.id }),
      routes: {
        '/api/departments/': () => appointmentsPage([{ ...DEPARTMENT, is_active: true }]),
        '/api/appointments/providers/': () =>
          Response.json({ results: [{ ...DOCTOR, departments: [DEPARTMENT] }] }),
        '/api/appointments/': () => appointmentsPage([appointment({ start: todayAt(9, 0, 1) })]),
        '/api/appointments/slots/': () =>
          Response.json({ results: [slot(todayAt(10, 0, 1))], truncated: false, time_zone: 'UTC' }),
        '/api/appointments/ics-link/': () =>
          Response.json({ active: false, created_at: null, last_used_at: null }),
      },
    });
    await prefetchPage(queryClient, '/calendar', '');
    const before = asked(fetchMock);
    // "Mine" (a doctor), this week without the cancelled ones; her free places from today.
    expect(to(before, '/api/appointments/')).toHaveLength(1);
    expect(to(before, '/api/appointments/')[0]).toContain('mine=true');
    expect(to(before, '/api/appointments/slots/')[0]).toContain(`provider=${DOCTOR.id}`);
    await screen.findByTestId('calendar-page', {}, { timeout: 15_000 });
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    const after = asked(fetchMock);
    for (const path of [
      '/api/appointments/',
      '/api/appointments/slots/',
      '/api/appointments/providers/',
      '/api/departments/',
      '/api/appointments/ics-link/',
    ])
      expect(to(after, path), path).toEqual(to(before, path));
  });

  it('the calendar at another week and scope in the address: the page’s choice, not the default', async () => {
    const { fetchMock } = renderApp('/calendar', { user: makeUser({ id: DOCTOR.id }) });
    await prefetchPage(
      queryClient,
      '/calendar',
      `?view=timeGridDay&date=2027-03-02&scope=department&department=${DEPARTMENT.id}`,
    );
    const list = to(asked(fetchMock), '/api/appointments/');
    expect(list).toHaveLength(1);
    expect(list[0]).toContain(`department=${DEPARTMENT.id}`);
    expect(list[0]).toContain('from=2027-03-02&to=2027-03-02');
  });

  it('the pharmacist’s home: her pharmacies and the worklist’s first page, each asked once', async () => {
    stubDesktopWidth();
    const { lines: _lines, warnings: _warnings, ...listed } = prescription({ status: 'signed' });
    const { fetchMock } = renderApp('/', {
      user: makeUser({
        id: 'ph1',
        departments: [{ id: PHARMACY.id, name: PHARMACY.name, hospital: 'h1' }],
        active_roles: [{ role_code: 'PHARMACIST', hospital: 'h1', department: PHARMACY.id }],
        roles: [{ code: 'PHARMACIST', name: 'Pharmacist' }],
      }),
      routes: {
        '/api/pharmacy/pharmacies/': () => Response.json({ results: [{ ...PHARMACY, member: true }] }),
        '/api/prescriptions/': () =>
          pharmacyPageOf([
            { ...listed, line_count: 1, allergy_override: false, summary: 'Amoxicilline', refused_lines: 0 },
          ]),
      },
    });
    await prefetchPage(queryClient, '/', '');
    const before = asked(fetchMock);
    expect(to(before, '/api/pharmacy/pharmacies/')).toHaveLength(1);
    expect(to(before, '/api/prescriptions/')).toEqual([
      '/api/prescriptions/?status=to_dispense&page=1&page_size=15',
    ]);
    await screen.findByTestId('to-dispense-row', {}, { timeout: 15_000 });
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    const after = asked(fetchMock);
    expect(to(after, '/api/pharmacy/pharmacies/')).toHaveLength(1);
    expect(to(after, '/api/prescriptions/')).toEqual(to(before, '/api/prescriptions/'));
  });

  it('billing: the cashier’s invoices once the departments and her refresh are in, asked once', async () => {
    stubDesktopWidth();
    const cashier = makeUser({
      id: 'ca1',
      departments: [{ id: BILLING_DEPT, name: 'Caisse', hospital: 'h1' }],
      active_roles: [{ role_code: 'CASHIER', hospital: 'h1', department: BILLING_DEPT }],
      roles: [{ code: 'CASHIER', name: 'Cashier' }],
    });
    // The app's own refresh of the user is held: the page waits for it (the start-up gate), the prefetch too.
    let answerProfile: () => void = () => {};
    const profile = new Promise<Response>((resolve) => {
      answerProfile = () => resolve(Response.json(cashier));
    });
    const { fetchMock } = renderApp('/billing', {
      user: cashier,
      routes: {
        '/api/profile/': () => profile,
        '/api/departments/': () => departments(),
        '/api/hospitals/h1/': () => Response.json({ id: 'h1', currency: 'XOF' }),
        '/api/invoices/': () => page([invoice()]),
      },
    });
    await prefetchPage(queryClient, '/billing', '', profile);
    await waitFor(() => expect(asked(fetchMock)).toContain('/api/departments/?page_size=100'));
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    // Not before the user's refresh (the roles the page will see).
    expect(to(asked(fetchMock), '/api/invoices/')).toEqual([]);
    answerProfile();
    await waitFor(() =>
      expect(to(asked(fetchMock), '/api/invoices/')).toEqual(['/api/invoices/?page=1&page_size=20']),
    );
    await screen.findAllByTestId('invoice-row', {}, { timeout: 15_000 });
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    expect(to(asked(fetchMock), '/api/invoices/')).toEqual(['/api/invoices/?page=1&page_size=20']);
  });

  it('billing: no invoices asked for a user outside the billing departments (the API would refuse)', async () => {
    const { fetchMock } = renderApp('/billing', {
      user: makeUser({ active_roles: [{ role_code: 'SECRETARY', hospital: 'h1', department: 'd1' }] }),
      routes: { '/api/departments/': () => departments() },
    });
    await prefetchPage(queryClient, '/billing', '');
    await waitFor(() => expect(asked(fetchMock)).toContain('/api/departments/?page_size=100'));
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(to(asked(fetchMock), '/api/invoices/')).toEqual([]);
  });
});
