import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tenderShort, xof } from '../../test/cash-tendered';
import { TestProviders } from '../../test/render';
import { queryClient } from '../query-client';
import { PatientCoveragePanel } from './PatientCoveragePanel';
import { StayDepositsPanel } from './StayDepositsPanel';

const PATIENT = '0190f0f0-3333-7222-8333-444455550001';
const STAY = '0190f0f0-3333-7222-8333-444455550002';
const INVOICE = '0190f0f0-3333-7222-8333-444455550003';

interface Sent {
  method: string;
  url: string;
  body: unknown;
}

/** Answers by "METHOD path-fragment" (a `Response` as it is); records what was sent. */
function serve(routes: Record<string, unknown>) {
  queryClient.clear();
  const sent: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      const method = init?.method ?? 'GET';
      sent.push({ method, url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      const key = Object.keys(routes).find((k) => {
        const [m, fragment] = k.split(' ');
        return m === method && url.includes(fragment!);
      });
      const answer = key ? routes[key] : undefined;
      if (answer instanceof Response) return answer.clone();
      return key
        ? Response.json(routes[key], { status: method === 'POST' ? 201 : 200 })
        : Response.json({}, { status: 404 });
    }),
  );
  return sent;
}

function show(node: React.ReactNode) {
  render(
    <TestProviders>
      <MemoryRouter>{node}</MemoryRouter>
    </TestProviders>,
  );
}

afterEach(() => vi.unstubAllGlobals());

const coverage = {
  id: '0190f0f0-3333-7222-8333-444455550010',
  patient: PATIENT,
  payer: {
    id: '0190f0f0-3333-7222-8333-444455550011',
    code: 'ASCOMA',
    name: 'Ascoma Assurances',
    kind: 'insurer',
  },
  member_number: 'ASC-2026-004512',
  valid_from: '2026-01-01',
  valid_to: null,
  is_current: true,
};

