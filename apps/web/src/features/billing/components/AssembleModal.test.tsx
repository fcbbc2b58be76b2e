import type { TInvoiceVisit } from '@greensen/shared/contracts/billing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubDesktopWidth } from '../../../test/media-query';
import type { MockRequest } from '../../../test/render';
import { renderApp } from '../../../test/render';
import {
  departments,
  INVOICE_ID,
  invoiceDetail,
  listedPatient,
  PATIENT_ID,
  page,
  pureCashier,
} from '../billing.fixture';

// « Facturer une visite » at the cash desk (issue 37, decision 0088): the pure cashier, who may not list the
// admissions, picks the patient's visit from the billing module's own read and prepares its invoice.
beforeEach(() => stubDesktopWidth());
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const VISIT = '0190f0f0-9999-7222-8333-444455550001';
const OLDER = '0190f0f0-9999-7222-8333-444455550002';

const visits: TInvoiceVisit[] = [
  {
    id: VISIT,
    admitted_at: '2026-12-05T09:00:00Z',
    department: 'Urgences',
    status: 'completed',
    invoice: null,
  },
  {
    id: OLDER,
    admitted_at: '2026-11-20T09:00:00Z',
    department: 'Maternité',
    status: 'completed',
    invoice: { id: INVOICE_ID, status: 'issued' },
  },
];

function open(answer: (r: MockRequest) => Response, sent: MockRequest[] = []) {
  renderApp('/billing', {
    user: pureCashier,
    routes: {
      '/api/departments/': () => departments(),
      '/api/hospitals/h1/': () => Response.json({ id: 'h1', currency: 'XOF' }),
      '/api/invoices/': () => page([]),
      '/api/patients/': () => page([listedPatient]),
      // The admissions list is closed to the pure cashier (decision 0070): the modal must not need it.
      '/api/admissions/': () => Response.json({ detail: 'Interdit' }, { status: 403 }),
      '/api/invoices/visits/': (r) => {
        sent.push(r);
        return answer(r);
      },
      '/api/invoices/assemble/': (r) => {
        sent.push(r);
        return Response.json(
          { id: INVOICE_ID, status: 'draft', line_count: 0, unpriced: [] },
          { status: 201 },
        );
      },
      [`/api/invoices/${INVOICE_ID}/`]: () => Response.json(invoiceDetail({ status: 'draft' })),
    },
  });
}

/** The option `name` of the dropdown the select `input` controls (the page has other selects). */
async function optionOf(input: HTMLElement, name: string | RegExp) {
  await waitFor(() => expect(input.getAttribute('aria-controls')).toBeTruthy());
  const listbox = document.getElementById(input.getAttribute('aria-controls')!)!;
  return within(listbox).findByRole('option', { name, hidden: true });
}

async function pickPatient() {
  const user = userEvent.setup({ delay: null });
  await user.click(await screen.findByRole('button', { name: 'Facturer une visite' }, { timeout: 15_000 }));
  const dialog = await screen.findByRole('dialog');
  const picker = within(dialog).getByLabelText(/^Patient/, { selector: 'input' });
  await user.click(picker);
  await user.type(picker, 'aic');
  // The invoices' own patient filter lists the same patient: the option of the modal's field.
  await user.click(await optionOf(picker, 'Aïcha Traoré · HGG-2026-00017'));
  return { user, dialog };
}

describe('« Facturer une visite » as a pure cashier', () => {
  it('lists the patient’s visits from the cash desk’s read and prepares the chosen one’s invoice', async () => {
    const sent: MockRequest[] = [];
    open(() => page(visits), sent);
    const { user, dialog } = await pickPatient();
    await waitFor(() => expect(sent.some((r) => r.url.pathname === '/api/invoices/visits/')).toBe(true));
    const asked = sent.find((r) => r.url.pathname === '/api/invoices/visits/')!;
    expect(asked.url.searchParams.get('patient')).toBe(PATIENT_ID);
    expect(asked.url.searchParams.get('page')).toBe('1');

    const visit = within(dialog).getByLabelText(/^Visite/, { selector: 'input' });
    await user.click(visit);
    const first = await optionOf(visit, /05\/12\/2026.*Urgences · Terminé$/);
    expect(await optionOf(visit, /20\/11\/2026.*Maternité · Terminé · facture émise$/)).toBeInTheDocument();
    await user.click(first);
    await user.click(within(dialog).getByRole('button', { name: 'Préparer la facture' }));
    await waitFor(() => expect(sent.some((r) => r.url.pathname === '/api/invoices/assemble/')).toBe(true));
    expect(sent.find((r) => r.url.pathname === '/api/invoices/assemble/')?.body).toEqual({
      admission: VISIT,
    });
  }, 60_000);

  it('says when the patient has no visit', async () => {
    open(() => page([]));
    const { dialog } = await pickPatient();
    expect(await within(dialog).findByText('Aucune visite pour ce patient')).toBeInTheDocument();
  }, 60_000);

  it('says when the visits could not be loaded', async () => {
    // A refusal (the API client retries a 5xx before it fails: a 4xx fails at once).
    open(() => Response.json({ detail: 'Interdit' }, { status: 403 }));
    const { dialog } = await pickPatient();
    expect(
      await within(dialog).findByText("Les visites n'ont pas pu être chargées.", {}, { timeout: 15_000 }),
    ).toBeInTheDocument();
  }, 60_000);
});
