import type { TPrescriptionSafety, TSafetyAlert } from '@greensen/shared/contracts/medication-safety';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  amoxicillin,
  LINE_ID,
  lot,
  PHARMACY,
  PHARMACY_2,
  PRESCRIPTION_ID,
  pageOf,
  prescription,
} from '../../../lib/clinical/components/pharmacy.fixture';
import { locationOf, type MockRequest, makeUser, renderApp } from '../../../test/render';

afterEach(() => vi.unstubAllGlobals());

const nurse = makeUser({ active_roles: [{ role_code: 'NURSE', hospital: 'h1', department: null }] });
const LOT_A = lot({
  id: '0190f0f0-eeee-7222-8333-44445555000a',
  lot_number: 'L-A',
  expiry_date: '2099-03-31',
  on_hand: 3,
});
const LOT_B = lot({
  id: '0190f0f0-eeee-7222-8333-44445555000b',
  lot_number: 'L-B',
  expiry_date: '2099-09-30',
  on_hand: 5,
});
const LOT_X = lot({
  id: '0190f0f0-eeee-7222-8333-44445555000c',
  lot_number: 'L-X',
  expiry_date: '2020-01-31',
  on_hand: 7,
  expired: true,
});

function routes({
  member = true,
  dispense,
  safety,
}: {
  member?: boolean;
  dispense?: (r: MockRequest) => Response;
  safety?: TPrescriptionSafety;
} = {}) {
  return {
    [`/api/prescriptions/${PRESCRIPTION_ID}/`]: () => Response.json({ ...prescription(), safety }),
    '/api/pharmacy/pharmacies/': () =>
      Response.json({
        results: [
          { ...PHARMACY, member },
          { ...PHARMACY_2, member: false },
        ],
      }),
    [`/api/medications/${amoxicillin().id}/`]: () => Response.json(amoxicillin()),
    // Unsorted, with an expired lot that still holds units.
    '/api/pharmacy/lots/': () => pageOf([LOT_B, LOT_X, LOT_A]),
    [`/api/prescriptions/${PRESCRIPTION_ID}/dispense/`]:
      dispense ??
      (() =>
        Response.json(
          { prescription: prescription({ status: 'dispensed' }), movements: [] },
          { status: 201 },
        )),
  };
}

async function openDispense(options: Parameters<typeof routes>[0] = {}) {
  const user = userEvent.setup();
  const view = renderApp(`/pharmacy/prescriptions/${PRESCRIPTION_ID}`, {
    user: nurse,
    routes: routes(options),
  });
  await user.click(await screen.findByRole('button', { name: 'Délivrer' }, { timeout: 15_000 }));
  const dialog = await screen.findByTestId('dispense-form');
  await within(dialog).findAllByTestId('dispense-lot');
  return { user, dialog, ...view };
}

