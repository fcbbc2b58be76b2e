import type { TSafetyAlert, TSafetyCheckResult } from '@greensen/shared/contracts/medication-safety';
import { type TFrequency, ZFrequency } from '@greensen/shared/contracts/pharmacy';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '../../../stores/auth';
import { TestProviders } from '../../../test/render';
import { queryClient } from '../../query-client';
import { FrequencyPicker } from './FrequencyPicker';
import { PrescriptionForm } from './PrescriptionForm';
import {
  AMOX_CAPS,
  amoxicillin,
  CONSULTATION,
  LINE_ID,
  PATIENT,
  PRESCRIPTION_ID,
  pageOf,
  prescription,
} from './pharmacy.fixture';

interface Call {
  method: string;
  path: string;
  body: unknown;
}

const ALLERGY: TSafetyAlert = {
  code: 'allergy_class',
  severity: 'blocking',
  message: 'Amoxicilline : allergie aux pénicillines notée (Pénicilline).',
  line: 0,
  prescription_line: null,
  medication: { id: amoxicillin().id, inn_fr: 'Amoxicilline', inn_en: 'Amoxicillin' },
  details: { allergy: 'Pénicilline', allergy_source: 'consultation' },
  requires_reason: true,
  override: null,
};
const INTERACTION: TSafetyAlert = {
  ...ALLERGY,
  code: 'interaction',
  severity: 'warning',
  message: 'Amoxicilline + méthotrexate : toxicité accrue du méthotrexate.',
  details: { advice: 'Surveiller la NFS.', source: 'BNF 2024' },
  requires_reason: false,
};

function safetyResult(alerts: TSafetyAlert[]): TSafetyCheckResult {
  return {
    alerts,
    weight: { kg: 62.5, recorded_at: '2026-03-01T08:00:00Z', source: 'triage' },
    allergies: { state: 'recorded', items: [{ text: 'Pénicilline', source: 'consultation' }] },
    pregnant: false,
    blocked: alerts.some((a) => a.requires_reason),
  };
}

function serve(calls: Call[], { refuseSign = false }: { refuseSign?: boolean } = {}) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ method, path: url.pathname, body });
    if (url.pathname === '/api/medications/') return pageOf([amoxicillin()]);
    if (url.pathname === '/api/prescriptions/check/')
      // The old check's allergy warning is not shown again: the safety alerts say it.
      return Response.json({
        warnings: [{ line: 0, kind: 'allergy', blocking: true, message: 'Ancien avertissement' }],
        quantities: [21],
        weight_kg: null,
      });
    if (url.pathname === '/api/medication-safety/check/')
      return Response.json(safetyResult([ALLERGY, INTERACTION]));
    if (refuseSign && url.pathname === `/api/prescriptions/${PRESCRIPTION_ID}/sign/`)
      return Response.json(
        {
          detail: 'Des alertes bloquantes attendent un motif.',
          code: 'medication_safety',
          alerts: [
            {
              ...ALLERGY,
              code: 'dose_daily_max',
              message: 'Paracétamol : 12 g sur 24 h.',
              prescription_line: LINE_ID,
              line: 0,
            },
          ],
        },
        { status: 409 },
      );
    if (url.pathname === '/api/prescriptions/' && method === 'POST')
      return Response.json(prescription({ status: 'draft', version: 1 }), { status: 201 });
    if (url.pathname === `/api/prescriptions/${PRESCRIPTION_ID}/sign/`)
      return Response.json(prescription({ status: 'signed', version: 2 }));
    return Response.json({ detail: 'Not found' }, { status: 404 });
  });
  vi.stubGlobal('fetch', fetchMock);
}

beforeEach(() => {
  queryClient.clear();
  useAuthStore.setState({ access: 'a', refresh: 'r', isAuthenticated: true, currentHospitalId: 'h1' });
});
afterEach(() => vi.unstubAllGlobals());

/** The picker as a form holds it: the value it shows is the last one it gave. */
function Picker({ onChange }: { onChange: (value: TFrequency) => void }) {
  const [value, setValue] = useState<TFrequency>({ kind: 'times_per_day', times: 3 });
  return (
    <FrequencyPicker
      value={value}
      onChange={(next) => {
        setValue(next);
        onChange(next);
      }}
    />
  );
}

