import type { TMedicalAct, TMedicalActDetail } from '@greensen/shared/contracts/medical-acts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubDesktopWidth } from '../../../test/media-query';
import { locationOf, type MockRequest, makeUser, renderApp } from '../../../test/render';

beforeEach(() => stubDesktopWidth());
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const ACT_ID = '0190f0f0-6666-7222-8333-444455550001';
const nurse = makeUser({
  id: 'n1',
  active_roles: [{ role_code: 'NURSE', hospital: 'h1', department: 'd1' }],
});
const headDoctor = makeUser({
  id: 'hd1',
  active_roles: [{ role_code: 'HEAD_DOCTOR', hospital: 'h1', department: 'd1' }],
});
const tariff = (payer_category: 'private' | 'insured', price: number, valid_from = '2026-01-01') => ({
  id: `0190f0f0-7777-7222-8333-44445555${price}`.slice(0, 36),
  payer_category,
  price,
  currency: 'XOF',
  valid_from,
  valid_to: null,
});
const act: TMedicalAct = {
  id: ACT_ID,
  code: 'CONS-GEN',
  label_fr: 'Consultation générale',
  label_en: 'General consultation',
  category: 'consultation',
  is_active: true,
  auto_source: 'consultation',
  exam: null,
  presentation: null,
  current_tariffs: [tariff('private', 15000), tariff('insured', 12500)],
};
const detail: TMedicalActDetail = {
  ...act,
  tariffs: [
    tariff('private', 15000),
    tariff('insured', 12500),
    { ...tariff('private', 10000, '2025-01-01'), valid_to: '2025-12-31' },
  ],
  created_at: '2025-01-01T08:00:00Z',
  updated_at: '2026-01-01T08:00:00Z',
};
const xof = (text: string) => new RegExp(text.replace(/ /g, '\\s'));

function routes(extra: Record<string, (r: MockRequest) => Response> = {}) {
  return {
    '/api/hospitals/h1/': () => Response.json({ id: 'h1', currency: 'XOF' }),
    '/api/medical-acts/': () => Response.json({ count: 1, next: null, previous: null, results: [act] }),
    [`/api/medical-acts/${ACT_ID}/`]: () => Response.json(detail),
    ...extra,
  };
}

describe('/medical-acts', () => {
  it('lists the catalogue with today’s price per payer category; a nurse cannot create an act', async () => {
    renderApp('/medical-acts', { user: nurse, routes: routes() });
    expect(await screen.findByText('Consultation générale', {}, { timeout: 15_000 })).toBeInTheDocument();
    expect(screen.getByText(xof('^15 000 F CFA$'))).toBeInTheDocument();
    expect(screen.getByText(xof('^12 500 F CFA$'))).toBeInTheDocument();
    expect(screen.getByText('Consultation', { selector: '.mantine-Badge-label' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Nouvel acte' })).not.toBeInTheDocument();
  });

  it('searches by code or label (debounced), and says when nothing matches', async () => {
    const asked: URLSearchParams[] = [];
    renderApp('/medical-acts', {
      user: nurse,
      routes: routes({
        '/api/medical-acts/': (r) => {
          asked.push(r.url.searchParams);
          return Response.json({ count: 0, next: null, previous: null, results: [] });
        },
      }),
    });
    expect(
      await screen.findByText('Aucun acte dans le catalogue.', {}, { timeout: 15_000 }),
    ).toBeInTheDocument();
    expect(asked[0]?.get('active')).toBe('true');
    await userEvent.type(screen.getByRole('textbox', { name: 'Rechercher par code ou libellé' }), 'palu');
    await waitFor(() => expect(asked.at(-1)?.get('search')).toBe('palu'));
    expect(await screen.findByText('Aucun acte ne correspond à ces critères.')).toBeInTheDocument();
  });

  it('the head doctor creates an act with its first prices typed in FCFA', async () => {
    const created: MockRequest[] = [];
    const { router } = renderApp('/medical-acts', {
      user: headDoctor,
      routes: routes({
        '/api/medical-acts/': (r) => {
          if (r.method === 'POST') {
            created.push(r);
            return Response.json(detail, { status: 201 });
          }
          return Response.json({ count: 1, next: null, previous: null, results: [act] });
        },
      }),
    });
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Nouvel acte' }, { timeout: 15_000 }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText(/^Code/), 'lab-tdr');
    const category = within(dialog).getByRole('combobox', { name: 'Catégorie' });
    await user.click(category);
    await waitFor(() => expect(category).toHaveAttribute('aria-controls'));
    const listbox = document.getElementById(category.getAttribute('aria-controls') ?? '') as HTMLElement;
    await user.click(within(listbox).getByRole('option', { name: 'Laboratoire', hidden: true }));
    await user.type(within(dialog).getByLabelText(/Libellé \(français\)/), 'TDR paludisme');
    await user.type(within(dialog).getByLabelText(/Libellé \(anglais\)/), 'Malaria RDT');
    await user.type(within(dialog).getByLabelText('Privé'), '2 500');
    await user.type(within(dialog).getByLabelText('Assuré'), '2000');
    await user.click(within(dialog).getByRole('button', { name: "Créer l'acte" }));
    await waitFor(() => expect(created).toHaveLength(1));
    expect(created[0]?.body).toEqual({
      code: 'LAB-TDR',
      label_fr: 'TDR paludisme',
      label_en: 'Malaria RDT',
      category: 'laboratory',
      is_active: true,
      tariffs: [
        { payer_category: 'private', price: 2500 },
        { payer_category: 'insured', price: 2000 },
      ],
    });
    await waitFor(() => expect(locationOf(router)).toBe(`/medical-acts/${ACT_ID}`));
  }, 60_000);
});

describe('/medical-acts/:id', () => {
  it('shows the act, today’s prices and every tariff with its validity; only the management sets a price', async () => {
    renderApp(`/medical-acts/${ACT_ID}`, { user: nurse, routes: routes() });
    expect(await screen.findByTestId('medical-act-page', {}, { timeout: 15_000 })).toBeInTheDocument();
    expect(screen.getAllByTestId('tariff-row')).toHaveLength(3);
    expect(screen.getByText('Passé')).toBeInTheDocument();
    expect(screen.getAllByText('En vigueur')).toHaveLength(2);
    expect(screen.getByText('Facturé automatiquement à chaque consultation terminée.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Nouveau tarif' })).not.toBeInTheDocument();
  });

  it('the head doctor sets a new price from a date', async () => {
    const sent: MockRequest[] = [];
    renderApp(`/medical-acts/${ACT_ID}`, {
      user: headDoctor,
      routes: routes({
        [`/api/medical-acts/${ACT_ID}/tariffs/`]: (r) => {
          sent.push(r);
          return Response.json(tariff('insured', 13000), { status: 201 });
        },
      }),
    });
    const user = userEvent.setup({ delay: null });
    await user.click(
      await screen.findByRole('button', { name: 'Changer le tarif Assuré' }, { timeout: 15_000 }),
    );
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText(/^Prix/), '13 000');
    await user.click(within(dialog).getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]?.body).toMatchObject({ payer_category: 'insured', price: 13000, valid_to: null });
  }, 60_000);

  it('an act that does not exist is the error page of type medical-act', async () => {
    const missing = '0190f0f0-0000-7222-8333-444455550009';
    const { router } = renderApp(`/medical-acts/${missing}`, { user: nurse, routes: routes() });
    await waitFor(() => expect(locationOf(router)).toBe(`/error-404?type=medical-act&id=${missing}`), {
      timeout: 15_000,
    });
    expect(await screen.findByText('Acte médical introuvable')).toBeInTheDocument();
  });
});