describe('the prescription page', () => {
  it('shows the lines with the posology in words and the allergy override reason for the pharmacist', async () => {
    renderApp(`/pharmacy/prescriptions/${PRESCRIPTION_ID}`, { user: nurse, routes: routes() });
    const line = await screen.findByTestId('prescription-line-view', {}, { timeout: 15_000 });
    expect(within(line).getByTestId('line-posology')).toHaveTextContent(
      '1 gélule 3 fois par jour pendant 3 jours',
    );
    expect(within(line).getByTestId('line-quantity')).toHaveTextContent('4 / 10 gélules');
    expect(within(line).getByTestId('override-reason')).toHaveTextContent(
      'Éruption ancienne, bénéfice supérieur au risque',
    );
    expect(screen.getByTestId('allergy-alert')).toHaveTextContent('Pénicilline');
  });

  it('proposes the lot that expires first, never an expired one, and dispenses what remains', async () => {
    const { user, dialog, fetchMock } = await openDispense();
    const rows = within(dialog).getAllByTestId('dispense-lot');
    expect(rows.map((r) => r.getAttribute('data-lot'))).toEqual(['L-A', 'L-B']);
    expect(within(dialog).queryByText('L-X')).not.toBeInTheDocument();
    // 10 prescribed, 4 dispensed: 6 remain — all 3 of L-A, then 3 of L-B.
    expect(within(dialog).getByRole('textbox', { name: 'Quantité' })).toHaveValue('6');
    expect(within(dialog).getByRole('textbox', { name: 'Quantité prélevée sur le lot L-A' })).toHaveValue(
      '3',
    );
    expect(within(dialog).getByRole('textbox', { name: 'Quantité prélevée sur le lot L-B' })).toHaveValue(
      '3',
    );

    await user.click(within(dialog).getByRole('button', { name: 'Enregistrer la délivrance' }));
    expect(await screen.findByText('Délivrance enregistrée')).toBeInTheDocument();
    const posts = fetchMock.mock.calls
      .filter(([, init]) => init?.method === 'POST' && init.body)
      .map(([input, init]) => [new URL(String(input), 'http://x').pathname, JSON.parse(String(init?.body))]);
    expect(posts).toContainEqual([
      `/api/prescriptions/${PRESCRIPTION_ID}/dispense/`,
      {
        pharmacy: PHARMACY.id,
        lines: [
          {
            line: LINE_ID,
            quantity: 6,
            presentation: null,
            lots: [
              { lot: LOT_A.id, quantity: 3 },
              { lot: LOT_B.id, quantity: 3 },
            ],
          },
        ],
      },
    ]);
  });

  it('says why when the stock ran out meanwhile, and fetches the lots again', async () => {
    const { user, dialog, fetchMock } = await openDispense({
      dispense: () => Response.json({ detail: 'Le lot L-A n’a plus que 1 unité.' }, { status: 409 }),
    });
    const lotGets = () =>
      fetchMock.mock.calls.filter(([input]) => String(input).includes('/api/pharmacy/lots/')).length;
    const before = lotGets();
    await user.click(within(dialog).getByRole('button', { name: 'Enregistrer la délivrance' }));
    expect(await within(dialog).findByText('Le lot L-A n’a plus que 1 unité.')).toBeInTheDocument();
    await waitFor(() => expect(lotGets()).toBeGreaterThan(before));
    expect(screen.getByTestId('dispense-form')).toBeInTheDocument();
  });

  it('offers no dispensing to someone who is not a member of a pharmacy', async () => {
    renderApp(`/pharmacy/prescriptions/${PRESCRIPTION_ID}`, {
      user: nurse,
      routes: routes({ member: false }),
    });
    await screen.findByRole('button', { name: 'Imprimer' }, { timeout: 15_000 });
    await waitFor(() => expect(screen.queryByTestId('prescription-loading')).not.toBeInTheDocument());
    expect(screen.queryByRole('button', { name: 'Délivrer' })).not.toBeInTheDocument();
  });

  it('goes to the error page when the prescription does not exist', async () => {
    const missing = '0190f0f0-aaaa-7222-8333-444455559999';
    const { router } = renderApp(`/pharmacy/prescriptions/${missing}`, { user: nurse, routes: routes() });
    expect(await screen.findByText('Page introuvable', {}, { timeout: 15_000 })).toBeInTheDocument();
    expect(locationOf(router)).toBe(`/error-404?type=prescription&id=${missing}`);
    expect(screen.getByTestId('resource-id')).toHaveTextContent(missing);
  });
});

/** The prescriber's override of the allergy, shown to the pharmacist. */
const PRESCRIBER_OVERRIDE = {
  id: '0190f0f0-ffff-7222-8333-444455550001',
  code: 'allergy_class' as const,
  stage: 'prescribe' as const,
  prescription_line: LINE_ID,
  reason: 'Éruption ancienne, bénéfice supérieur au risque',
  by: { id: '0190f0f0-6666-7222-8333-444455550001', full_name: 'Awa Diop' },
  at: '2026-03-01T08:05:00Z',
};
const ALLERGY_NOW: TSafetyAlert = {
  code: 'allergy_class',
  severity: 'blocking',
  message: 'Amoxicilline : allergie aux pénicillines notée (Pénicilline).',
  line: 0,
  prescription_line: LINE_ID,
  medication: { id: amoxicillin().id, inn_fr: 'Amoxicilline', inn_en: 'Amoxicillin' },
  details: { allergy: 'Pénicilline', allergy_source: 'patient' },
  // The prescriber's reason does not stand for the pharmacist's.
  requires_reason: true,
  override: PRESCRIBER_OVERRIDE,
};
const LEFT: TSafetyAlert = {
  ...ALLERGY_NOW,
  code: 'patient_left',
  severity: 'warning',
  message: 'Le patient est sorti le 02/03/2026.',
  line: null,
  prescription_line: null,
  medication: null,
  details: {},
  requires_reason: false,
  override: null,
};
const SAFETY: TPrescriptionSafety = {
  alerts: [LEFT, ALLERGY_NOW],
  overrides: [PRESCRIBER_OVERRIDE],
  patient_left: true,
  weight: null,
  allergies: { state: 'recorded', items: [{ text: 'Pénicilline', source: 'patient' }] },
  pregnant: false,
  blocked_lines: [LINE_ID],
};

