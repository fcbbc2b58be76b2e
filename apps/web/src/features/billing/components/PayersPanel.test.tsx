import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../../lib/query-client';
import { TestProviders } from '../../../test/render';
import { PayersPanel } from './PayersPanel';

const payer = {
  id: '0190f0f0-3333-7222-8333-444455550030',
  code: 'ASCOMA',
  name: 'Ascoma Assurances',
  kind: 'insurer',
  payer_category: 'insured',
  contact: '+225 27 20 31 24 00',
  is_active: true,
  rules: [
    { category: 'consultation', rate_percent: 80, ceiling: null },
    { category: 'laboratory', rate_percent: 80, ceiling: 20000 },
  ],
  eligibility: { max_age_years: null, sex: null },
};
const programme = {
  ...payer,
  id: '0190f0f0-3333-7222-8333-444455550031',
  code: 'GRAT-PALU-U5',
  name: 'Gratuité du paludisme',
  kind: 'free_care',
  payer_category: 'indigent',
  contact: null,
  rules: [{ category: 'laboratory', rate_percent: 100, ceiling: null }],
  eligibility: { max_age_years: 5, sex: null },
};

function serve() {
  queryClient.clear();
  const sent: { method: string; url: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      const method = init?.method ?? 'GET';
      sent.push({ method, url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
      if (method === 'PATCH') return Response.json(payer);
      return Response.json({ count: 2, next: null, previous: null, results: [payer, programme] });
    }),
  );
  return sent;
}

function show(canManage: boolean) {
  render(
    <TestProviders>
      <MemoryRouter>
        <PayersPanel canManage={canManage} currency="XOF" />
      </MemoryRouter>
    </TestProviders>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('the payers of /billing (issue 21, decision 0036)', () => {
  it('lists the payers with their share per category, ceilings and eligibility; the cash desk only reads', async () => {
    serve();
    show(false);
    const rows = await screen.findAllByTestId('payer-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText('Consultation 80 %, Laboratoire 80 %')).toBeInTheDocument();
    expect(within(rows[0]!).getByText(/Plafond Laboratoire : 20\s000\sF\sCFA/)).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Moins de 5 ans')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Nouveau tiers payant' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Modifier' })).not.toBeInTheDocument();
  });

  it('the management edits a payer: the whole list of rules is sent, ceilings in minor units', async () => {
    const sent = serve();
    show(true);
    expect(await screen.findByRole('button', { name: 'Nouveau tiers payant' })).toBeInTheDocument();
    await userEvent.click(
      within((await screen.findAllByTestId('payer-row'))[0]!).getByRole('button', { name: 'Modifier' }),
    );
    const form = await screen.findByTestId('payer-form');
    const name = within(form).getByRole('textbox', { name: /^Nom/ });
    await userEvent.clear(name);
    await userEvent.type(name, 'Ascoma Côte d’Ivoire');
    await userEvent.click(within(form).getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(sent.some((s) => s.method === 'PATCH')).toBe(true));
    const patch = sent.find((s) => s.method === 'PATCH')!;
    expect(patch.url).toContain(`/payers/${payer.id}/`);
    expect(patch.body).toMatchObject({
      code: 'ASCOMA',
      name: 'Ascoma Côte d’Ivoire',
      kind: 'insurer',
      rules: payer.rules,
      eligibility: { max_age_years: null, sex: null },
    });
  }, 40_000);
});