describe('the frequency picker', () => {
  it('builds the structured frequency the contract takes from the kind and its number', async () => {
    const user = userEvent.setup();
    const changes: TFrequency[] = [];
    render(
      <TestProviders>
        <Picker onChange={(value) => changes.push(value)} />
      </TestProviders>,
    );
    await user.click(screen.getByRole('combobox', { name: /Fréquence/ }));
    await user.click(await screen.findByRole('option', { name: 'Toutes les N heures', hidden: true }));
    const hours = screen.getByRole('textbox', { name: /Heures/ });
    expect(hours).toHaveValue('8');
    await user.clear(hours);
    await user.type(hours, '12');
    expect(changes.at(-1)).toEqual({ kind: 'every_hours', hours: 12 });

    await user.click(screen.getByRole('combobox', { name: /Fréquence/ }));
    await user.click(await screen.findByRole('option', { name: 'Si besoin', hidden: true }));
    expect(changes.at(-1)).toEqual({ kind: 'as_needed', max_per_day: 4 });
    await user.click(screen.getByRole('combobox', { name: /Fréquence/ }));
    await user.click(await screen.findByRole('option', { name: 'Le soir au coucher', hidden: true }));
    expect(changes.at(-1)).toEqual({ kind: 'at_night' });
    expect(screen.queryByRole('textbox', { name: /Max/ })).not.toBeInTheDocument();
    // Emptied while retyped, the number is NaN (decision 0056): not a frequency the contract takes, never the old 8.
    expect(changes).toContainEqual({ kind: 'every_hours', hours: Number.NaN });
    for (const change of changes)
      expect(ZFrequency.safeParse(change).success).toBe(!Object.values(change).some(Number.isNaN));
  });
});

/** The form for the allergic adult, amoxicillin picked. */
async function prescribeAmoxicillin(options: Parameters<typeof serve>[1] = {}) {
  const user = userEvent.setup();
  const calls: Call[] = [];
  serve(calls, options);
  const onDone = vi.fn();
  render(
    <TestProviders>
      <PrescriptionForm
        patient={PATIENT}
        consultationId={CONSULTATION}
        onCancel={() => undefined}
        onDone={onDone}
      />
    </TestProviders>,
  );
  await user.type(screen.getByTestId('medication-search'), 'amox');
  await user.click(await screen.findByRole('option', { name: /Amoxicilline/, hidden: true }));
  return { user, calls, onDone };
}

