import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '../../../stores/auth';
import { TestProviders } from '../../../test/render';
import { queryClient } from '../../query-client';
import { PrescriptionForm } from './PrescriptionForm';
import { amoxicillin, CONSULTATION, PATIENT, pageOf } from './pharmacy.fixture';

/** The weights the form sent to the safety check, in order; the drafts it saved. */
function serve(weights: unknown[], saved: unknown[] = []) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      if (url.pathname === '/api/medications/') return pageOf([amoxicillin()]);
      if (url.pathname === '/api/prescriptions/check/') {
        weights.push((JSON.parse(String(init?.body)) as { weight_kg: unknown }).weight_kg);
        return Response.json({ warnings: [], quantities: [21], weight_kg: null });
      }
      if (url.pathname === '/api/prescriptions/' && init?.method === 'POST') saved.push(init.body);
      return Response.json({ detail: 'Not found' }, { status: 404 });
    }),
  );
}

beforeEach(() => {
  queryClient.clear();
  useAuthStore.setState({ access: 'a', refresh: 'r', isAuthenticated: true, currentHospitalId: 'h1' });
});
afterEach(() => vi.unstubAllGlobals());

async function openForm() {
  const user = userEvent.setup();
  const weights: unknown[] = [];
  const saved: unknown[] = [];
  serve(weights, saved);
  render(
    <TestProviders>
      <PrescriptionForm
        patient={PATIENT}
        consultationId={CONSULTATION}
        onCancel={() => undefined}
        onDone={() => undefined}
      />
    </TestProviders>,
  );
  await user.type(screen.getByTestId('medication-search'), 'amox');
  await user.click(await screen.findByRole('option', { name: /Amoxicilline/, hidden: true }));
  await user.type(screen.getByRole('textbox', { name: /Durée/ }), '7');
  const weight = screen.getByRole('textbox', { name: /Poids/ });
  await user.click(weight);
  return { user, weights, saved, weight };
}

describe("the prescription's weight (issue 34: a pasted 62,5 became 625 kg, then 300 kg)", () => {
  it('a pasted "62,5" is 62.5 kg for the check, shown "62,5"; a filled "8.5" is 8.5 kg, shown "8,5"', async () => {
    const { user, weights, weight } = await openForm();
    await user.paste('62,5');
    await user.tab();
    expect(weight).toHaveValue('62,5');
    await waitFor(() => expect(weights.at(-1)).toBe(62.5), { timeout: 4000 });
    await user.clear(weight);
    await user.click(weight);
    await user.paste('8.5');
    await user.tab();
    expect(weight).toHaveValue('8,5');
    await waitFor(() => expect(weights.at(-1)).toBe(8.5), { timeout: 4000 });
  });

  it('625 kg is said out of bounds, kept as typed, never clamped to 300, and the draft is not saved', async () => {
    const { user, weights, saved, weight } = await openForm();
    await user.paste('625');
    await user.tab();
    expect(weight).toHaveValue('625');
    expect(screen.getByText('Valeur hors limites : 0,2–300 kg.')).toBeInTheDocument();
    // The form holds NaN: the draft's contract refuses it, nothing is sent, the field keeps saying why.
    await user.click(screen.getByRole('button', { name: 'Enregistrer le brouillon' }));
    expect(await screen.findByText('Valeur hors limites : 0,2–300 kg.')).toBeInTheDocument();
    expect(weight).toHaveValue('625');
    expect(saved).toEqual([]);
    expect(weights).not.toContain(300);
    expect(weights).not.toContain(625);
  });
});
