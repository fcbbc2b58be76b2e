import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { issuedItem, pageOf, upload } from '../../../lib/documents/documents.fixture';
import { stubDesktopWidth } from '../../../test/media-query';
import { locationOf, type MockRequest, makeUser, renderApp } from '../../../test/render';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('/documents', () => {
  it('lists the issued documents, filters them, and cancels one with a reason', {
    timeout: 40_000,
  }, async () => {
    stubDesktopWidth();
    const user = userEvent.setup();
    const queries: URLSearchParams[] = [];
    const cancels: unknown[] = [];
    renderApp('/documents', {
      user: makeUser(),
      routes: {
        '/api/documents/': ({ url }: MockRequest) => {
          queries.push(url.searchParams);
          return pageOf([issuedItem()]);
        },
        [`/api/documents/${issuedItem().id}/cancel/`]: ({ body }: MockRequest) => {
          cancels.push(body);
          return Response.json({ ...issuedItem(), status: 'cancelled' });
        },
      },
    });
    const page = await screen.findByTestId('documents-page', {}, { timeout: 15_000 });
    expect(await within(page).findByText('CM-HGG-2026-000042')).toBeInTheDocument();
    expect(within(page).getByText('Bénédicte Ngalula')).toBeInTheDocument();
    await user.click(within(page).getByRole('combobox', { name: 'État' }));
    await user.click(await screen.findByRole('option', { name: 'Annulé', hidden: true }));
    await waitFor(() => expect(queries.at(-1)?.get('status')).toBe('cancelled'));
    await user.click(within(page).getByRole('button', { name: 'Annuler le document' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByRole('textbox', { name: /Motif/ }), 'Erreur');
    await user.click(within(dialog).getByRole('button', { name: 'Annuler le document' }));
    await waitFor(() => expect(cancels).toEqual([{ reason: 'Erreur' }]));
  });

  it('shows the uploads in their own tab', async () => {
    stubDesktopWidth();
    const user = userEvent.setup();
    const { router } = renderApp('/documents', {
      user: makeUser(),
      routes: {
        '/api/documents/': () => pageOf([]),
        '/api/patient-documents/': () => pageOf([upload()]),
      },
    });
    const page = await screen.findByTestId('documents-page', {}, { timeout: 15_000 });
    expect(await within(page).findByText('Aucun document.')).toBeInTheDocument();
    await user.click(within(page).getByRole('tab', { name: 'Documents déposés' }));
    expect(await within(page).findByText('Bilan sanguin de septembre')).toBeInTheDocument();
    expect(locationOf(router)).toBe('/documents?tab=uploaded');
  });
});
