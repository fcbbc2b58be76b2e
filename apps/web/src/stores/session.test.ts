import { notifications } from '@mantine/notifications';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '../lib/api-client';
import { setNavigator } from '../lib/navigation';
import { refreshUser } from '../lib/profile';
import { completeLogin, logout, refreshTokens, switchHospital } from '../lib/session';
import { activeTimerNames, registerInterval } from '../lib/timers';
import { useAuthStore } from './auth';
import { useLockStore } from './lock';
import { chooseDepartment, type User, useUserStore } from './user';

function makeUser(overrides: Partial<User> = {}): User {
  return {
    id: 'u1',
    email: 'medecin@greensen.test',
    username: 'medecin',
    full_name: 'Awa Diop',
    profile: { first_name: 'Awa', last_name: 'Diop', language_preference: 'fr' },
    hospitals: [
      { id: 'h1', name: 'Hôpital Général de Greensen', code: 'HGG' },
      { id: 'h2', name: 'Clinique du Fleuve', code: 'CDF' },
    ],
    departments: [
      { id: 'd1', name: 'Urgences', hospital: 'h1' },
      { id: 'd2', name: 'Pédiatrie', hospital: 'h1' },
      { id: 'd3', name: 'Maternité', hospital: 'h2' },
    ],
    active_roles: [{ role_code: 'DOCTOR', hospital: 'h1', department: null }],
    roles: [{ code: 'DOCTOR', name: 'Doctor' }],
    has_pin: false,
    ...overrides,
  };
}

const navigate = vi.fn();