describe('a patient’s coverage on the record (issue 21, decision 0036)', () => {
  it('lists the coverage with its member number and validity; billing staff end it today', async () => {
    const sent = serve({
      'GET /coverages/': { results: [coverage] },
      'POST /end/': { ...coverage, valid_to: '2026-11-26', is_current: false },
    });
    show(<PatientCoveragePanel patientId={PATIENT} canEdit />);
    const row = await screen.findByTestId('coverage-row');
    expect(within(row).getByText('Ascoma Assurances')).toBeInTheDocument();
    expect(within(row).getByText('ASC-2026-004512')).toBeInTheDocument();
    expect(within(row).getByText('En cours')).toBeInTheDocument();
    expect(within(row).getByText('depuis le 01/01/2026')).toBeInTheDocument();
    await userEvent.click(within(row).getByRole('button', { name: 'Terminer' }));
    await waitFor(() => expect(sent.some((s) => s.method === 'POST')).toBe(true));
    const end = sent.find((s) => s.method === 'POST')!;
    expect(end.url).toContain(`/patients/${PATIENT}/coverages/${coverage.id}/end/`);
    expect((end.body as { valid_to: string }).valid_to).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('says when the patient has none, and offers no change to those who may not', async () => {
    serve({ 'GET /coverages/': { results: [] } });
    show(<PatientCoveragePanel patientId={PATIENT} canEdit={false} />);
    expect(
      await screen.findByText('Aucune prise en charge : le patient paie au tarif privé.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Ajouter une prise en charge' })).not.toBeInTheDocument();
  });
});

const receipt = {
  id: '0190f0f0-3333-7222-8333-444455550020',
  number: 'REC-HGG-2026-000007',
  payment: { amount: 50000, currency: 'XOF', amount_tendered: null, change_due: null },
};
const deposits = {
  hospitalization: STAY,
  currency: 'XOF',
  invoice: { id: INVOICE, number: null, status: 'draft', patient_share: 45000, paid: 50000, balance: -5000 },
  deposits: [
    {
      id: '0190f0f0-3333-7222-8333-444455550021',
      kind: 'payment',
      method: 'cash',
      operator: null,
      currency: 'XOF',
      amount: 50000,
      rate: null,
      amount_invoice_currency: 50000,
      reference: null,
      is_deposit: true,
      receipt: { id: receipt.id, number: receipt.number },
      received_by: { id: '0190f0f0-3333-7222-8333-444455550022', full_name: 'Awa Koné' },
      received_at: '2026-11-26T08:00:00Z',
    },
  ],
  total: 50000,
};

describe('the deposit on the stay (issue 21, decision 0036)', () => {
  it('shows the deposit, its receipt and what the draft invoice leaves in favour of the patient', async () => {
    serve({ 'GET /deposits/': deposits });
    show(<StayDepositsPanel stayId={STAY} canTake={false} />);
    expect(await screen.findByTestId('deposit-total')).toHaveTextContent(/^50\s000\sF\sCFA$/);
    expect(screen.getByRole('link', { name: receipt.number })).toHaveAttribute(
      'href',
      `/billing/receipts/${receipt.id}`,
    );
    expect(screen.getByTestId('deposit-balance')).toHaveTextContent(/En faveur du patient : 5\s000\sF\sCFA/);
    expect(screen.queryByRole('button', { name: 'Encaisser une caution' })).not.toBeInTheDocument();
  });

  it('the cash desk takes a cash deposit typed with spaces, then offers its receipt', async () => {
    const sent = serve({
      'GET /deposits/': { ...deposits, invoice: null, deposits: [], total: 0 },
      'POST /deposits/': receipt,
    });
    show(<StayDepositsPanel stayId={STAY} canTake />);
    expect(await screen.findByText('Aucune caution versée pour ce séjour.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Encaisser une caution' }));
    const form = await screen.findByTestId('deposit-form');
    await userEvent.type(within(form).getByRole('textbox', { name: /Montant/ }), '50 000');
    await userEvent.click(within(form).getByRole('button', { name: 'Encaisser' }));
    expect(await screen.findByTestId('deposit-done')).toHaveTextContent(receipt.number);
    expect(screen.queryByTestId('payment-change')).not.toBeInTheDocument();
    const post = sent.find((s) => s.method === 'POST')!;
    expect(post.url).toContain(`/hospitalizations/${STAY}/deposits/`);
    expect(post.body).toEqual({
      method: 'cash',
      amount: 50000,
      operator: null,
      phone: null,
      reference: null,
    });
  }, 30_000);
});

const noDeposit = { ...deposits, invoice: null, deposits: [], total: 0 };

/** The deposit dialog opened by the cash desk, cash by default. */
async function openDeposit(routes: Record<string, unknown>) {
  const sent = serve({ 'GET /deposits/': noDeposit, ...routes });
  show(<StayDepositsPanel stayId={STAY} canTake />);
  await userEvent.click(await screen.findByRole('button', { name: 'Encaisser une caution' }));
  const form = await screen.findByTestId('deposit-form');
  return { sent, form };
}

