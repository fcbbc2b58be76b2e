import type { TMarSafe, TSafetyAlert } from '@greensen/shared/contracts/medication-safety';
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
import { type MockRequest, makeUser, renderApp } from '../../../test/render';

/** The MAR's medication safety (issue 34): the five rights, the line's alerts, the nurse's reason, stat. */
afterEach(() => vi.unstubAllGlobals());

const nurse = makeUser({
  id: NURSE_ID,
  full_name: 'Inès Mbala',
  active_roles: [{ role_code: 'NURSE', hospital: 'h1', department: null }],
});

const PRESCRIBER = {
  id: '0190f0f0-ffff-7222-8333-444455550009',
  code: 'allergy_class' as const,
  stage: 'prescribe' as const,
  prescription_line: LINE_ID,
  reason: 'Réaction ancienne, bénéfice supérieur',
  by: { id: '0190f0f0-6666-7222-8333-444455556666', full_name: 'Awa Diop' },
  at: '2026-03-04T07:00:00Z',
};
const PHARMACIST = {
  ...PRESCRIBER,
  id: '0190f0f0-ffff-7222-8333-44445555000a',
  stage: 'dispense' as const,
  reason: 'Vérifié avec la prescriptrice',
  by: { id: '0190f0f0-6666-7222-8333-444455556667', full_name: 'Rachel Kasongo' },
};
const ALLERGY: TSafetyAlert = {
  code: 'allergy_class',
  severity: 'blocking',
  message: 'Paracétamol : allergie notée (Pénicilline).',
  line: 0,
  prescription_line: LINE_ID,
  medication: { id: '0190f0f0-8888-7222-8333-444455556601', inn_fr: 'Paracétamol', inn_en: 'Paracetamol' },
  details: { allergy: 'Pénicilline', allergy_source: 'patient' },
  requires_reason: true,
  // The latest earlier step's override, and all of them: the nurse sees the prescriber's reason too.
  override: PHARMACIST,
  overrides: [PRESCRIBER, PHARMACIST],
};

function mar(lines: TMarSafe['lines']): TMarSafe {
  return {
    plan: PLAN_ID,
    from: SHIFT.start,
    to: SHIFT.end,
    patient: {
      id: '0190f0f0-7777-7222-8333-444455556601',
      full_name: 'Joseph Kabila',
      record_number: 'HGG-000042',
      birth_date: '1971-06-04',
      sex: 'M',
      photo_url: null,
      allergies: { state: 'recorded', items: [{ text: 'Pénicilline', source: 'patient' }] },
      weight: null,
    },
    lines,
  };
}

function routes(body: TMarSafe, posts: { path: string; body: unknown }[]) {
  const record = (path: string) => (r: MockRequest) => {
    posts.push({ path, body: r.body });
    return Response.json({}, { status: 201 });
  };
  return {
    [`/api/care/plans/${PLAN_ID}/`]: () => Response.json(plan()),
    [`/api/care/plans/${PLAN_ID}/executions/`]: () =>
      Response.json({ count: 1, next: null, previous: null, results: [execution()] }),
    '/api/care/shift/': () =>
      Response.json({ current: SHIFT, previous: SHIFT, next: SHIFT, shift_times: ['07:00', '19:00'] }),
    [`/api/care/plans/${PLAN_ID}/mar/`]: () => Response.json(body),
    '/api/care/mar/administrations/': record('administrations'),
    '/api/care/mar/stat/': record('stat'),
  };
}

async function openMar(body: TMarSafe) {
  const user = userEvent.setup();
  const posts: { path: string; body: unknown }[] = [];
  renderApp(`/care/${PLAN_ID}`, { user: nurse, routes: routes(body, posts) });
  await user.click(await screen.findByRole('tab', { name: 'Médicaments' }, { timeout: 15_000 }));
  await screen.findByTestId('mar-line');
  return { user, posts };
}

