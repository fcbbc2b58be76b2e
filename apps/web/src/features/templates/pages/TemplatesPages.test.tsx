import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { listItem, OWN_ID, pageOf, SHIPPED_ID, template } from '../../../lib/documents/documents.fixture';
import { stubDesktopWidth } from '../../../test/media-query';
import { locationOf, type MockRequest, makeUser, renderApp } from '../../../test/render';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const admin = makeUser({ active_roles: [{ role_code: 'ADMIN', hospital: 'h1', department: null }] });
const doctor = makeUser();
const OWN = template({
  id: OWN_ID,
  shipped: false,
  active: false,
  based_on: SHIPPED_ID,
  name: 'Certificat médical (adapté)',
  version: 3,
  can: { edit: true, activate: true, archive: true },
});
const VARIABLES = {
  kind: 'medical_certificate',
  variables: [
    {
      path: 'patient.full_name',
      type: 'text',
      label_fr: 'Nom du patient',
      label_en: 'Patient name',
      example: 'Marie',
    },
    {
      path: 'patient.birth_date',
      type: 'date',
      label_fr: 'Date de naissance',
      label_en: 'Date of birth',
      example: '29/02/1984',
    },
    { path: 'diagnoses', type: 'list', label_fr: 'Diagnostics', label_en: 'Diagnoses', example: null },
    {
      path: 'diagnoses[].code',
      type: 'text',
      label_fr: 'Code CIM-10',
      label_en: 'ICD-10 code',
      example: 'B54',
    },
  ],
  filters: ['date', 'upcase'],
};

