/**
 * Issue 38: the first queries of the pages that decide what to ask as they render — the calendar (view, week,
 * scope), the pharmacist's home (her pharmacies, then the worklist), billing (its staff check, then the invoices) —
 * are started as the app starts, from the same choice the page makes: the page then finds them in the cache and
 * asks none of them a second time.
 */
import { screen, waitFor } from '@testing-library/react';
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
import { PHARMACY, pageOf, prescription } from '../lib/clinical/components/pharmacy.fixture';
import { releaseShellRequests } from '../lib/first-data';
import { queryClient } from '../lib/query-client';
import { stubDesktopWidth } from '../test/media-query';
import { makeUser, renderApp } from '../test/render';
import { prefetchPage } from './page-prefetch';

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

/** The API paths (with their query) the fake server was asked for, in order. */
function asked(fetchMock: { mock: { calls: unknown[][] } }): string[] {
  return fetchMock.mock.calls.map(([input]) => {
    const url = new URL(String(input), 'http://localhost');
    return `${url.pathname}${url.search}`;
  });
}

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
    expect(screen.queryByTestId('calendar-page')).toBeNull();
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
          pageOf([
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
    // Asked by the start, not by the page's list (not there yet).
    expect(screen.queryByTestId('invoices-panel')).toBeNull();
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
