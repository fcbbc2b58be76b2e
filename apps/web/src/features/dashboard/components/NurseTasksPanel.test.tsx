import { screen, waitFor, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  dose,
  doseTask,
  execution,
  executionTask,
  handoff,
  NURSE_ID,
  PLAN_ID,
  SHIFT,
} from '../../../lib/clinical/components/care/care.fixture';
import { fakeMediaQueryList } from '../../../test/media-query';
import { type MockRequest, makeUser, renderApp } from '../../../test/render';

beforeEach(() => {
  vi.spyOn(window, 'matchMedia').mockImplementation((query) =>
    fakeMediaQueryList(query, !query.includes('prefers-')),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const nurse = makeUser({
  id: NURSE_ID,
  full_name: 'Inès Mbala',
  active_roles: [{ role_code: 'NURSE', hospital: 'h1', department: null }],
});

const EXEC_ID = '0190f0f0-e0e0-7222-8333-444455556601';
const LATE_ID = '0190f0f0-e0e0-7222-8333-444455556602';

function routes(extra: Record<string, (r: MockRequest) => Response> = {}) {
  return {
    [`/api/nurses/${NURSE_ID}/patients/`]: () =>
      Response.json({ count: 0, next: null, previous: null, results: [] }),
    [`/api/nurses/${NURSE_ID}/tasks/`]: () =>
      Response.json({
        count: 3,
        next: null,
        previous: null,
        shift: SHIFT,
        overdue: 2,
        results: [
          executionTask(
            execution({
              id: LATE_ID,
              late: true,
              scheduled_at: '2026-03-04T06:00:00Z',
              order: { ...execution().order, title: 'Surveillance des constantes', kind: 'vitals' },
            }),
          ),
          doseTask(dose({ status: 'overdue', scheduled_at: '2026-03-04T07:30:00Z' })),
          executionTask(execution({ id: EXEC_ID })),
        ],
      }),
    ...extra,
  };
}

/**
 * Picks `name` in the third task's "other actions" menu. On a busy machine the tab's first load can render the
 * list again under the click, closing the menu, and the menu can take seconds to open: the target is clicked
 * only while its menu is closed (a second click would close a menu that opened late), until the item shows, for
 * up to 30 s. The item is looked for in the dropdown the target controls, visible or not: under load jsdom left
 * an open menu's dropdown at `display: none`, its opening transition never finishing (seen in CI and with three
 * runs at once on 2 cores), while the menu and its items were there and open.
 */
async function pickTaskAction(user: UserEvent, name: string) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const tasks = await screen.findAllByTestId('task', {}, { timeout: 15_000 });
    const target = within(tasks[2] as HTMLElement).getByRole('button', { name: 'Autres actions' });
    if (target.getAttribute('aria-expanded') !== 'true') await user.click(target);
    const item = await waitFor(
      () => {
        const dropdown = document.getElementById(target.getAttribute('aria-controls') ?? '');
        if (!dropdown || target.getAttribute('aria-expanded') !== 'true') throw new Error('menu not open');
        return within(dropdown).getByRole('menuitem', { name, hidden: true });
      },
      { timeout: 3_000 },
    ).catch((error: unknown) => {
      if (Date.now() > deadline) throw error;
      return null;
    });
    if (item) {
      await user.click(item);
      return;
    }
  }
}

describe('the nurse dashboard tasks and handoffs tabs', () => {
  it('lists the shift’s tasks, late ones highlighted, and records one as done in one tap', async () => {
    const recorded: MockRequest[] = [];
    const user = userEvent.setup();
    renderApp('/', {
      user: nurse,
      routes: routes({
        [`/api/care/executions/${EXEC_ID}/record/`]: (request) => {
          recorded.push(request);
          return Response.json(execution({ id: EXEC_ID, status: 'done' }));
        },
      }),
    });
    await user.click(await screen.findByRole('tab', { name: 'Soins à faire' }, { timeout: 30_000 }));
    const tasks = await screen.findAllByTestId('task', {}, { timeout: 15_000 });
    expect(tasks).toHaveLength(3);
    expect(tasks[0]).toHaveAttribute('data-late', 'true');
    expect(tasks[1]).toHaveAttribute('data-late', 'true');
    expect(within(tasks[1] as HTMLElement).getByText(/Paracétamol/)).toBeInTheDocument();
    expect(tasks[2]).not.toHaveAttribute('data-late');
    expect(screen.getByTestId('overdue-count')).toHaveTextContent('2 en retard');
    expect(within(tasks[0] as HTMLElement).getByRole('link', { name: 'Joseph Kabila' })).toHaveAttribute(
      'href',
      `/care/${PLAN_ID}`,
    );
    await user.click(within(tasks[2] as HTMLElement).getByRole('button', { name: /Fait maintenant/ }));
    await waitFor(() => expect(recorded).toHaveLength(1), { timeout: 10_000 });
    // With its key and the nurse it was given to, so that it can wait offline (issue 40).
    expect(recorded[0]?.body).toMatchObject({ outcome: 'done', idempotency_key: expect.any(String) });
  }, 60_000);

  it('a vitals task opens the vitals entry (no "done" without values); a task done offers its undo', async () => {
    const undone: MockRequest[] = [];
    const user = userEvent.setup();
    renderApp('/', {
      user: nurse,
      routes: routes({
        [`/api/care/executions/${EXEC_ID}/record/`]: () =>
          Response.json(execution({ id: EXEC_ID, status: 'done' })),
        [`/api/care/executions/${EXEC_ID}/undo/`]: (request) => {
          undone.push(request);
          return Response.json(execution({ id: EXEC_ID }));
        },
      }),
    });
    await user.click(await screen.findByRole('tab', { name: 'Soins à faire' }, { timeout: 30_000 }));
    const tasks = await screen.findAllByTestId('task', {}, { timeout: 15_000 });
    // "Surveillance des constantes": no one-tap "done", the care file's vitals entry for this task instead.
    const vitals = tasks[0] as HTMLElement;
    expect(within(vitals).queryByRole('button', { name: /Fait maintenant/ })).not.toBeInTheDocument();
    expect(
      within(vitals).getByRole('link', { name: /Saisir les constantes — Joseph Kabila/ }),
    ).toHaveAttribute('href', `/care/${PLAN_ID}?vitals=${LATE_ID}`);
    await user.click(within(tasks[2] as HTMLElement).getByRole('button', { name: /Fait maintenant/ }));
    await user.click(await screen.findByRole('button', { name: 'Annuler « Réfection du pansement »' }));
    await waitFor(() => expect(undone).toHaveLength(1), { timeout: 10_000 });
    expect(await screen.findByText('Soin remis à faire')).toBeInTheDocument();
  }, 60_000);

  it('"not done" needs a reason and sends it', async () => {
    const recorded: MockRequest[] = [];
    const user = userEvent.setup();
    renderApp('/', {
      user: nurse,
      routes: routes({
        [`/api/care/executions/${EXEC_ID}/record/`]: (request) => {
          recorded.push(request);
          return Response.json(execution({ id: EXEC_ID, status: 'not_done' }));
        },
      }),
    });
    await user.click(await screen.findByRole('tab', { name: 'Soins à faire' }, { timeout: 15_000 }));
    await pickTaskAction(user, 'Non fait');
    const form = await screen.findByTestId('execution-form', {}, { timeout: 10_000 });
    await user.click(within(form).getByRole('button', { name: 'Enregistrer comme non fait' }));
    expect(await within(form).findByText('Choisissez un motif', {}, { timeout: 10_000 })).toBeInTheDocument();
    await user.click(within(form).getByRole('radio', { name: 'Refus du patient' }));
    await user.click(within(form).getByRole('button', { name: 'Enregistrer comme non fait' }));
    await waitFor(() => expect(recorded).toHaveLength(1), { timeout: 10_000 });
    expect(recorded[0]?.body).toEqual({ outcome: 'not_done', reason: 'patient_refused', note: null });
  }, 60_000);

  it('reassigns a task to a nurse of the department (the server notifies her)', async () => {
    const assigned: MockRequest[] = [];
    const OTHER = '0190f0f0-abcd-7222-8333-444455556677';
    const user = userEvent.setup();
    renderApp('/', {
      user: nurse,
      routes: routes({
        '/api/care/nurses/': () =>
          Response.json({
            count: 2,
            next: null,
            previous: null,
            results: [
              { id: NURSE_ID, full_name: 'Inès Mbala', role_code: 'NURSE' },
              { id: OTHER, full_name: 'Grâce Ngalula', role_code: 'NURSE' },
            ],
          }),
        [`/api/care/executions/${EXEC_ID}/assign/`]: (request) => {
          assigned.push(request);
          return Response.json({ execution: execution({ id: EXEC_ID }), reassigned_from: null });
        },
      }),
    });
    await user.click(await screen.findByRole('tab', { name: 'Soins à faire' }, { timeout: 15_000 }));
    await pickTaskAction(user, 'Réattribuer');
    const form = await screen.findByTestId('assign-form');
    await user.click(within(form).getByLabelText('Infirmier(ère)'));
    await user.click(await screen.findByRole('option', { name: 'Grâce Ngalula', hidden: true }));
    await user.click(within(form).getByRole('button', { name: 'Réattribuer' }));
    await waitFor(() => expect(assigned).toHaveLength(1));
    expect(assigned[0]?.body).toEqual({ nurse: OTHER });
  }, 60_000);

  it('the handoffs tab lists what to give and what to acknowledge; acknowledging sends it', async () => {
    const acknowledged: MockRequest[] = [];
    const written = handoff();
    const user = userEvent.setup();
    renderApp('/', {
      user: nurse,
      routes: routes({
        '/api/care/handoffs/': (request) =>
          Response.json({
            count: 1,
            next: null,
            previous: null,
            shift: SHIFT,
            results:
              request.url.searchParams.get('box') === 'to_acknowledge'
                ? [
                    {
                      plan: PLAN_ID,
                      patient: written.patient,
                      department: written.department,
                      place: written.place,
                      handoff: written,
                    },
                  ]
                : [
                    {
                      plan: PLAN_ID,
                      patient: written.patient,
                      department: written.department,
                      place: written.place,
                      handoff: null,
                    },
                  ],
          }),
        [`/api/care/handoffs/${written.id}/acknowledge/`]: (request) => {
          acknowledged.push(request);
          return Response.json({
            ...written,
            acknowledged_by: { id: NURSE_ID, full_name: 'Inès Mbala' },
            acknowledged_at: '2026-03-04T07:05:00Z',
          });
        },
      }),
    });
    await user.click(await screen.findByRole('tab', { name: 'Transmissions' }, { timeout: 30_000 }));
    expect(await screen.findByRole('button', { name: 'Rédiger' }, { timeout: 15_000 })).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'À prendre' }));
    await user.click(await screen.findByRole('button', { name: 'Lire et acquitter' }));
    const view = await screen.findByTestId('handoff');
    expect(within(view).getByText('Surveiller la SpO₂.')).toBeInTheDocument();
    await user.click(within(view).getByRole('button', { name: 'Acquitter' }));
    await waitFor(() => expect(acknowledged).toHaveLength(1));
    expect(await within(view).findByText(/Acquittée par Inès Mbala/)).toBeInTheDocument();
  }, 60_000);
});
