import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubDesktopWidth } from '../../test/media-query';
import { makeUser } from '../../test/render';
import { issuedItem, PATIENT, pageOf, UPLOAD_ID, upload } from './documents.fixture';
import { type Handler, renderDocuments } from './documents.render';
import { PatientDocumentsPanel } from './PatientDocumentsPanel';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const PHOTO = upload({
  id: '0190f0f0-eeee-7222-8333-44445555000f',
  category: 'id_document',
  file_name: 'carte.jpg',
  content_type: 'image/jpeg',
  description: null,
});

function server(extra: Handler = () => undefined): Handler {
  return (method, url, body) =>
    extra(method, url, body) ??
    (url.pathname === '/api/patient-documents/' && method === 'GET'
      ? pageOf([upload(), PHOTO])
      : url.pathname === '/api/documents/'
        ? pageOf([issuedItem()])
        : url.pathname.endsWith('/file/')
          ? new Response(new Uint8Array([255, 216, 255]), { headers: { 'Content-Type': 'image/jpeg' } })
          : undefined);
}

function open(handler: Handler = server()) {
  stubDesktopWidth();
  return renderDocuments(
    <PatientDocumentsPanel patientId={PATIENT.id} archived={false} />,
    makeUser(),
    handler,
  );
}

async function chooseFile(file: File) {
  // The dialog opens with a transition: wait for its file input.
  const input = (await screen.findByTestId('upload-input')) as HTMLInputElement;
  expect(input.accept).toBe('image/*,application/pdf');
  fireEvent.change(input, { target: { files: [file] } });
}

describe("the patient record's documents", () => {
  it('lists uploads with image thumbnails and the issued documents of the patient', async () => {
    const { calls } = open();
    const panel = await screen.findByTestId('patient-documents');
    expect(await within(panel).findByText('Bilan sanguin de septembre')).toBeInTheDocument();
    expect(within(panel).getByText("Pièce d'identité")).toBeInTheDocument();
    expect(await within(panel).findByTestId('thumbnail')).toHaveAttribute('src', 'blob:file');
    expect(await within(panel).findByText('CM-HGG-2026-000042')).toBeInTheDocument();
    const list = calls.find((call) => call.path === '/api/patient-documents/');
    expect(list?.url.searchParams.get('patient')).toBe(PATIENT.id);
    // Only the image is fetched for a thumbnail (not the PDF).
    expect(calls.filter((call) => call.path.endsWith('/file/')).map((call) => call.path)).toEqual([
      `/api/patient-documents/${PHOTO.id}/file/`,
    ]);
  });

  it('uploads a PDF as multipart with its category, date and description', async () => {
    const sent: FormData[] = [];
    const { user } = open(
      server((method, url, body) => {
        if (url.pathname === '/api/patient-documents/' && method === 'POST') {
          sent.push(body as FormData);
          return Response.json(upload(), { status: 201 });
        }
        return undefined;
      }),
    );
    await user.click(await screen.findByRole('button', { name: 'Ajouter un document' }));
    await chooseFile(new File(['%PDF-1.7'], 'lettre.pdf', { type: 'application/pdf' }));
    expect(await screen.findByTestId('upload-file-name')).toHaveTextContent('lettre.pdf');
    await user.type(screen.getByRole('textbox', { name: 'Description' }), 'Lettre');
    await user.click(screen.getByRole('button', { name: 'Déposer' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    const form = sent[0] as FormData;
    expect(form.get('patient')).toBe(PATIENT.id);
    expect(form.get('category')).toBe('other');
    expect(form.get('description')).toBe('Lettre');
    expect((form.get('file') as File).name).toBe('lettre.pdf');
    expect(await screen.findByText('Document ajouté au dossier.')).toBeInTheDocument();
  });

  it('refuses a file of another type or too large before sending, in words', async () => {
    const { user, calls } = open();
    await user.click(await screen.findByRole('button', { name: 'Ajouter un document' }));
    await chooseFile(new File(['<svg/>'], 'logo.svg', { type: 'image/svg+xml' }));
    expect(await screen.findByTestId('upload-error')).toHaveTextContent(
      'Seules les images (JPEG, PNG, WebP) et les PDF sont acceptés.',
    );
    const big = new File(['x'], 'scan.jpg', { type: 'image/jpeg' });
    Object.defineProperty(big, 'size', { value: 11 * 1024 * 1024 });
    await chooseFile(big);
    expect(await screen.findByTestId('upload-error')).toHaveTextContent(
      'Ce fichier est trop volumineux (10 Mo au plus).',
    );
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it("shows the server's refusal of a disguised file and of a too large one", async () => {
    let status = 400;
    const { user } = open(
      server((method, url) =>
        url.pathname === '/api/patient-documents/' && method === 'POST'
          ? status === 400
            ? Response.json(
                { file: ["Le contenu du fichier n'est pas une image ni un PDF."] },
                { status: 400 },
              )
            : Response.json({ detail: 'Too large', code: 'documents.file_too_large' }, { status: 413 })
          : undefined,
      ),
    );
    await user.click(await screen.findByRole('button', { name: 'Ajouter un document' }));
    await chooseFile(new File(['MZ'], 'photo.jpg', { type: 'image/jpeg' }));
    await user.click(screen.getByRole('button', { name: 'Déposer' }));
    expect(await screen.findByTestId('upload-error')).toHaveTextContent(
      "Le contenu du fichier n'est pas une image ni un PDF.",
    );
    status = 413;
    await user.click(screen.getByRole('button', { name: 'Déposer' }));
    await waitFor(() =>
      expect(screen.getByTestId('upload-error')).toHaveTextContent('Ce fichier est trop volumineux'),
    );
  });

  it('deletes an upload with a reason', async () => {
    const reasons: unknown[] = [];
    const { user } = open(
      server((method, url, body) => {
        if (url.pathname === `/api/patient-documents/${UPLOAD_ID}/delete/`) {
          reasons.push(body);
          return Response.json(upload());
        }
        return undefined;
      }),
    );
    const panel = await screen.findByTestId('patient-documents');
    await within(panel).findByText('Bilan sanguin de septembre');
    await user.click(within(panel).getAllByRole('button', { name: 'Supprimer' })[0] as HTMLElement);
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByRole('textbox', { name: /Motif/ }), 'Mauvais patient');
    await user.click(within(dialog).getByRole('button', { name: 'Supprimer' }));
    await waitFor(() => expect(reasons).toEqual([{ reason: 'Mauvais patient' }]));
  });
});