describe('the deposit’s amount tendered and change due (issue 37, decision 0079)', () => {
  it('in cash, shows the change as the cashier types, refuses what does not cover the deposit, sends what was handed over', async () => {
    const { sent, form } = await openDeposit({
      'POST /deposits/': {
        ...receipt,
        payment: { amount: 35000, currency: 'XOF', amount_tendered: 50000, change_due: 15000 },
      },
    });
    const user = userEvent.setup({ delay: null });
    const amount = within(form).getByRole('textbox', { name: /Montant/ });
    await user.type(amount, '35 000');
    // « Montant reçu » opens with « Rendre la monnaie »; short, refused before sending.
    const tendered = await tenderShort(user, form, '30 000', '35 000 F CFA');
    expect(sent.filter((s) => s.method === 'POST')).toHaveLength(0);

    await user.clear(tendered);
    await user.type(tendered, '50 000');
    expect(within(form).getByTestId('change-due')).toHaveTextContent(
      xof('^Monnaie à rendre : 15 000 F CFA$'),
    );
    expect(within(form).queryByTestId('tendered-short')).toBeNull();
    // The change follows the deposit's amount too.
    await user.clear(amount);
    await user.type(amount, '40 000');
    expect(within(form).getByTestId('change-due')).toHaveTextContent(
      xof('^Monnaie à rendre : 10 000 F CFA$'),
    );
    await user.clear(amount);
    await user.type(amount, '35 000');

    await user.click(within(form).getByRole('button', { name: 'Encaisser' }));
    // After saving, the server's figures.
    expect(await screen.findByTestId('payment-change')).toHaveTextContent(
      xof('Montant reçu : 50 000 F CFA — monnaie rendue : 15 000 F CFA.'),
    );
    const post = sent.find((s) => s.method === 'POST')!;
    expect(post.url).toContain(`/hospitalizations/${STAY}/deposits/`);
    expect(post.body).toEqual({
      method: 'cash',
      amount: 35000,
      amount_tendered: 50000,
      operator: null,
      phone: null,
      reference: null,
    });
  }, 60_000);

  it('has no amount tendered for a card or mobile money, and sends none', async () => {
    const { sent, form } = await openDeposit({ 'POST /deposits/': receipt });
    const user = userEvent.setup({ delay: null });
    await user.type(within(form).getByRole('textbox', { name: /Montant/ }), '50 000');
    await user.click(within(form).getByRole('switch', { name: 'Rendre la monnaie' }));
    await user.type(within(form).getByLabelText('Montant reçu'), '60 000');
    expect(within(form).getByTestId('change-due')).toHaveTextContent(
      xof('^Monnaie à rendre : 10 000 F CFA$'),
    );

    await user.click(within(form).getByRole('combobox', { name: 'Mode de paiement' }));
    await user.click(await screen.findByRole('option', { name: 'Mobile money', hidden: true }));
    expect(within(form).queryByRole('switch', { name: 'Rendre la monnaie' })).toBeNull();
    expect(within(form).queryByLabelText('Montant reçu')).toBeNull();
    expect(within(form).queryByTestId('change-due')).toBeNull();

    await user.click(within(form).getByRole('combobox', { name: 'Mode de paiement' }));
    await user.click(await screen.findByRole('option', { name: 'Carte bancaire', hidden: true }));
    expect(within(form).queryByRole('switch', { name: 'Rendre la monnaie' })).toBeNull();
    expect(within(form).queryByLabelText('Montant reçu')).toBeNull();
    await user.type(within(form).getByRole('textbox', { name: /^Référence/ }), 'TPE-0042');
    await user.click(within(form).getByRole('button', { name: 'Encaisser' }));
    expect(await screen.findByTestId('deposit-done')).toHaveTextContent(receipt.number);
    const post = sent.find((s) => s.method === 'POST')!;
    expect(post.body).toMatchObject({ method: 'card', amount: 50000, reference: 'TPE-0042' });
    expect(post.body).not.toHaveProperty('amount_tendered');
  }, 60_000);

  it('shows the server’s refusal of the amount tendered on its field', async () => {
    const refusal = 'Le montant reçu est inférieur au montant à encaisser : il doit le couvrir.';
    const { sent, form } = await openDeposit({
      'POST /deposits/': Response.json({ amount_tendered: [refusal] }, { status: 400 }),
    });
    const user = userEvent.setup({ delay: null });
    await user.type(within(form).getByRole('textbox', { name: /Montant/ }), '20 000');
    await user.click(within(form).getByRole('switch', { name: 'Rendre la monnaie' }));
    const tendered = within(form).getByLabelText('Montant reçu');
    await user.type(tendered, '20 000');
    expect(within(form).getByTestId('change-due')).toHaveTextContent(xof('^Monnaie à rendre : 0 F CFA$'));
    await user.click(within(form).getByRole('button', { name: 'Encaisser' }));
    expect(await within(form).findByText(refusal)).toBeInTheDocument();
    expect(tendered).toHaveAttribute('aria-invalid', 'true');
    expect(sent.filter((s) => s.method === 'POST')).toHaveLength(1);
    expect(screen.queryByTestId('deposit-done')).not.toBeInTheDocument();
  }, 60_000);
});
