import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubDesktopWidth } from '../../../test/media-query';
import { type MockRequest, makeUser, renderApp } from '../../../test/render';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const note = (over: Record<string, unknown> = {}) => ({
  id: '0190f3a0-0000-7000-8000-000000000001',
  kind: 'personal',
  patient: null,
  title: 'Garde de ce week-end',
  body: '## À faire\n- Rappeler le **laboratoire**\n\n<img src=x onerror="alert(1)"> [lien](javascript:alert(1))',
  tags: ['garde'],
  pinned: true,
  author: { id: 'u1', full_name: 'Awa Diop' },
  created_at: '2026-11-20T08:00:00Z',
  updated_at: '2026-11-20T08:00:00Z',
  can: { edit: true },
  ...over,
});
const pageOf = (results: unknown[]) =>
  Response.json({ count: results.length, next: null, previous: null, results });

describe('/notes', () => {
  it('shows the notes with their safe Markdown (HTML stays text), searches, filters by tag and writes one', {
    timeout: 120_000,
  }, async () => {
    stubDesktopWidth();
    const user = userEvent.setup();
    const queries: URLSearchParams[] = [];
    const created: unknown[] = [];
    renderApp('/notes', {
      user: makeUser(),
      routes: {
        '/api/notes/': ({ method, url, body }: MockRequest) => {
          if (method === 'POST') {
            created.push(body);
            return Response.json(note({ id: '0190f3a0-0000-7000-8000-000000000002', ...(body as object) }), {
              status: 201,
            });
          }
          queries.push(url.searchParams);
          return pageOf([note()]);
        },
      },
    });
    const page = await screen.findByTestId('notes-page', {}, { timeout: 15_000 });
    const card = await within(page).findByTestId('note-card');
    expect(within(card).getByText('Garde de ce week-end')).toBeInTheDocument();
    expect(within(card).getByText('laboratoire').tagName).toBe('STRONG');
    expect(within(card).getByRole('heading', { name: 'À faire' })).toBeInTheDocument();
    // Raw HTML and links are shown as typed, never as elements.
    expect(card.querySelector('img')).toBeNull();
    expect(card.querySelector('a')).toBeNull();
    expect(within(card).getByText(/<img src=x onerror="alert\(1\)">/)).toBeInTheDocument();

    await user.type(within(page).getByRole('textbox', { name: /Rechercher/ }), 'glycémie');
    await waitFor(() => expect(queries.at(-1)?.get('search')).toBe('glycémie'));
    await user.click(within(card).getByRole('button', { name: '#garde' }));
    await waitFor(() => expect(queries.at(-1)?.get('tag')).toBe('garde'));

    await user.click(within(page).getByRole('button', { name: 'Nouvelle note' }));
    const dialog = await screen.findByRole('dialog', { name: 'Nouvelle note personnelle' });
    await user.type(within(dialog).getByRole('textbox', { name: /Titre/ }), 'Idée');
    await user.type(within(dialog).getByRole('textbox', { name: /^Texte/ }), 'Un **point**');
    await user.click(within(dialog).getByRole('radio', { name: 'Aperçu' }));
    expect(within(await within(dialog).findByTestId('note-preview')).getByText('point').tagName).toBe(
      'STRONG',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Créer la note' }));
    await waitFor(() =>
      expect(created).toEqual([{ title: 'Idée', body: 'Un **point**', tags: [], pinned: false }]),
    );
  });

  it('says when there is no note yet', async () => {
    stubDesktopWidth();
    renderApp('/notes', { user: makeUser(), routes: { '/api/notes/': () => pageOf([]) } });
    expect(await screen.findByTestId('notes-empty', {}, { timeout: 15_000 })).toHaveTextContent(
      'Aucune note pour l’instant',
    );
  });
});