describe('the dispense dialog’s medication safety', () => {
  it('shows the alerts of now with the prescriber’s reason, never pre-ticks the blocked line, and dispenses it only with the pharmacist’s own reason', async () => {
    const user = userEvent.setup();
    const { fetchMock } = renderApp(`/pharmacy/prescriptions/${PRESCRIPTION_ID}`, {
      user: nurse,
      routes: routes({ safety: SAFETY }),
    });
    // The page flags the patient who left and shows the alerts of now, not the signing's words.
    expect(await screen.findByTestId('patient-left', {}, { timeout: 15_000 })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Délivrer' }));
    const dialog = await screen.findByTestId('dispense-form');

    expect(within(dialog).getByTestId('patient-left')).toHaveTextContent('Le patient est sorti');
    const alert = within(dialog).getByText(ALLERGY_NOW.message).closest('[data-testid="safety-alert"]');
    expect(alert).toHaveAttribute('data-severity', 'blocking');
    expect(within(alert as HTMLElement).getByTestId('safety-override')).toHaveTextContent(
      'Passé outre par Awa Diop à la prescription',
    );
    expect(alert).toHaveTextContent('« Éruption ancienne, bénéfice supérieur au risque »');

    // Not pre-ticked: no quantity, no lots, the refusal said; nothing to dispense yet.
    const line = within(dialog).getByTestId('dispense-line');
    const box = within(line).getByRole('checkbox');
    expect(box).not.toBeChecked();
    expect(within(line).getByTestId('line-refused')).toBeInTheDocument();
    expect(within(line).queryByTestId('safety-reason')).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Enregistrer la délivrance' }));
    expect(await within(dialog).findByText('Cochez au moins une ligne à délivrer.')).toBeInTheDocument();

    // Ticked: the pharmacist's own reason is asked before anything is sent.
    await user.click(box);
    await within(dialog).findAllByTestId('dispense-lot');
    await user.click(within(dialog).getByRole('button', { name: 'Enregistrer la délivrance' }));
    expect(
      await within(dialog).findByText(/Écrivez votre motif pour chaque alerte bloquante/),
    ).toBeInTheDocument();
    const dispenses = () =>
      fetchMock.mock.calls.filter(([input]) => String(input).includes('/dispense/')).map(([, init]) => init);
    expect(dispenses()).toHaveLength(0);

    await user.type(within(line).getByTestId('safety-reason'), 'Vérifié avec le prescripteur ce jour');
    await user.click(within(dialog).getByRole('button', { name: 'Enregistrer la délivrance' }));
    expect(await screen.findByText('Délivrance enregistrée')).toBeInTheDocument();
    expect(JSON.parse(String(dispenses()[0]?.body))).toMatchObject({
      lines: [{ line: LINE_ID, quantity: 6 }],
      overrides: [{ code: 'allergy_class', line: LINE_ID, reason: 'Vérifié avec le prescripteur ce jour' }],
    });
  }, 60_000);

  it('asks the reasons of the alerts a refusal of the server names', async () => {
    const user = userEvent.setup();
    renderApp(`/pharmacy/prescriptions/${PRESCRIPTION_ID}`, {
      user: nurse,
      routes: routes({
        safety: { ...SAFETY, alerts: [], overrides: [], patient_left: false, blocked_lines: [] },
        dispense: () =>
          Response.json(
            {
              detail: 'Alerte bloquante sans motif.',
              code: 'medication_safety',
              alerts: [{ ...ALLERGY_NOW, override: null, message: 'Allergie notée depuis la signature.' }],
            },
            { status: 409 },
          ),
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Délivrer' }, { timeout: 15_000 }));
    const dialog = await screen.findByTestId('dispense-form');
    // No alert then: the line is pre-ticked as before.
    expect(within(dialog).getByTestId('no-safety-alert')).toBeInTheDocument();
    expect(within(dialog).getByRole('checkbox')).toBeChecked();
    await within(dialog).findAllByTestId('dispense-lot');
    await user.click(within(dialog).getByRole('button', { name: 'Enregistrer la délivrance' }));
    expect(await within(dialog).findByText('Allergie notée depuis la signature.')).toBeInTheDocument();
    expect(within(dialog).getByText(/Le serveur a refusé/)).toBeInTheDocument();
    expect(within(dialog).getByTestId('safety-reason')).toBeInTheDocument();
  }, 60_000);
});