describe('the MAR’s medication safety', () => {
  it('shows the five rights and the alert with the prescriber’s reason, flags a late dose, and records it given only with the nurse’s reason', async () => {
    const { user, posts } = await openMar(mar([{ ...marLine([dose()]), alerts: [ALLERGY] }]));
    // The line carries its alert on the MAR already.
    expect(screen.getByTestId('mar-line-alert')).toHaveAttribute('data-severity', 'blocking');
    await user.click(screen.getByTestId('mar-dose'));
    const form = await screen.findByTestId('dose-form');

    const rights = within(form).getByTestId('five-rights');
    expect(rights).toHaveTextContent('Joseph Kabila');
    expect(rights).toHaveTextContent('HGG-000042 · né(e) le 04/06/1971');
    expect(rights).toHaveTextContent('Allergies : Pénicilline');
    expect(within(rights).getByTestId('right-medicine')).toHaveTextContent('Paracétamol');
    expect(within(rights).getByTestId('right-dose')).toHaveTextContent('1 comprimé');
    // Issue 37: the dose field's unit is a word of the UI language, as on the prescription ("capsule" showed).
    expect(within(form).queryByText('tablet')).toBeNull();
    expect(within(form).getByLabelText(/Dose/)).toBeInTheDocument();
    expect(within(form).getAllByText('comprimé').length).toBeGreaterThan(0);
    expect(within(rights).getByTestId('right-route')).toHaveTextContent('Voie orale');
    expect(within(rights).getByTestId('right-time')).toHaveTextContent('04/03/2026');

    const alert = within(form).getByText(ALLERGY.message).closest('[data-testid="safety-alert"]');
    expect(alert).toHaveTextContent('Passé outre par Awa Diop à la prescription');
    expect(alert).toHaveTextContent('« Réaction ancienne, bénéfice supérieur »');
    expect(alert).toHaveTextContent('Passé outre par Rachel Kasongo à la délivrance');
    expect(alert).toHaveTextContent('« Vérifié avec la prescriptrice »');
    // Given now, months after its time: flagged late.
    expect(within(form).getByTestId('timing-flag')).toHaveAttribute('data-timing', 'late');

    await user.click(within(form).getByTestId('dose-submit'));
    expect(
      await within(form).findByText(/Écrivez votre motif pour chaque alerte bloquante/),
    ).toBeInTheDocument();
    expect(posts).toHaveLength(0);

    await user.type(within(form).getByTestId('safety-reason'), 'Vu avec le médecin de garde');
    await user.click(within(form).getByTestId('dose-submit'));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]).toMatchObject({
      path: 'administrations',
      body: {
        outcome: 'given',
        prescription_line: LINE_ID,
        overrides: [{ code: 'allergy_class', line: LINE_ID, reason: 'Vu avec le médecin de garde' }],
      },
    });
  }, 60_000);

  it('gives a first dose now (stat) for a line whose first dose is still to come', async () => {
    const soon = new Date(Date.now() + 5 * 3600_000).toISOString();
    const { user, posts } = await openMar(
      mar([{ ...marLine([]), starts_at: soon, alerts: [], first_dose_at: null }]),
    );
    expect(screen.getByText('Pas de prise sur cette période')).toBeInTheDocument();
    await user.click(screen.getByTestId('mar-stat'));
    const form = await screen.findByTestId('dose-form');
    expect(form).toHaveAttribute('data-stat', 'true');
    expect(within(form).getByTestId('stat-notice')).toHaveTextContent(
      'les prises suivantes seront recalculées',
    );
    expect(within(form).getByTestId('right-time')).toHaveTextContent('Maintenant');
    // Given now: no time to choose, no "not given".
    expect(within(form).queryByLabelText('Donné le')).not.toBeInTheDocument();
    expect(within(form).queryByText('Non donné')).not.toBeInTheDocument();

    await user.click(within(form).getByTestId('dose-submit'));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]?.path).toBe('stat');
    expect(posts[0]?.body).toEqual({
      prescription_line: LINE_ID,
      idempotency_key: expect.any(String),
      dose: 1,
      dose_unit: 'tablet',
      route: 'oral',
      site: null,
      note: null,
    });
  }, 60_000);

  it('offers no stat dose once a dose of the line was given', async () => {
    const given = dose({
      status: 'given',
      record: {
        id: '0190f0f0-1234-7222-8333-444455556601',
        prescription_line: LINE_ID,
        scheduled_at: '2026-03-04T08:00:00Z',
        outcome: 'given',
        given_at: '2026-03-04T08:05:00Z',
        dose: 1,
        dose_unit: 'tablet',
        route: 'oral',
        site: null,
        reason: null,
        note: null,
        late: false,
        recorded_by: { id: NURSE_ID, full_name: 'Inès Mbala' },
        recorded_at: '2026-03-04T08:05:00Z',
      },
    });
    await openMar(mar([{ ...marLine([given]), starts_at: new Date().toISOString(), alerts: [] }]));
    expect(screen.queryByTestId('mar-stat')).not.toBeInTheDocument();
  }, 60_000);
});
