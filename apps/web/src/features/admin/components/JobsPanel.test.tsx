import type { TJob } from '@greensen/shared/contracts/jobs';
import type { THealth } from '@greensen/shared/contracts/system';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../../lib/query-client';
import { useAuthStore } from '../../../stores/auth';
import { fakeMediaQueryList } from '../../../test/media-query';
import { TestProviders } from '../../../test/render';
import { JobsPanel } from './JobsPanel';

const FAILED = '01a20084-3df8-723b-b4f0-7b5799e2dfc2';

function job(over: Partial<TJob>): TJob {
  return {
    id: '01a20084-3df8-723b-b4f0-7b5799e2dfc9',
    name: 'maintenance.purge',
    state: 'done',
    hospital: null,
    attempts: 1,
    max_attempts: 3,
    run_at: '2026-11-24T10:17:00.000Z',
    started_at: '2026-11-24T10:17:00.000Z',
    finished_at: '2026-11-24T10:17:01.000Z',
    last_error: null,
    created_at: '2026-11-24T09:17:00.000Z',
    ...over,
  };
}

/** A fake server: the list (filtered by state when asked) and the retry of the failed job. */
const HEALTHY: THealth = {
  status: 'ok',
  database: 'ok',
  file_store: 'ok',
  file_store_kind: 'database',
  redis: 'ok',
  jobs_worker: 'running',
  problems: [],
};

function mockServer(opts: { listStatus?: number; health?: THealth } = {}) {
  const calls: string[] = [];
  let failed = job({
    id: FAILED,
    name: 'mail.deliver',
    state: 'failed',
    attempts: 6,
    max_attempts: 6,
    last_error: 'Invalid login: 535 Authentication failed',
  });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      calls.push(`${init?.method ?? 'GET'} ${url.pathname}${url.search}`);
      if (url.pathname === '/api/health/') return Response.json(opts.health ?? HEALTHY);
      if (url.pathname === '/api/admin/jobs/' && opts.listStatus)
        return Response.json({ detail: 'Erreur interne.' }, { status: opts.listStatus });
      if (url.pathname === '/api/admin/jobs/') {
        const all = [failed, job({})];
        const state = url.searchParams.get('state');
        const results = state ? all.filter((j) => j.state === state) : all;
        return Response.json({ count: results.length, next: null, previous: null, results });
      }
      if (url.pathname === `/api/admin/jobs/${FAILED}/retry/` && init?.method === 'POST') {
        failed = { ...failed, state: 'queued', attempts: 0 };
        return Response.json(failed);
      }
      return Response.json({ detail: 'Not found' }, { status: 404 });
    }),
  );
  return calls;
}

/** The table row that shows `text`, now (rows are re-rendered as data arrives: never keep one). */
function rowOf(text: string): HTMLElement {
  const row = screen.getAllByRole('row').find((r) => within(r).queryByText(text));
  if (!row) throw new Error(`no row shows ${text}`);
  return row;
}

/** Waits until the row that shows `text` shows every one of `contents` too. */
async function expectRow(text: string, ...contents: string[]) {
  await waitFor(() => {
    for (const content of contents) expect(within(rowOf(text)).getByText(content)).toBeInTheDocument();
  });
}

function renderPanel() {
  render(
    <TestProviders>
      <JobsPanel />
    </TestProviders>,
  );
}

describe('jobs panel', () => {
  beforeEach(() => {
    // The table shows a cell while its column's media query matches (every column has the empty query, which
    // a browser always matches; the test setup's stub matches nothing).
    vi.spyOn(window, 'matchMedia').mockImplementation((query) =>
      fakeMediaQueryList(query, !query.includes('prefers-')),
    );
    queryClient.clear();
    useAuthStore.setState({ access: 'a', refresh: 'r', isAuthenticated: true, currentHospitalId: 'h1' });
  });

  it('lists the jobs with their state, tries and last error, and retries a failed one', async () => {
    const calls = mockServer();
    const user = userEvent.setup();
    renderPanel();
    await expectRow('Envoi d’un e-mail', 'En échec', '6 / 6', 'Invalid login: 535 Authentication failed');
    await expectRow('Purge des liens et sessions expirés', 'Terminée', '1 / 3');
    // Only the failed job has a retry button.
    expect(screen.getAllByRole('button', { name: /Relancer la tâche/ })).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Relancer la tâche « Envoi d’un e-mail »' }));
    expect(await screen.findByText('Tâche relancée')).toBeInTheDocument();
    expect(calls).toContain(`POST /api/admin/jobs/${FAILED}/retry/`);
    await expectRow('Envoi d’un e-mail', 'En attente', '0 / 6');
    expect(screen.queryByRole('button', { name: /Relancer la tâche/ })).not.toBeInTheDocument();
  });

  it('filters by state and says when nothing matches', async () => {
    const calls = mockServer();
    const user = userEvent.setup();
    renderPanel();
    await expectRow('Envoi d’un e-mail', 'En échec');
    await user.click(screen.getByRole('combobox', { name: 'État' }));
    await user.click(await screen.findByRole('option', { name: 'En cours', hidden: true }));
    expect(await screen.findByText('Aucune tâche ne correspond à ces filtres.')).toBeInTheDocument();
    expect(calls).toContain('GET /api/admin/jobs/?state=running&page=1&page_size=20');
  });

  it('shows the load error with a retry', async () => {
    mockServer({ listStatus: 500 });
    renderPanel();
    const alert = await screen.findByRole('alert', { name: /Impossible de charger les données/ });
    expect(within(alert).getByRole('button', { name: 'Réessayer' })).toBeInTheDocument();
  });

  it('tells administrators when this server is degraded, and says nothing when all is well', async () => {
    mockServer({
      health: {
        ...HEALTHY,
        status: 'degraded',
        redis: 'unavailable',
        jobs_worker: 'held',
        problems: ['redis', 'jobs_worker'],
      },
    });
    renderPanel();
    const alert = await screen.findByRole('alert', { name: 'Ce serveur fonctionne en mode dégradé' });
    expect(within(alert).getByText(/Redis est injoignable/)).toBeInTheDocument();
    expect(within(alert).getByText(/Les tâches de fond sont suspendues/)).toBeInTheDocument();
    expect(within(alert).getByText(/release-jobs/)).toBeInTheDocument();
  });

  it('shows no health banner on a healthy server', async () => {
    mockServer();
    renderPanel();
    await expectRow('Envoi d’un e-mail', 'En échec');
    expect(
      screen.queryByRole('alert', { name: 'Ce serveur fonctionne en mode dégradé' }),
    ).not.toBeInTheDocument();
  });
});
