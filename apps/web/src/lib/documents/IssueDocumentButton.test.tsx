import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { User } from '../../stores/user';
import { makeUser } from '../../test/render';
import {
  DOCUMENT_ID,
  draft,
  issued,
  issuedItem,
  listItem,
  OWN_ID,
  pageOf,
  SOURCE,
} from './documents.fixture';
import { type Handler, pdfResponse, renderDocuments } from './documents.render';
import { IssueDocumentButton } from './IssueDocumentButton';

function setup(user: User, handler: Handler) {
  return renderDocuments(<IssueDocumentButton source={SOURCE} />, user, (method, url, body) =>
    url.pathname === `/api/documents/${DOCUMENT_ID}/pdf/` ? pdfResponse() : handler(method, url, body),
  );
}

const server =
  (opts: { existing?: ReturnType<typeof issuedItem>[]; editable?: boolean } = {}): Handler =>
  (method, url) => {
    if (url.pathname === '/api/document-templates/') {
      return pageOf([
        listItem({ active: true }),
        listItem({ id: OWN_ID, shipped: false, active: false, name: 'Certificat du service' }),
      ]);
    }
    if (url.pathname === '/api/documents/draft/')
      return Response.json(draft({ editable: opts.editable ?? true }));
    if (url.pathname === '/api/documents/' && method === 'POST')
      return Response.json(issued(), { status: 201 });
    if (url.pathname === '/api/documents/') return pageOf(opts.existing ?? []);
    return undefined;
  };

describe('Print / issue a document', () => {
  it('is not offered to a role that issues no kind from this source', () => {
    setup(makeUser({ active_roles: [{ role_code: 'NURSE', hospital: 'h1', department: null }] }), server());
    expect(screen.queryByTestId('issue-document-button')).not.toBeInTheDocument();
  });

  it('prepares the text with the active model, lets the doctor edit it, issues and shows number and code', async () => {
    const { user, calls } = setup(makeUser(), server());
    await user.click(screen.getByTestId('issue-document-button'));
    const dialog = await screen.findByTestId('issue-document');
    const text = (await within(dialog).findByTestId('draft-text')) as HTMLTextAreaElement;
    const draftCall = calls.find((call) => call.path === '/api/documents/draft/');
    expect(draftCall?.body).toMatchObject({
      kind: 'consultation_report',
      source: SOURCE,
      language: 'fr',
      template: listItem().id,
    });
    await user.type(text, ' Repos de 3 jours.');
    await user.click(within(dialog).getByRole('button', { name: 'Émettre le PDF' }));
    const done = await screen.findByTestId('issued-document');
    expect(within(done).getByTestId('issued-number')).toHaveTextContent('N° CM-HGG-2026-000042');
    expect(within(done).getByTestId('issued-code')).toHaveTextContent('K7P2-9QXD');
    const issue = calls.find((call) => call.path === '/api/documents/' && call.method === 'POST');
    expect(issue?.body).toMatchObject({ kind: 'consultation_report', source: SOURCE });
    expect((issue?.body as { text?: string } | undefined)?.text).toContain('Repos de 3 jours.');
    // The PDF opens in the viewer, fetched with the token (inline).
    expect(await screen.findByTestId('pdf-viewer')).toHaveAttribute('src', 'blob:file');
    const pdf = calls.find((call) => call.path === `/api/documents/${DOCUMENT_ID}/pdf/`);
    expect(pdf).toBeDefined();
  });

  it('a kind printed as generated is shown as paper and sent without text', async () => {
    const { user, calls } = setup(makeUser(), server({ editable: false }));
    await user.click(screen.getByTestId('issue-document-button'));
    const dialog = await screen.findByTestId('issue-document');
    expect(await within(dialog).findByTestId('html-paper')).toBeInTheDocument();
    expect(within(dialog).queryByTestId('draft-text')).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Émettre le PDF' }));
    await screen.findByTestId('issued-document');
    const issue = calls.find((call) => call.path === '/api/documents/' && call.method === 'POST');
    expect(issue).toBeDefined();
    expect((issue?.body as { text?: string | null } | undefined)?.text ?? null).toBeNull();
  });

  it('lists the documents already issued from the source, to re-print', async () => {
    const { user, calls } = setup(makeUser(), server({ existing: [issuedItem()] }));
    await user.click(screen.getByTestId('issue-document-button'));
    const dialog = await screen.findByTestId('issue-document');
    const row = await within(dialog).findByTestId('issued-row');
    expect(row).toHaveTextContent('Certificat médical · CM-HGG-2026-000042');
    const list = calls.find((call) => call.path === '/api/documents/' && call.method === 'GET');
    expect(list).toBeDefined();
    await user.click(within(row).getByRole('button', { name: 'Réimprimer' }));
    expect(await screen.findByTestId('pdf-viewer')).toBeInTheDocument();
    await waitFor(() =>
      expect(calls.some((call) => call.path === `/api/documents/${DOCUMENT_ID}/pdf/`)).toBe(true),
    );
  });
});
