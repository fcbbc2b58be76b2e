import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubDesktopWidth } from '../../../test/media-query';
import { locationOf, type MockRequest, makeUser, renderApp } from '../../../test/render';
import { cashier, departments, INVOICE_ID, invoiceDetail, session } from '../billing.fixture';

beforeEach(() => stubDesktopWidth());
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const admin = makeUser({
  id: 'a1',
  active_roles: [{ role_code: 'ADMIN', hospital: 'h1', department: null }],
});
const PATH = `/billing/invoices/${INVOICE_ID}`;
const euro = (text: string) => new RegExp(text.replace(/ /g, '\\s'));

function routes(
  detail: () => Response,
  extra: Record<string, (r: MockRequest) => Response> = {},
): Record<string, (r: MockRequest) => Response> {
  return {
    '/api/departments/': () => departments(),
    '/api/cash-sessions/current/': () => Response.json(session()),
    [`/api/invoices/${INVOICE_ID}/`]: detail,
    ...extra,
  };
}

describe('/billing/invoices/:id', () => {
  it('shows a EUR invoice with two decimals, its shares and what remains; the cashier may take a payment', async () => {
    const eur = invoiceDetail({
      currency: 'EUR',
      total: 154312,
      payer_share: 30862,
      patient_share: 123450,
      paid: 3450,
      balance: 120000,
      lines: invoiceDetail().lines.map((line) => ({
        ...line,
        unit_price: 154312,
        gross: 154312,
        total: 154312,
        payer_share: 30862,
        patient_share: 123450,
      })),
    });
    renderApp(PATH, { user: cashier, routes: routes(() => Response.json(eur)) });
    expect(await screen.findByTestId('invoice-title', {}, { timeout: 15_000 })).toHaveTextContent(
      'Facture FAC-HGG-2026-000042',
    );
    expect(screen.getByTestId('patient-share')).toHaveTextContent(euro('^1 234,50 €$'));
    expect(screen.getByTestId('payer-share')).toHaveTextContent(euro('^308,62 €$'));
    expect(screen.getByTestId('invoice-balance')).toHaveTextContent(euro('^1 200,00 €$'));
    expect(screen.getByText('Adhérent n° ASC-778812')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Encaisser' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Avoir' })).toBeInTheDocument();
  });

  it('records a mobile-money payment and offers its receipt; the same reference again is refused clearly', async () => {
    const sent: MockRequest[] = [];
    renderApp(PATH, {
      user: cashier,
      routes: routes(() => Response.json(invoiceDetail()), {
        '/api/payments/': (r) => {
          sent.push(r);
          if (sent.length === 2)
            return Response.json(
              { detail: 'Cette référence MTN MoMo est déjà enregistrée.' },
              { status: 409 },
            );
          return Response.json(
            {
              id: '0190f0f0-bbbb-7222-8333-444455550001',
              number: 'REC-HGG-2026-000007',
              issued_at: '2026-03-04T12:00:00Z',
              hospital: {
                id: '0190f0f0-cccc-7222-8333-444455550001',
                name: 'Hôpital Général de Greensen',
                code: 'HGG',
              },
              patient: invoiceDetail().patient,
              invoice: {
                id: INVOICE_ID,
                number: 'FAC-HGG-2026-000042',
                currency: 'XOF',
                patient_share: 12500,
                paid: 12500,
                balance: 0,
              },
              payment: {
                id: '0190f0f0-aaaa-7222-8333-444455550001',
                kind: 'payment',
                method: 'mobile_money',
                operator: 'mtn_momo',
                currency: 'XOF',
                amount: 7500,
                rate: null,
                amount_invoice_currency: 7500,
                reference: 'MP240304.1200.A1',
                receipt: { id: '0190f0f0-bbbb-7222-8333-444455550001', number: 'REC-HGG-2026-000007' },
                received_by: { id: 'c', full_name: 'Mariam Koné' },
                received_at: '2026-03-04T12:00:00Z',
                invoice: { id: INVOICE_ID, number: 'FAC-HGG-2026-000042' },
                phone: '+225 07 12 34 56 78',
                note: null,
                reason: null,
                refunded_payment: null,
                cash_session: session().id,
              },
            },
            { status: 201 },
          );
        },
      }),
    });
    const user = userEvent.setup({ delay: null });
    const pay = async () => {
      await user.click(await screen.findByRole('button', { name: 'Encaisser' }, { timeout: 15_000 }));
      const form = await screen.findByTestId('payment-form');
      // The balance is proposed, in FCFA (no decimals).
      expect(within(form).getByLabelText(/Montant/)).toHaveValue('7500');
      await user.click(within(form).getByRole('combobox', { name: 'Mode de paiement' }));
      await user.click(await screen.findByRole('option', { name: 'Mobile money', hidden: true }));
      await user.click(within(form).getByRole('combobox', { name: 'Opérateur' }));
      await user.click(await screen.findByRole('option', { name: 'MTN MoMo', hidden: true }));
      await user.click(within(form).getByLabelText(/Téléphone du payeur/));
      await user.paste('+225 07 12 34 56 78');
      await user.click(within(form).getByLabelText(/Référence de la transaction/));
      await user.paste('MP240304.1200.A1');
      await user.click(within(form).getByRole('button', { name: 'Encaisser' }));
      return form;
    };
    await pay();
    const done = await screen.findByTestId('payment-done');
    expect(done).toHaveTextContent('REC-HGG-2026-000007');
    expect(done).toHaveTextContent(/7\s500\sF\sCFA encaissé/);
    expect(sent[0]?.body).toEqual({
      invoice: INVOICE_ID,
      method: 'mobile_money',
      currency: 'XOF',
      amount: 7500,
      rate: null,
      operator: 'mtn_momo',
      phone: '+225 07 12 34 56 78',
      reference: 'MP240304.1200.A1',
      note: null,
    });
    expect(screen.getByRole('link', { name: 'Imprimer le reçu' })).toHaveAttribute(
      'href',
      '/billing/receipts/0190f0f0-bbbb-7222-8333-444455550001',
    );
    // The payment's own Fermer (the dialog's close icon is named "Fermer" too, without text).
    await user.click(
      screen
        .getAllByRole('button', { name: 'Fermer' })
        .find((b) => b.textContent === 'Fermer') as HTMLElement,
    );
    const form = await pay();
    const refusal = await within(form).findByRole('alert');
    expect(refusal).toHaveTextContent('Paiement refusé');
    expect(refusal).toHaveTextContent('Cette référence MTN MoMo est déjà enregistrée.');
  }, 60_000);

  it('a payment in euros on a FCFA invoice asks the rate of the day and shows what it makes on the invoice', async () => {
    const sent: MockRequest[] = [];
    renderApp(PATH, {
      user: cashier,
      routes: routes(() => Response.json(invoiceDetail()), {
        '/api/payments/': (r) => {
          sent.push(r);
          return Response.json({ detail: 'Aucune caisse ouverte' }, { status: 409 });
        },
      }),
    });
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Encaisser' }, { timeout: 15_000 }));
    const form = await screen.findByTestId('payment-form');
    await user.click(within(form).getByRole('combobox', { name: 'Devise' }));
    await user.click(await screen.findByRole('option', { name: 'EUR', hidden: true }));
    const amount = within(form).getByLabelText(/Montant/);
    await user.clear(amount);
    await user.type(amount, '10,50');
    await user.type(within(form).getByLabelText(/Taux du jour/), '655,957');
    // 10.50 € × 655.957 = 6 887.5485 → 6 888 F CFA (half away from zero).
    expect(within(form).getByTestId('converted')).toHaveTextContent(euro('Soit 6 888 F CFA sur la facture.'));
    await user.click(within(form).getByRole('button', { name: 'Encaisser' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]?.body).toMatchObject({ currency: 'EUR', amount: 1050, rate: '655.957', method: 'cash' });
    expect(await within(form).findByRole('alert')).toHaveTextContent('Aucune caisse ouverte');
  });

  it('a cash payment while a mobile-money request is pending asks the cashier to confirm (issue 36)', async () => {
    const sent: MockRequest[] = [];
    renderApp(PATH, {
      user: cashier,
      routes: routes(() => Response.json(invoiceDetail()), {
        '/api/payments/': (r) => {
          sent.push(r);
          if (sent.length === 1)
            return Response.json(
              {
                detail:
                  'Un paiement mobile de 5000 est en attente sur cette facture : confirmez pour encaisser quand même.',
                code: 'mobile_money_pending',
                pending_amount: 5000,
              },
              { status: 409 },
            );
          return Response.json({ detail: 'Aucune caisse ouverte' }, { status: 409 });
        },
      }),
    });
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Encaisser' }, { timeout: 15_000 }));
    const form = await screen.findByTestId('payment-form');
    await user.click(within(form).getByRole('button', { name: 'Encaisser' }));
    const question = await within(form).findByTestId('mobile-money-pending');
    expect(question).toHaveTextContent('Paiement mobile en attente');
    expect(question).toHaveTextContent('Un paiement mobile de 5000 est en attente');
    expect(sent[0]?.body).not.toHaveProperty('confirm_pending');
    await user.click(within(question).getByRole('button', { name: 'Encaisser quand même' }));
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1]?.body).toMatchObject({ method: 'cash', confirm_pending: true });
    expect(await within(form).findByRole('alert')).toHaveTextContent('Aucune caisse ouverte');
  });

  it('an administrator reads the invoice and may issue a credit note, but takes no payment', async () => {
    renderApp(PATH, { user: admin, routes: routes(() => Response.json(invoiceDetail())) });
    await screen.findByTestId('invoice-title', {}, { timeout: 15_000 });
    expect(screen.queryByRole('button', { name: 'Encaisser' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Avoir' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Rembourser' })).not.toBeInTheDocument();
  });

  it('a draft: the cashier discounts a line with a reason, then issues it after confirming', async () => {
    const line = invoiceDetail().lines[0];
    const draft = invoiceDetail({
      number: null,
      status: 'draft',
      issued_at: null,
      issued_by: null,
      paid: 0,
      unpriced: [
        {
          performed_act: '0190f0f0-7777-7222-8333-444455559999',
          label: 'IMG-RXM Radiographie',
          reason: 'no_tariff',
        },
      ],
    });
    const discounts: MockRequest[] = [];
    const issued: MockRequest[] = [];
    renderApp(PATH, {
      user: cashier,
      routes: routes(() => Response.json(draft), {
        [`/api/invoices/${INVOICE_ID}/lines/${line?.id}/discount/`]: (r) => {
          discounts.push(r);
          return Response.json(draft);
        },
        [`/api/invoices/${INVOICE_ID}/issue/`]: (r) => {
          issued.push(r);
          return Response.json(invoiceDetail());
        },
      }),
    });
    const user = userEvent.setup({ delay: null });
    expect(await screen.findByTestId('invoice-title', {}, { timeout: 15_000 })).toHaveTextContent(
      'Facture (brouillon)',
    );
    expect(screen.queryByRole('button', { name: 'Encaisser' })).not.toBeInTheDocument();
    // An act performed but not billed, with its reason in words.
    expect(
      screen.getByText('IMG-RXM Radiographie — pas de tarif pour cette catégorie de payeur'),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Actions sur « Consultation générale »' }));
    await user.click(
      await screen.findByRole('menuitem', { name: 'Remise…', hidden: true }, { timeout: 10_000 }),
    );
    const form = await screen.findByTestId('discount-form');
    await user.type(within(form).getByLabelText(/Remise/), '2 500');
    await user.type(within(form).getByLabelText(/Motif/), 'Geste commercial');
    await user.click(within(form).getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(discounts).toHaveLength(1));
    expect(discounts[0]?.body).toEqual({ amount: 2500, reason: 'Geste commercial' });

    await user.click(screen.getByRole('button', { name: 'Émettre' }));
    // The test harness mounts a second modals provider around the app's: the confirmation shows in both.
    const confirm = await screen.findAllByRole('button', { name: 'Émettre la facture' });
    await user.click(confirm.at(-1) as HTMLElement);
    await waitFor(() => expect(issued).toHaveLength(1));
  });

  it('an invoice that does not exist is the error page', async () => {
    const { router } = renderApp(PATH, {
      user: cashier,
      routes: routes(() => Response.json({ detail: 'Introuvable' }, { status: 404 })),
    });
    await waitFor(() => expect(locationOf(router)).toBe(`/error-404?type=invoice&id=${INVOICE_ID}`), {
      timeout: 15_000,
    });
  });
});
