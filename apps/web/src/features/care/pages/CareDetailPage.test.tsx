import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  dose,
  execution,
  LINE_ID,
  marLine,
  NURSE_ID,
  PLAN_ID,
  plan,
  SHIFT,
} from '../../../lib/clinical/components/care/care.fixture';
import { locationOf, type MockRequest, makeUser, renderApp } from '../../../test/render';

afterEach(() => vi.unstubAllGlobals());

const nurse = makeUser({
  id: NURSE_ID,
  full_name: 'Inès Mbala',
  active_roles: [{ role_code: 'NURSE', hospital: 'h1', department: null }],
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function routes(administrations: (r: MockRequest) => Response | Promise<Response>) {
  return {
    [`/api/care/plans/${PLAN_ID}/`]: () => Response.json(plan()),
    [`/api/care/plans/${PLAN_ID}/executions/`]: () =>
      Response.json({ count: 1, next: null, previous: null, results: [execution()] }),
    '/api/care/shift/': () =>
      Response.json({ current: SHIFT, previous: SHIFT, next: SHIFT, shift_times: ['07:00', '19:00'] }),
    [`/api/care/plans/${PLAN_ID}/mar/`]: () =>
      Response.json({ plan: PLAN_ID, from: SHIFT.start, to: SHIFT.end, lines: [marLine([dose()])] }),
    '/api/care/mar/administrations/': administrations,
  };
}

async function openDoseForm(administrations: (r: MockRequest) => Response | Promise<Response>) {
  const user = userEvent.setup();
  const view = renderApp(`/care/${PLAN_ID}`, { user: nurse, routes: routes(administrations) });
  await user.click(await screen.findByRole('tab', { name: 'Médicaments' }, { timeout: 15_000 }));
  await user.click(await screen.findByTestId('mar-dose'));
  const form = await screen.findByTestId('dose-form');
  return { user, form, ...view };
}

describe('the care file', () => {
  it('shows the patient, the tasks to do and the care plan tabs', async () => {
    renderApp(`/care/${PLAN_ID}`, {
      user: nurse,
      routes: routes(() => Response.json({})),
    });
    expect(
      await screen.findByRole('heading', { name: 'Dossier de soins de Joseph Kabila' }, { timeout: 15_000 }),
    ).toBeInTheDocument();
    expect(await screen.findByText('Réfection du pansement')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Séjour/ })).toHaveAttribute(
      'href',
      '/hospitalizations/0190f0f0-5555-7222-8333-444455556662',
    );
  });

  it('a double tap on "give" records one dose: one request, with the key made when the form opened', async () => {
    const calls: MockRequest[] = [];
    let answer: (response: Response) => void = () => {};
    const { user, form } = await openDoseForm((request) => {
      calls.push(request);
      return new Promise<Response>((resolve) => {
        answer = resolve;
      });
    });
    const submit = within(form).getByTestId('dose-submit');
    await user.dblClick(submit);
    await user.click(submit);
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(submit).toBeDisabled();
    const body = calls[0]?.body as Record<string, unknown>;
    expect(body).toMatchObject({
      outcome: 'given',
      prescription_line: LINE_ID,
      scheduled_at: '2026-03-04T08:00:00Z',
      dose: 1,
      dose_unit: 'tablet',
      route: 'oral',
    });
    expect(body.idempotency_key).toMatch(UUID);
    answer(Response.json({ id: 'r1' }, { status: 201 }));
    await waitFor(() => expect(screen.queryByTestId('dose-form')).not.toBeInTheDocument());
    expect(calls).toHaveLength(1);
  });

  it('saving again after a failure sends the same key (the server records the dose once)', async () => {
    const keys: unknown[] = [];
    const { user, form } = await openDoseForm((request) => {
      keys.push((request.body as { idempotency_key: string }).idempotency_key);
      return keys.length === 1
        ? Response.json({ detail: 'Service indisponible' }, { status: 503 })
        : Response.json({ id: 'r1' }, { status: 200 });
    });
    await user.click(within(form).getByTestId('dose-submit'));
    expect(await within(form).findByRole('alert')).toHaveTextContent('Service indisponible');
    await user.click(within(form).getByTestId('dose-submit'));
    await waitFor(() => expect(keys).toHaveLength(2));
    expect(keys[0]).toMatch(UUID);
    expect(keys[1]).toBe(keys[0]);
  });

  it('a dose not given needs a reason, and is sent with it', async () => {
    const calls: MockRequest[] = [];
    const { user, form } = await openDoseForm((request) => {
      calls.push(request);
      return Response.json({ id: 'r1' }, { status: 201 });
    });
    await user.click(within(form).getByRole('radio', { name: 'Non donné' }));
    await user.click(within(form).getByTestId('dose-submit'));
    expect(await within(form).findByText('Choisissez un motif')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
    await user.click(within(form).getByRole('radio', { name: 'Vomissement' }));
    await user.click(within(form).getByTestId('dose-submit'));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]?.body).toMatchObject({
      outcome: 'not_given',
      reason: 'vomited',
      prescription_line: LINE_ID,
    });
  });

  it('writes a care order with its schedule, and stops one with a reason', async () => {
    const created: MockRequest[] = [];
    const stopped: MockRequest[] = [];
    const order = {
      id: '0190f0f0-0d0d-7222-8333-444455556609',
      plan: PLAN_ID,
      kind: 'dressing',
      title: 'Réfection du pansement',
      instructions: null,
      signs: [],
      priority: 'normal',
      schedule: { kind: 'fixed_times', times: ['08:00', '20:00'] },
      start_at: '2026-03-04T08:00:00Z',
      end_at: null,
      status: 'active',
      ordered_by: { id: NURSE_ID, full_name: 'Inès Mbala' },
      ordered_at: '2026-03-04T07:00:00Z',
      stopped_by: null,
      stopped_at: null,
      stop_reason: null,
    };
    const user = userEvent.setup();
    renderApp(`/care/${PLAN_ID}`, {
      user: nurse,
      routes: {
        ...routes(() => Response.json({})),
        [`/api/care/plans/${PLAN_ID}/orders/`]: (request) => {
          if (request.method === 'POST') {
            created.push(request);
            return Response.json(order, { status: 201 });
          }
          return Response.json({ count: 1, next: null, previous: null, results: [order] });
        },
        [`/api/care/orders/${order.id}/stop/`]: (request) => {
          stopped.push(request);
          return Response.json({ ...order, status: 'stopped' });
        },
      },
    });
    await user.click(await screen.findByRole('tab', { name: 'Plan de soins' }, { timeout: 15_000 }));
    expect(await screen.findByText('À 08:00, 20:00')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Nouvelle prescription de soin' }));
    const form = await screen.findByTestId('order-form');
    expect(within(form).getByLabelText(/Intitulé/)).toHaveValue('Surveillance des constantes');
    await user.click(within(form).getByRole('button', { name: 'Prescrire' }));
    await waitFor(() => expect(created).toHaveLength(1));
    expect(created[0]?.body).toMatchObject({
      kind: 'vitals',
      title: 'Surveillance des constantes',
      signs: ['temperature', 'heart_rate', 'blood_pressure', 'spo2'],
      priority: 'normal',
      schedule: { kind: 'every_hours', hours: 4 },
      days: null,
    });
    await user.click(await screen.findByRole('button', { name: 'Arrêter' }));
    await user.type(await screen.findByLabelText(/Motif de l'arrêt/), 'Cicatrisation obtenue');
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Arrêter' }));
    await waitFor(() => expect(stopped).toHaveLength(1));
    expect(stopped[0]?.body).toEqual({ reason: 'Cicatrisation obtenue' });
  });

  it("/care/{stay id} finds the stay's care file and takes its address (issue 37)", async () => {
    const STAY = '0190f0f0-5555-7222-8333-444455556662';
    const { router } = renderApp(`/care/${STAY}`, {
      user: nurse,
      routes: {
        ...routes(() => Response.json({})),
        [`/api/care/plans/${STAY}/`]: () => Response.json(plan()),
      },
    });
    await waitFor(() => expect(locationOf(router)).toBe(`/care/${PLAN_ID}`), { timeout: 15_000 });
    expect(
      await screen.findByRole('heading', { name: 'Dossier de soins de Joseph Kabila' }, { timeout: 15_000 }),
    ).toBeInTheDocument();
    expect(screen.queryByText('Impossible de charger les données')).not.toBeInTheDocument();
  });

  it('/care/{stay id} of a stay without a care file opens one, then shows it', async () => {
    const STAY = '0190f0f0-5555-7222-8333-444455556669';
    const opened: MockRequest[] = [];
    const { router } = renderApp(`/care/${STAY}`, {
      user: nurse,
      routes: {
        ...routes(() => Response.json({})),
        [`/api/care/plans/${STAY}/`]: () => Response.json({ detail: 'Introuvable.' }, { status: 404 }),
        '/api/care/plans/': (request) => {
          opened.push(request);
          return Response.json(plan(), { status: 201 });
        },
      },
    });
    await waitFor(() => expect(locationOf(router)).toBe(`/care/${PLAN_ID}`), { timeout: 15_000 });
    expect(opened.map((r) => r.body)).toEqual([{ hospitalization: STAY }]);
    expect(
      await screen.findByRole('heading', { name: 'Dossier de soins de Joseph Kabila' }, { timeout: 15_000 }),
    ).toBeInTheDocument();
  });
  // Issue 37: once the vitals were saved, the dialog offered both "Annuler" and "Fermer".
  it('after saving vitals, the dialog has one button: Fermer', async () => {
    const user = userEvent.setup();
    renderApp(`/care/${PLAN_ID}`, {
      user: nurse,
      routes: {
        ...routes(() => Response.json({})),
        [`/api/care/plans/${PLAN_ID}/vitals/`]: () =>
          Response.json(
            {
              id: '0190f0f0-9999-7222-8333-444455550001',
              plan: PLAN_ID,
              patient: '0190f0f0-7777-7222-8333-444455556601',
              recorded_at: '2026-03-04T08:00:00Z',
              recorded_by: { id: NURSE_ID, full_name: 'Inès Mbala' },
              temperature: 38.6,
              heart_rate: null,
              respiratory_rate: null,
              systolic_bp: null,
              diastolic_bp: null,
              spo2: null,
              on_oxygen: false,
              oxygen_flow: null,
              avpu: null,
              confused: null,
              pain: null,
              weight: null,
              glycaemia: null,
              note: null,
              news2: null,
              escalated_to: [],
            },
            { status: 201 },
          ),
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Constantes' }, { timeout: 15_000 }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('button', { name: 'Annuler' })).toBeInTheDocument();
    await user.type(within(dialog).getByRole('textbox', { name: /Température/ }), '38,6');
    await user.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    await within(dialog).findByTestId('vitals-saved');
    // The footer's "Fermer" (the dialog's close icon is named "Fermer" too, without text).
    expect(
      within(dialog)
        .getAllByRole('button', { name: 'Fermer' })
        .filter((button) => button.textContent === 'Fermer'),
    ).toHaveLength(1);
    expect(within(dialog).queryByRole('button', { name: 'Annuler' })).toBeNull();
  }, 40_000);

  // Issue 39: a ward set may carry the height (cm), optional, sent with the set (a decimal comma reads).
  it('sends an optional height in cm with the vitals', async () => {
    const user = userEvent.setup();
    const calls: MockRequest[] = [];
    renderApp(`/care/${PLAN_ID}`, {
      user: nurse,
      routes: {
        ...routes(() => Response.json({})),
        [`/api/care/plans/${PLAN_ID}/vitals/`]: (request) => {
          calls.push(request);
          return Response.json(
            {
              id: '0190f0f0-9999-7222-8333-444455550002',
              plan: PLAN_ID,
              patient: '0190f0f0-7777-7222-8333-444455556601',
              recorded_at: '2026-03-04T08:00:00Z',
              recorded_by: { id: NURSE_ID, full_name: 'Inès Mbala' },
              ...Object.fromEntries(
                ['temperature', 'heart_rate', 'respiratory_rate', 'systolic_bp', 'diastolic_bp', 'spo2']
                  .concat(['oxygen_flow', 'avpu', 'confused', 'pain', 'weight', 'glycaemia', 'note', 'news2'])
                  .map((k) => [k, null]),
              ),
              temperature: 37,
              height: 172.5,
              on_oxygen: false,
              escalated_to: [],
            },
            { status: 201 },
          );
        },
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Constantes' }, { timeout: 15_000 }));
    const dialog = await screen.findByRole('dialog');
    const height = within(dialog).getByRole('textbox', { name: /Taille \(cm\)/ });
    await user.type(height, '172,5');
    await user.type(within(dialog).getByRole('textbox', { name: /Température/ }), '37');
    await user.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect((calls[0]!.body as { vitals: Record<string, unknown> }).vitals).toMatchObject({
      temperature: 37,
      height: 172.5,
    });
    await within(dialog).findByTestId('vitals-saved');
  }, 40_000);
});
