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

const ALLERGY = {
  line: 0,
  kind: 'allergy' as const,
  blocking: true,
  message: 'Allergie connue : Pénicilline (amoxicilline est une pénicilline).',
};

function serve(calls: Call[]) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = init?.method ?? 'GET';
    const body = init?.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ method, path: url.pathname, body });
    if (url.pathname === '/api/medications/') return pageOf([amoxicillin()]);
    if (url.pathname === '/api/prescriptions/check/')
      return Response.json({ warnings: [ALLERGY], quantities: [21], weight_kg: null });
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

describe('the prescribing form', () => {
  it('blocks signing on an allergy until a reason is written on the line, then sends the draft and signs it', async () => {
    const user = userEvent.setup();
    const calls: Call[] = [];
    serve(calls);
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
    // An adult gets the capsules (the children's suspension is for children), one capsule three times a day.
    expect(screen.getByRole('combobox', { name: /Présentation/ })).toHaveValue('Gélule 500 mg');
    await user.type(screen.getByRole('textbox', { name: /Durée/ }), '7');
    expect(screen.getByTestId('posology')).toHaveTextContent('1 gélule 3 fois par jour pendant 7 jours');

    // The safety check answers: the allergy shows on the line, red, and signing waits for a reason.
    const warning = await screen.findByText(ALLERGY.message);
    expect(warning.closest('[data-testid="prescription-warning"]')).toHaveAttribute('data-blocking', 'true');
    // The quantity comes with the check that follows the duration (debounced): wait for it.
    expect(await screen.findByText('Calculée : 21 gélules', {}, { timeout: 4000 })).toBeInTheDocument();
    const sign = screen.getByRole('button', { name: 'Signer l’ordonnance' });
    expect(sign).toBeDisabled();
    expect(screen.getByTestId('sign-blocked')).toBeInTheDocument();

    await user.type(screen.getByRole('textbox', { name: /Motif pour passer outre/ }), 'Rash');
    expect(sign).toBeDisabled();
    await user.type(screen.getByRole('textbox', { name: /Motif pour passer outre/ }), ' ancien, bénin');
    expect(sign).toBeEnabled();
    await user.click(sign);

    await waitFor(() =>
      expect(onDone).toHaveBeenCalledWith(expect.objectContaining({ status: 'signed' }), true),
    );
    const writes = calls.filter((c) => c.method === 'POST' && c.path !== '/api/prescriptions/check/');
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
              allergy_override_reason: 'Rash ancien, bénin',
            },
          ],
        },
      },
      { method: 'POST', path: `/api/prescriptions/${PRESCRIPTION_ID}/sign/`, body: { version: 1 } },
    ]);
    // The check saw the patient and the line as typed.
    const check = calls.filter((c) => c.path === '/api/prescriptions/check/').at(-1);
    expect(check?.body).toMatchObject({
      patient: PATIENT.id,
      lines: [{ presentation: AMOX_CAPS.id, duration_days: 7 }],
    });
  });
});