describe('the prescribing form', () => {
  it('blocks signing on an allergy until a reason is written on the line, then sends the draft and signs it', async () => {
    const { user, calls, onDone } = await prescribeAmoxicillin();
    // An adult gets the capsules (the children's suspension is for children), one capsule three times a day.
    expect(screen.getByRole('combobox', { name: /Présentation/ })).toHaveValue('Gélule 500 mg');
    await user.type(screen.getByRole('textbox', { name: /Durée/ }), '7');
    expect(screen.getByTestId('posology')).toHaveTextContent('1 gélule 3 fois par jour pendant 7 jours');

    // The safety check answers: the allergy shows on the line, blocking, and signing waits for a reason; the
    // interaction is a warning with its advice and source, and asks nothing.
    const warning = (await screen.findByText(ALLERGY.message)).closest('[data-testid="safety-alert"]');
    expect(warning).toHaveAttribute('data-severity', 'blocking');
    expect(warning).toHaveTextContent('Allergie à la classe');
    expect(warning).toHaveTextContent('Allergie notée : Pénicilline (consultation en cours)');
    const interaction = screen.getByText(INTERACTION.message).closest('[data-testid="safety-alert"]');
    expect(interaction).toHaveAttribute('data-severity', 'warning');
    expect(interaction).toHaveTextContent('Conduite à tenir : Surveiller la NFS.');
    expect(interaction).toHaveTextContent('Source : BNF 2024');
    expect(screen.getAllByTestId('safety-reason')).toHaveLength(1);
    expect(screen.queryByText('Ancien avertissement')).not.toBeInTheDocument();
    // The weight the rules used, with its date, and a way to correct it.
    expect(screen.getByTestId('weight-used')).toHaveTextContent(
      'Poids retenu : 62,5 kg, mesuré le 01/03/2026',
    );
    // The quantity comes with the check that follows the duration (debounced): wait for it.
    expect(await screen.findByText('Calculée : 21 gélules', {}, { timeout: 4000 })).toBeInTheDocument();
    const sign = screen.getByRole('button', { name: 'Signer l’ordonnance' });
    expect(sign).toBeDisabled();
    expect(screen.getByTestId('sign-blocked')).toBeInTheDocument();

    const reason = screen.getByRole('textbox', { name: /Votre motif pour passer outre/ });
    await user.type(reason, 'Rash');
    expect(sign).toBeDisabled();
    await user.type(reason, ' ancien, bénin');
    expect(sign).toBeEnabled();
    await user.click(sign);

    await waitFor(() =>
      expect(onDone).toHaveBeenCalledWith(expect.objectContaining({ status: 'signed' }), true),
    );
    const writes = calls.filter((c) => c.method === 'POST' && !c.path.endsWith('/check/'));
    expect(writes).toEqual([
      {
        method: 'POST',
        path: '/api/prescriptions/',
        body: {
          patient: PATIENT.id,
          consultation: CONSULTATION,
          hospitalization: null,
          weight_kg: null,
          notes: null,
          lines: [
            {
              presentation: AMOX_CAPS.id,
              dose: 1,
              dose_unit: 'capsule',
              route: 'oral',
              frequency: { kind: 'times_per_day', times: 3 },
              duration_days: 7,
              quantity: null,
              instructions: null,
              // The allergy's reason stays on its line for the pharmacist.
              allergy_override_reason: 'Rash ancien, bénin',
            },
          ],
        },
      },
      {
        method: 'POST',
        path: `/api/prescriptions/${PRESCRIPTION_ID}/sign/`,
        body: { version: 1, overrides: [{ code: 'allergy_class', line: 0, reason: 'Rash ancien, bénin' }] },
      },
    ]);
    // The safety check saw the patient, the consultation (its unfinished allergies) and the line as typed.
    const safety = calls.filter((c) => c.path === '/api/medication-safety/check/').at(-1);
    expect(safety?.body).toMatchObject({
      patient: PATIENT.id,
      consultation: CONSULTATION,
      lines: [{ presentation: AMOX_CAPS.id, dose: 1, duration_days: 7 }],
    });
    // The old check (quantities, stock) saw the patient and the line as typed.
    const check = calls.filter((c) => c.path === '/api/prescriptions/check/').at(-1);
    expect(check?.body).toMatchObject({
      patient: PATIENT.id,
      lines: [{ presentation: AMOX_CAPS.id, duration_days: 7 }],
    });
  }, 60_000);

  it('shows the server’s refusal to sign and asks the reason of the alert it names', async () => {
    const { user, onDone } = await prescribeAmoxicillin({ refuseSign: true });
    await user.type(screen.getByRole('textbox', { name: /Durée/ }), '7');
    // The checks of the complete line have answered (the quantity comes with them).
    expect(await screen.findByText('Calculée : 21 gélules', {}, { timeout: 4000 })).toBeInTheDocument();
    await user.type(
      await screen.findByRole('textbox', { name: /Votre motif pour passer outre/ }),
      'Rash ancien, bénin',
    );
    const sign = screen.getByRole('button', { name: 'Signer l’ordonnance' });
    await waitFor(() => expect(sign).toBeEnabled());
    await user.click(sign);

    expect(await screen.findByTestId('sign-refused', {}, { timeout: 10_000 })).toHaveTextContent(
      'Le serveur a refusé',
    );
    const refused = screen.getByText('Paracétamol : 12 g sur 24 h.').closest('[data-testid="safety-alert"]');
    expect(refused).toHaveAttribute('data-code', 'dose_daily_max');
    // Its reason is asked on the line (two reasons now), and signing waits for it.
    expect(screen.getAllByTestId('safety-reason')).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'Signer l’ordonnance' })).toBeDisabled();
    expect(onDone).not.toHaveBeenCalled();
  }, 60_000);
});
