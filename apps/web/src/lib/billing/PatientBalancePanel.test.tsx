import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TestProviders } from '../../test/render';
import { queryClient } from '../query-client';
import { PatientBalancePanel } from './PatientBalancePanel';

const PATIENT = '0190f0f0-3333-7222-8333-444455550001';

function serve(body: unknown, status = 200) {
  queryClient.clear();
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => Response.json(body, { status })),
  );
}

function show(invoicesLink: boolean) {
  render(
    <TestProviders>
      <MemoryRouter>
        <PatientBalancePanel patientId={PATIENT} invoicesLink={invoicesLink} />
      </MemoryRouter>
    </TestProviders>,
  );
}

afterEach(() => vi.unstubAllGlobals());

const balance = {
  patient: PATIENT,
  currency: 'XOF',
  invoiced: 20000,
  paid: 7500,
  balance: 12500,
  open_invoices: 1,
  draft_invoices: 1,
};

describe('the patient record’s balance (issue 21)', () => {
  it('shows what the patient owes in FCFA; a clinician gets no link to the invoices', async () => {
    serve(balance);
    show(false);
    expect(await screen.findByTestId('balance-amount')).toHaveTextContent(/^12\s500\sF\sCFA$/);
    expect(screen.getByText('Reste dû sur les factures émises.')).toBeInTheDocument();
    expect(screen.getByText(/^7\s500\sF\sCFA$/)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Voir ses factures' })).not.toBeInTheDocument();
  });

  it('links billing staff to the patient’s invoices; nothing owed in euros is “Rien à payer”', async () => {
    serve({ ...balance, currency: 'EUR', invoiced: 123450, paid: 123450, balance: 0, open_invoices: 0 });
    show(true);
    expect(await screen.findByTestId('balance-amount')).toHaveTextContent(/^0,00\s€$/);
    expect(screen.getByText('Rien à payer.')).toBeInTheDocument();
    // Invoiced and paid.
    expect(screen.getAllByText(/^1\s234,50\s€$/)).toHaveLength(2);
    expect(screen.getByRole('link', { name: 'Voir ses factures' })).toHaveAttribute(
      'href',
      `/billing?patient=${PATIENT}`,
    );
  });

  it('shows a load failure', async () => {
    serve({ detail: 'Panne' }, 500);
    show(false);
    expect(
      await screen.findByText('Impossible de charger les données', {}, { timeout: 10_000 }),
    ).toBeInTheDocument();
  });
});