beforeEach(() => {
  navigate.mockReset();
  setNavigator(navigate, () => '/patients');
  useAuthStore.setState({
    access: null,
    refresh: null,
    currentHospitalId: null,
    isLoggingOut: false,
    isAuthenticated: false,
  });
  useUserStore.setState({ user: null, currentDepartmentId: null });
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('user store rules', () => {
  it('chooses the first hospital when none is selected, and its first department', () => {
    useUserStore.getState().setUser(makeUser());
    expect(useAuthStore.getState().currentHospitalId).toBe('h1');
    expect(useUserStore.getState().currentDepartmentId).toBe('d1');
  });

  it('keeps the selected hospital and the current department when still present', () => {
    useAuthStore.setState({ currentHospitalId: 'h1' });
    useUserStore.setState({ currentDepartmentId: 'd2' });
    useUserStore.getState().setUser(makeUser());
    expect(useAuthStore.getState().currentHospitalId).toBe('h1');
    expect(useUserStore.getState().currentDepartmentId).toBe('d2');
  });

  it('uses the first department when the current one is gone', () => {
    useAuthStore.setState({ currentHospitalId: 'h1' });
    useUserStore.setState({ currentDepartmentId: 'gone' });
    useUserStore.getState().setUser(makeUser());
    expect(useUserStore.getState().currentDepartmentId).toBe('d1');
  });

  it('has no hospital nor department for a user waiting for assignment', () => {
    useUserStore.getState().setUser(makeUser({ hospitals: [], departments: [], active_roles: [] }));
    expect(useAuthStore.getState().currentHospitalId).toBeNull();
    expect(useUserStore.getState().currentDepartmentId).toBeNull();
  });

  it('changing hospital selects its first department, or none', () => {
    useUserStore.getState().setUser(makeUser());
    switchHospital('h2');
    expect(useAuthStore.getState().currentHospitalId).toBe('h2');
    expect(useUserStore.getState().currentDepartmentId).toBe('d3');
    useUserStore
      .getState()
      .setUser(makeUser({ departments: [{ id: 'd1', name: 'Urgences', hospital: 'h1' }] }));
    switchHospital('h2');
    expect(useUserStore.getState().currentDepartmentId).toBeNull();
  });

  it('chooseDepartment falls back to the first department of the hospital', () => {
    expect(chooseDepartment(makeUser(), 'h2', 'd1')).toBe('d3');
  });
});

describe('session', () => {
  it('login stores the token pair and the user', () => {
    completeLogin({ access: 'a1', refresh: 'r1' }, makeUser());
    const auth = useAuthStore.getState();
    expect(auth).toMatchObject({
      access: 'a1',
      refresh: 'r1',
      isAuthenticated: true,
      currentHospitalId: 'h1',
    });
    expect(useUserStore.getState().user?.id).toBe('u1');
  });

  it('persists the auth fields in localStorage', () => {
    completeLogin({ access: 'a1', refresh: 'r1' }, makeUser());
    const stored = JSON.parse(localStorage.getItem('greensen-auth') ?? '{}');
    expect(stored.state).toEqual({
      access: 'a1',
      refresh: 'r1',
      currentHospitalId: 'h1',
      isLoggingOut: false,
      isAuthenticated: true,
    });
    const user = JSON.parse(localStorage.getItem('greensen-user') ?? '{}');
    expect(user.state.currentDepartmentId).toBe('d1');
  });

  it('logout clears everything, stops every timer, holds the flag 5000 ms and goes to /login', () => {
    vi.useFakeTimers();
    const fetchMock = vi.fn(async () => new Response(null, { status: 205 }));
    vi.stubGlobal('fetch', fetchMock);
    completeLogin({ access: 'a1', refresh: 'r1' }, makeUser());
    useLockStore.getState().lock('/patients');
    const tick = vi.fn();
    registerInterval('dashboard:doctor', tick, 1000);
    registerInterval('platform:build-check', tick, 1000);

    logout();

    expect(useAuthStore.getState()).toMatchObject({
      access: null,
      refresh: null,
      currentHospitalId: null,
      isAuthenticated: false,
      isLoggingOut: true,
    });
    expect(useUserStore.getState()).toMatchObject({ user: null, currentDepartmentId: null });
    expect(useLockStore.getState().locked).toBe(false);
    expect(activeTimerNames()).toEqual(['session:logging-out']);
    expect(navigate).toHaveBeenCalledWith('/login', { replace: true });
    expect(fetchMock).toHaveBeenCalledWith('/api/logout/', expect.objectContaining({ method: 'POST' }));
    const body = JSON.parse(String((fetchMock.mock.calls[0] as unknown as [string, RequestInit])[1].body));
    expect(body).toEqual({ refresh: 'r1' });

    vi.advanceTimersByTime(4999);
    expect(useAuthStore.getState().isLoggingOut).toBe(true);
    vi.advanceTimersByTime(1);
    expect(useAuthStore.getState().isLoggingOut).toBe(false);
    vi.advanceTimersByTime(5000);
    expect(tick).not.toHaveBeenCalled();
  });

  it('several requests refused at once after a revocation: one refresh, one logout, one notice', async () => {
    const show = vi.spyOn(notifications, 'show');
    completeLogin({ access: 'a1', refresh: 'r1' }, makeUser());
    const fetchMock = vi.fn(async (input: RequestInfo | URL) =>
      String(input).includes('/api/logout/')
        ? new Response(null, { status: 205 })
        : Response.json({ detail: 'Session révoquée' }, { status: 401 }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const results = await Promise.allSettled([
      api.get('patients/'),
      api.get('admissions/'),
      api.get('exams/alerts/'),
    ]);
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    const urls = fetchMock.mock.calls.map((call) => String(call[0]));
    expect(urls.filter((u) => u.includes('/api/token/refresh/'))).toHaveLength(1);
    expect(urls.filter((u) => u.includes('/api/logout/'))).toHaveLength(1);
    expect(show).toHaveBeenCalledTimes(1);
    expect(show.mock.calls[0]?.[0]).toMatchObject({ color: 'yellow' });
    expect(navigate).toHaveBeenCalledTimes(1);
    show.mockRestore();
  });

  it('logout keeps the English prefix', () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(null)),
    );
    setNavigator(navigate, () => '/en/patients');
    logout();
    expect(navigate).toHaveBeenCalledWith('/en/login', { replace: true });
  });

  it('refreshTokens replaces the pair, one refresh at a time', async () => {
    useAuthStore.setState({ access: 'a1', refresh: 'r1', isAuthenticated: true });
    const fetchMock = vi.fn(async () => Response.json({ access: 'a2', refresh: 'r2' }));
    vi.stubGlobal('fetch', fetchMock);
    const [first, second] = await Promise.all([refreshTokens(), refreshTokens()]);
    expect(first).toBe('a2');
    expect(second).toBe('a2');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(useAuthStore.getState()).toMatchObject({ access: 'a2', refresh: 'r2' });
  });

  it('refreshTokens without refresh token resolves to null without calling the server', async () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    await expect(refreshTokens()).resolves.toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('refreshing the user logs out when the call fails, with the message of §8', async () => {
    const show = vi.spyOn(notifications, 'show');
    completeLogin({ access: 'a1', refresh: 'r1' }, makeUser());
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ detail: 'boom' }, { status: 400 })),
    );
    await expect(refreshUser()).resolves.toBeNull();
    expect(show).toHaveBeenCalledWith(
      expect.objectContaining({
        title: 'Une erreur est survenue. Veuillez réessayer plus tard.',
        color: 'red',
      }),
    );
    show.mockRestore();
    expect(useAuthStore.getState().isAuthenticated).toBe(false);
    expect(useUserStore.getState().user).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/login', { replace: true });
  });

  it('refreshing the user keeps the session when no answer comes (offline, or the page being reloaded)', async () => {
    completeLogin({ access: 'a1', refresh: 'r1' }, makeUser());
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    await expect(refreshUser()).rejects.toMatchObject({ status: 0 });
    expect(useAuthStore.getState().isAuthenticated).toBe(true);
    expect(useAuthStore.getState().refresh).toBe('r1');
  });

  it('refreshing the user keeps the session when the answer is cut off by a reload just after signing in', async () => {
    completeLogin({ access: 'a1', refresh: 'r1' }, makeUser());
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(
            new ReadableStream({
              start(controller) {
                controller.error(new DOMException('BodyStreamBuffer was aborted', 'AbortError'));
              },
            }),
            { status: 200, headers: { 'Content-Type': 'application/json' } },
          ),
      ),
    );
    await expect(refreshUser()).rejects.toMatchObject({ status: 0 });
    expect(useAuthStore.getState().isAuthenticated).toBe(true);
    expect(useAuthStore.getState().refresh).toBe('r1');
  });

  it('refreshing the user logs out when no user comes back', async () => {
    completeLogin({ access: 'a1', refresh: 'r1' }, makeUser());
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(null, { status: 200 })),
    );
    await expect(refreshUser()).resolves.toBeNull();
    expect(useAuthStore.getState().isAuthenticated).toBe(false);
  });

  it('refreshing the user stores the fresh user', async () => {
    completeLogin({ access: 'a1', refresh: 'r1' }, makeUser());
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json(makeUser({ full_name: 'Awa Diop-Ndiaye' }))),
    );
    await expect(refreshUser()).resolves.toMatchObject({ full_name: 'Awa Diop-Ndiaye' });
    expect(useUserStore.getState().user?.full_name).toBe('Awa Diop-Ndiaye');
  });
});