describe('the templates pages', () => {
  it('/templates lists the models with their origin and filters by kind', async () => {
    stubDesktopWidth();
    const user = userEvent.setup();
    const queries: URLSearchParams[] = [];
    renderApp('/templates', {
      user: doctor,
      routes: {
        '/api/document-templates/': ({ url }: MockRequest) => {
          queries.push(url.searchParams);
          return pageOf([listItem(), listItem({ ...OWN, id: OWN_ID })]);
        },
      },
    });
    const page = await screen.findByTestId('templates-page', {}, { timeout: 15_000 });
    expect(await within(page).findByText('Certificat médical (adapté)')).toBeInTheDocument();
    expect(within(page).getAllByText('Greensen').length).toBeGreaterThan(0);
    expect(within(page).getByText('Hôpital')).toBeInTheDocument();
    // A doctor does not adapt models.
    expect(within(page).queryByText('Adapter les modèles')).not.toBeInTheDocument();
    await user.click(within(page).getByRole('combobox', { name: 'Type' }));
    await user.click(await screen.findByRole('option', { name: 'Arrêt de travail', hidden: true }));
    await waitFor(() => expect(queries.at(-1)?.get('kind')).toBe('sick_leave_certificate'));
  });

  it('Template Details shows the body and, for an administrator, the preview in a sandboxed frame', async () => {
    const previews: unknown[] = [];
    renderApp(`/templates/${SHIPPED_ID}`, {
      user: admin,
      routes: {
        [`/api/document-templates/${SHIPPED_ID}/`]: () => Response.json(template()),
        '/api/document-templates/preview/': ({ body }: MockRequest) => {
          previews.push(body);
          return Response.json({
            text: '# Certificat',
            html: '<h1>Certificat</h1><p>&lt;script&gt;alert(1)&lt;/script&gt;</p>',
          });
        },
      },
    });
    const detail = await screen.findByTestId('template-detail', {}, { timeout: 15_000 });
    expect(within(detail).getByText('Détails du modèle')).toBeInTheDocument();
    expect(within(detail).getByTestId('template-body')).toHaveTextContent('{{ patient.full_name }}');
    const frame = await within(detail).findByTestId('html-paper');
    expect(frame.getAttribute('sandbox')).toBe('');
    expect(frame.getAttribute('srcdoc')).toContain('<h1>Certificat</h1>');
    expect(previews[0]).toMatchObject({ kind: 'medical_certificate', language: 'fr', paper: 'A4' });
  });

  it('a doctor sees no preview call (the preview route is the managers’)', async () => {
    const { fetchMock } = renderApp(`/templates/${SHIPPED_ID}`, {
      user: doctor,
      routes: { [`/api/document-templates/${SHIPPED_ID}/`]: () => Response.json(template()) },
    });
    await screen.findByTestId('template-detail', {}, { timeout: 15_000 });
    expect(screen.getByText(/L'aperçu est réservé/)).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([input]) => String(input).includes('preview'))).toBe(false);
  });

  it('/admin/templates copies a Greensen model, then opens the copy', async () => {
    const user = userEvent.setup();
    const created: unknown[] = [];
    const { router } = renderApp(`/admin/templates?id=${SHIPPED_ID}`, {
      user: admin,
      routes: {
        '/api/document-templates/': ({ method, body }: MockRequest) => {
          if (method === 'POST') {
            created.push(body);
            return Response.json(OWN, { status: 201 });
          }
          return pageOf([listItem()]);
        },
        [`/api/document-templates/${SHIPPED_ID}/`]: () => Response.json(template()),
        [`/api/document-templates/${OWN_ID}/`]: () => Response.json(OWN),
        '/api/document-templates/variables/': () => Response.json(VARIABLES),
        '/api/document-templates/preview/': () => Response.json({ text: '', html: '<p>x</p>' }),
      },
    });
    const selected = await screen.findByTestId('admin-template', {}, { timeout: 15_000 });
    expect(within(selected).getByText(/lecture seule/)).toBeInTheDocument();
    await user.click(within(selected).getByRole('button', { name: 'Copier et adapter' }));
    await waitFor(() => expect(locationOf(router)).toBe(`/admin/templates?id=${OWN_ID}`));
    expect(created[0]).toMatchObject({
      based_on: SHIPPED_ID,
      kind: 'medical_certificate',
      language: 'fr',
      name: 'Certificat médical (adapté)',
    });
    expect(await screen.findByTestId('template-editor', {}, { timeout: 10_000 })).toBeInTheDocument();
  });

  it('inserts a variable at the cursor and shows the line and reason of a refused body', async () => {
    const user = userEvent.setup();
    const patches: unknown[] = [];
    renderApp(`/admin/templates?id=${OWN_ID}`, {
      user: admin,
      routes: {
        '/api/document-templates/': () => pageOf([listItem(), listItem(OWN)]),
        [`/api/document-templates/${OWN_ID}/`]: ({ method, body }: MockRequest) => {
          if (method === 'PATCH') {
            patches.push(body);
            return Response.json(
              {
                body: ['Ligne 1, colonne 4 : variable inconnue « secret ».'],
                template_line: ['1'],
                template_column: ['4'],
                template_reason: ['unknown_variable'],
              },
              { status: 400 },
            );
          }
          return Response.json(OWN);
        },
        '/api/document-templates/variables/': () => Response.json(VARIABLES),
      },
    });
    const editor = (await screen.findByTestId(
      'template-editor',
      {},
      { timeout: 15_000 },
    )) as HTMLTextAreaElement;
    await user.clear(editor);
    await user.type(editor, 'Nom : ');
    const variables = await screen.findByTestId('template-variables');
    // Each variable shows its path and, under it, its label in the user's language (leaves included).
    const birth = await within(variables).findByText('patient.birth_date');
    expect(birth.closest('[data-variable]')).toHaveTextContent('patient.birth_dateDate de naissance');
    expect(within(variables).getByText('diagnoses[].code').closest('[data-variable]')).toHaveTextContent(
      'diagnoses[].codeCode CIM-10',
    );
    await user.click(await within(variables).findByText('patient.full_name'));
    expect(editor.value).toBe('Nom : {{ patient.full_name }}');
    await user.click(screen.getByRole('button', { name: 'Enregistrer' }));
    expect(await screen.findByTestId('template-problem')).toHaveTextContent(
      'Modèle refusé ligne 1 : Ligne 1, colonne 4 : variable inconnue « secret ».',
    );
    expect(patches[0]).toMatchObject({ version: 3, body: 'Nom : {{ patient.full_name }}' });
  });

  it('activates the hospital’s model', async () => {
    const user = userEvent.setup();
    const actions: string[] = [];
    renderApp(`/admin/templates?id=${OWN_ID}`, {
      user: admin,
      routes: {
        '/api/document-templates/': () => pageOf([listItem(OWN)]),
        [`/api/document-templates/${OWN_ID}/`]: () => Response.json(OWN),
        [`/api/document-templates/${OWN_ID}/activate/`]: () => {
          actions.push('activate');
          return Response.json({ ...OWN, active: true });
        },
        '/api/document-templates/variables/': () => Response.json(VARIABLES),
      },
    });
    const selected = await screen.findByTestId('admin-template', {}, { timeout: 15_000 });
    await user.click(within(selected).getByRole('button', { name: 'Activer' }));
    await waitFor(() => expect(actions).toEqual(['activate']));
  });
});
