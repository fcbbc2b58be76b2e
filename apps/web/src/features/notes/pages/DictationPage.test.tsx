import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubDesktopWidth } from '../../../test/media-query';
import { type MockRequest, makeUser, renderApp } from '../../../test/render';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const recording = {
  id: '0190f3a0-0000-7000-8000-0000000000aa',
  patient: {
    id: '0190f3a0-0000-7000-8000-0000000000bb',
    record_number: 'HGG-2026-000123',
    full_name: 'Didier Mwamba',
    sex: 'M',
    age: 42,
    allergies: [],
    allergies_recorded: true,
    deceased_at: null,
  },
  document: '0190f3a0-0000-7000-8000-0000000000cc',
  language: 'fr',
  context: 'Consultation — examen clinique',
  size_bytes: 2048,
  created_at: '2026-11-20T08:00:00Z',
  typed_at: null,
};

describe('/dictation', () => {
  it('explains where audio goes, degrades without recognition, and lists the recordings to type', {
    timeout: 120_000,
  }, async () => {
    stubDesktopWidth();
    const user = userEvent.setup();
    const typed: string[] = [];
    renderApp('/dictation', {
      user: makeUser(),
      routes: {
        '/api/dictation/config/': () =>
          Response.json({ browser_enabled: true, server_transcription: false, max_bytes: 8388608 }),
        '/api/dictation/recordings/': () =>
          Response.json({ count: 1, next: null, previous: null, results: typed.length ? [] : [recording] }),
        [`/api/dictation/recordings/${recording.id}/typed/`]: ({ method }: MockRequest) => {
          typed.push(method);
          return Response.json({ ...recording, typed_at: '2026-11-20T09:00:00Z' });
        },
      },
    });
    const page = await screen.findByTestId('dictation-page', {}, { timeout: 15_000 });
    const where = await within(page).findByTestId('dictation-where');
    expect(where).toHaveTextContent(/Google ou de Microsoft/);
    expect(where).toHaveTextContent(/ne propose pas la reconnaissance vocale/);
    await waitFor(() => expect(where).toHaveTextContent(/Aucun service de transcription/));
    expect(within(page).queryByRole('button', { name: 'Commencer la dictée' })).toBeNull();

    const pending = within(page).getByTestId('pending-recordings');
    expect(await within(pending).findByText('Didier Mwamba')).toBeInTheDocument();
    await user.click(within(pending).getByRole('button', { name: 'Marquer comme saisi' }));
    await waitFor(() => expect(typed).toEqual(['POST']));
    expect(await within(pending).findByTestId('recordings-empty')).toBeInTheDocument();
  });
});
