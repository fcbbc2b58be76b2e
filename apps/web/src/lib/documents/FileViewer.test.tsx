import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeUser } from '../../test/render';
import { DOCUMENT_ID } from './documents.fixture';
import { pdfResponse, renderDocuments } from './documents.render';
import { FileViewer } from './FileViewer';

afterEach(() => vi.unstubAllGlobals());

const file = {
  path: `documents/${DOCUMENT_ID}/pdf/`,
  contentType: 'application/pdf',
  fileName: 'CM-HGG-2026-000042.pdf',
  title: 'Certificat médical · CM-HGG-2026-000042',
};

describe('the file viewer', () => {
  it('shows the PDF fetched with the token (inline) from an object URL re-typed as PDF', async () => {
    const { calls } = renderDocuments(
      <FileViewer file={file} onClose={() => undefined} />,
      makeUser(),
      (_m, url) => (url.pathname === `/api/${file.path}` ? pdfResponse() : undefined),
    );
    expect(await screen.findByTestId('pdf-viewer')).toHaveAttribute('src', 'blob:file');
    expect(calls[0]?.url.searchParams.get('disposition')).toBe('inline');
    const typed = vi.mocked(URL.createObjectURL).mock.calls[0]?.[0] as Blob;
    expect(typed.type).toBe('application/pdf');
  });

  it('offers the new tab when the page policy refuses to frame the PDF', async () => {
    renderDocuments(<FileViewer file={file} onClose={() => undefined} />, makeUser(), (_m, url) =>
      url.pathname === `/api/${file.path}` ? pdfResponse() : undefined,
    );
    await screen.findByTestId('pdf-viewer');
    // The viewer listens from an effect run after it shows: the refusal is sent until it has been heard.
    await waitFor(() => {
      act(() => {
        fireEvent(
          document,
          Object.assign(new Event('securitypolicyviolation'), {
            blockedURI: 'blob:file',
            effectiveDirective: 'frame-src',
          }),
        );
      });
      expect(screen.getByTestId('pdf-blocked')).toBeInTheDocument();
    });
    const blocked = screen.getByTestId('pdf-blocked');
    expect(blocked).toHaveTextContent("L'aperçu intégré n'est pas autorisé");
    expect(screen.queryByTestId('pdf-viewer')).not.toBeInTheDocument();
  });
});
