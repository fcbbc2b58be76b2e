import type { TPrescriptionSafety, TSafetyAlert } from '@greensen/shared/contracts/medication-safety';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  amoxicillin,
  LINE_ID,
  lot,
  PHARMACY,
  PRESCRIPTION_ID,
  pageOf,
  prescription,
} from '../../../lib/clinical/components/pharmacy.fixture';
import { makeUser, renderApp } from '../../../test/render';

afterEach(() => vi.unstubAllGlobals());

const nurse = makeUser({ active_roles: [{ role_code: 'NURSE', hospital: 'h1', department: null }] });
const ALLERGY: TSafetyAlert = {
  code: 'allergy_class',
  severity: 'blocking',
  message: 'Amoxicilline : allergie aux pénicillines notée (Pénicilline).',
  line: 0,
  prescription_line: LINE_ID,
  medication: { id: amoxicillin().id, inn_fr: 'Amoxicilline', inn_en: 'Amoxicillin' },
  details: { allergy: 'Pénicilline', allergy_source: 'patient' },
  requires_reason: true,
  override: null,
};
const SAFETY: TPrescriptionSafety = {
  alerts: [ALLERGY],
  overrides: [],
  patient_left: false,
  weight: null,
  allergies: { state: 'recorded', items: [{ text: 'Pénicilline', source: 'patient' }] },
  pregnant: false,
  blocked_lines: [LINE_ID],
};
const REASON = 'Allergie documentée, choc en 2019';

/** The prescription page of a pharmacy member; the refusal route answers `refuse` (then the line is refused). */
function open(refuse: () => Response) {
  let refused = false;
  const current = () => {
    const rx = prescription();
    if (!refused) return { ...rx, safety: SAFETY };
    return {
      ...rx,
      safety: SAFETY,
      lines: rx.lines.map((l) => ({
        ...l,
        refusal: {
          at: '2026-03-02T09:30:00Z',
          by: { id: nurse.id, full_name: 'Kofi Mensah' },
          reason: REASON,
        },
      })),
    };
  };
  const view = renderApp(`/pharmacy/prescriptions/${PRESCRIPTION_ID}`, {
    user: nurse,
    routes: {
      [`/api/prescriptions/${PRESCRIPTION_ID}/`]: () => Response.json(current()),
      '/api/pharmacy/pharmacies/': () => Response.json({ results: [{ ...PHARMACY, member: true }] }),
      [`/api/medications/${amoxicillin().id}/`]: () => Response.json(amoxicillin()),
      '/api/pharmacy/lots/': () => pageOf([lot({ on_hand: 20 })]),
      [`/api/prescriptions/${PRESCRIPTION_ID}/refuse/`]: () => {
        const answer = refuse();
        if (answer.ok) refused = true;
        return answer;
      },
    },
  });
  const refusals = () =>
    view.fetchMock.mock.calls
      .filter(([input]) => String(input).includes('/refuse/'))
      .map(([, init]) => JSON.parse(String(init?.body)));
  return { ...view, refusals };
}

describe('the pharmacist’s refusal in the dispense dialog', () => {
  it('refuses the line under an alert only with a written reason, then shows who refused and why', async () => {
    const user = userEvent.setup();
    const { refusals } = open(() => Response.json(prescription()));
    await user.click(await screen.findByRole('button', { name: 'Délivrer' }, { timeout: 15_000 }));
    const dialog = await screen.findByTestId('dispense-form');
    const line = within(dialog).getByTestId('dispense-line');

    await user.click(within(line).getByRole('button', { name: 'Refuser la délivrance' }));
    await user.click(within(line).getByRole('button', { name: 'Confirmer le refus' }));
    expect(await within(line).findByText('Écrivez le motif du refus (5 caractères au moins).')).toBeVisible();
    expect(refusals()).toHaveLength(0);

    await user.type(within(line).getByRole('textbox', { name: /Motif du refus/ }), REASON);
    await user.click(within(line).getByRole('button', { name: 'Confirmer le refus' }));
    expect(await screen.findByText('Délivrance refusée : le prescripteur est prévenu.')).toBeInTheDocument();
    expect(refusals()).toEqual([{ lines: [LINE_ID], reason: REASON }]);

    // The refused line is no longer to dispense: shown apart, with who, when and why.
    const note = await within(dialog).findByTestId('line-refusal', {}, { timeout: 10_000 });
    expect(note).toHaveTextContent('Refusée par Kofi Mensah');
    expect(note).toHaveTextContent(`Motif : ${REASON}`);
    expect(within(dialog).queryByTestId('dispense-line')).not.toBeInTheDocument();
  }, 60_000);

  it('says why the server refused the refusal (the line was dispensed meanwhile)', async () => {
    const user = userEvent.setup();
    open(() => Response.json({ detail: 'Cette ligne est déjà entièrement délivrée.' }, { status: 409 }));
    await user.click(await screen.findByRole('button', { name: 'Délivrer' }, { timeout: 15_000 }));
    const dialog = await screen.findByTestId('dispense-form');
    await user.click(within(dialog).getByRole('button', { name: 'Refuser la délivrance de l’ordonnance' }));
    await user.type(within(dialog).getByRole('textbox', { name: /Motif du refus/ }), REASON);
    await user.click(within(dialog).getByRole('button', { name: 'Confirmer le refus' }));
    expect(await within(dialog).findByText('Cette ligne est déjà entièrement délivrée.')).toBeVisible();
    expect(within(dialog).queryByTestId('line-refusal')).not.toBeInTheDocument();
  }, 60_000);
});
