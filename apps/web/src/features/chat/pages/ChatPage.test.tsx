import type { TChatMessage } from '@greensen/shared/contracts/chat';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type MockRequest, makeUser, renderApp } from '../../../test/render';

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

const C1 = '0193a000-0000-7000-8000-000000000001';
const NURSE = { id: 'u-nurse', full_name: 'Esther Mwamba' };
const ME = { id: 'u1', full_name: 'Awa Diop' };

const message = (over: Partial<TChatMessage>): TChatMessage => ({
  id: '0193a000-0000-7000-8000-0000000000a1',
  conversation: C1,
  author: NURSE,
  body: 'Bonjour',
  reply_to: null,
  patient: null,
  system: null,
  attachment: null,
  created_at: new Date().toISOString(),
  edited_at: null,
  deleted_at: null,
  ...over,
});

function routes(messages: TChatMessage[], posts: MockRequest[], kind: 'direct' | 'group' = 'direct') {
  const conversation = {
    id: C1,
    kind,
    title: 'Esther Mwamba',
    department: null,
    unread_count: 2,
    last_message: { author: 'Esther Mwamba', excerpt: 'Bonjour', created_at: new Date().toISOString() },
    last_message_at: new Date().toISOString(),
  };
  return {
    '/api/chat/unread/': () => Response.json({ unread_total: 2 }),
    '/api/chat/conversations/': () =>
      Response.json({ count: 1, next: null, previous: null, results: [conversation], unread_total: 2 }),
    [`/api/chat/conversations/${C1}/`]: () =>
      Response.json({
        ...conversation,
        members: [ME, NURSE],
        receipts: [{ user: NURSE, last_read_message: messages[0]?.id ?? null, last_read_at: null }],
        created_by: kind === 'group' ? ME.id : null,
        can: { manage_members: kind === 'group', leave: kind === 'group' },
      }),
    [`/api/chat/conversations/${C1}/messages/`]: (r: MockRequest) => {
      if (r.method === 'POST') posts.push(r);
      return Response.json({ results: messages, next_cursor: null });
    },
    [`/api/chat/conversations/${C1}/read/`]: (r: MockRequest) => {
      posts.push(r);
      return Response.json({ unread_total: 0 });
    },
  };
}

describe('the messaging page', { timeout: 60_000 }, () => {
  it('lists conversations with unread counts, shows messages as text, deleted ones and patient cards', async () => {
    const user = userEvent.setup();
    const posts: MockRequest[] = [];
    const messages = [
      message({ id: '0193a000-0000-7000-8000-0000000000a3', body: '<b>pas du HTML</b>' }),
      message({
        id: '0193a000-0000-7000-8000-0000000000a2',
        body: 'Voir ce patient',
        patient: {
          restricted: false,
          id: 'p1',
          full_name: 'Didier Kasongo',
          record_number: 'HGG-2026-000001',
        },
      }),
      message({ id: '0193a000-0000-7000-8000-0000000000a1', body: '', deleted_at: new Date().toISOString() }),
      message({ id: '0193a000-0000-7000-8000-0000000000a0', body: 'Autre', patient: { restricted: true } }),
    ];
    renderApp('/chat', { user: makeUser(), routes: routes(messages, posts) });
    const list = await screen.findByTestId('chat-conversations', {}, { timeout: 15_000 });
    expect(within(list).getByLabelText('2 messages non lus')).toBeInTheDocument();
    expect(await screen.findByTestId('chat-unread-badge', {}, { timeout: 15_000 })).toHaveTextContent('2');

    await user.click(within(list).getByText('Esther Mwamba'));
    const view = await screen.findByTestId('chat-conversation', {}, { timeout: 15_000 });
    expect(await within(view).findByText('<b>pas du HTML</b>', {}, { timeout: 15_000 })).toBeInTheDocument();
    expect(within(view).getByText('message supprimé')).toBeInTheDocument();
    expect(within(view).getByRole('link', { name: 'Didier Kasongo' })).toHaveAttribute(
      'href',
      '/patients/p1',
    );
    expect(within(view).getByTestId('chat-patient-restricted')).toHaveTextContent('un dossier patient');
    // The newest message shown is read.
    await waitFor(() => expect(posts.some((p) => p.url.pathname.endsWith('/read/'))).toBe(true), {
      timeout: 15_000,
    });
    expect(within(view).getByTestId('chat-receipts')).toHaveTextContent('Lu par Esther Mwamba');
  });

  it('shows a message typed while the socket is down as pending, without sending it yet', async () => {
    const user = userEvent.setup();
    const posts: MockRequest[] = [];
    renderApp('/en/chat', { user: makeUser(), routes: routes([], posts) });
    const list = await screen.findByTestId('chat-conversations', {}, { timeout: 15_000 });
    await user.click(within(list).getByText('Esther Mwamba'));
    const view = await screen.findByTestId('chat-conversation', {}, { timeout: 15_000 });
    await user.type(within(view).getByLabelText('Write a message'), 'Back in five minutes{Enter}');
    const pending = await within(view).findByTestId('chat-pending', {}, { timeout: 15_000 });
    expect(pending).toHaveTextContent('Back in five minutes');
    expect(pending).toHaveTextContent('pending');
    expect(posts.filter((p) => p.method === 'POST' && p.url.pathname.endsWith('/messages/'))).toEqual([]);
  });

  it('writes system messages in the reader’s language, shows attachments as chips and manages a group', async () => {
    const user = userEvent.setup();
    const posts: MockRequest[] = [];
    const messages = [
      message({
        id: '0193a000-0000-7000-8000-0000000000b2',
        body: 'La plaie',
        attachment: { name: 'plaie.pdf', content_type: 'application/pdf', size_bytes: 2048, viewable: true },
      }),
      message({
        id: '0193a000-0000-7000-8000-0000000000b1',
        author: ME,
        body: '',
        system: { event: 'member_added', user: NURSE },
      }),
    ];
    renderApp('/chat', { user: makeUser({ id: ME.id }), routes: routes(messages, posts, 'group') });
    const list = await screen.findByTestId('chat-conversations', {}, { timeout: 15_000 });
    await user.click(within(list).getByText('Esther Mwamba'));
    const view = await screen.findByTestId('chat-conversation', {}, { timeout: 15_000 });
    expect(await within(view).findByTestId('chat-system', {}, { timeout: 15_000 })).toHaveTextContent(
      'vous a ajouté Esther Mwamba',
    );
    expect(within(view).getByTestId('chat-attachment')).toHaveTextContent('plaie.pdf');
    await user.click(within(view).getByRole('button', { name: 'Membres' }));
    const members = await screen.findByTestId('chat-members', {}, { timeout: 15_000 });
    expect(within(members).getByText('Awa Diop (vous)')).toBeInTheDocument();
    expect(within(members).getByLabelText('Retirer Esther Mwamba du groupe')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Quitter le groupe' })).toBeInTheDocument();
  });
});
