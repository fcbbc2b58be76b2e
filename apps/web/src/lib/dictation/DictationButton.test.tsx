import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuthStore } from '../../stores/auth';
import { TestProviders } from '../../test/render';
import { queryClient } from '../query-client';
import { appendDictation, DictationButton } from './DictationButton';
import type { Recognition, RecognitionEvent } from './speech';

/** A fake browser recognition: records how it was set up; the test speaks through `say`. */
class FakeRecognition implements Recognition {
  static last: FakeRecognition | null = null;
  lang = '';
  continuous = false;
  interimResults = false;
  started = false;
  onresult: ((event: RecognitionEvent) => void) | null = null;
  onerror: ((event: { error: string }) => void) | null = null;
  onend: (() => void) | null = null;
  constructor() {
    FakeRecognition.last = this;
  }
  start() {
    this.started = true;
  }
  stop() {
    this.started = false;
    this.onend?.();
  }
  abort() {
    this.stop();
  }
  say(text: string, isFinal: boolean) {
    const result = Object.assign([{ transcript: text }], { isFinal });
    this.onresult?.({ resultIndex: 0, results: Object.assign([result], {}) } as unknown as RecognitionEvent);
  }
}

beforeEach(() => {
  queryClient.clear();
  useAuthStore.setState({ currentHospitalId: null });
  FakeRecognition.last = null;
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('DictationButton', () => {
  it('appends dictated text to a field', () => {
    expect(appendDictation('', ' Abdomen souple ')).toBe('Abdomen souple');
    expect(appendDictation('Fièvre.', 'Toux')).toBe('Fièvre. Toux');
    expect(appendDictation('Fièvre.\n', 'Toux')).toBe('Fièvre.\nToux');
    expect(appendDictation('Fièvre.', '  ')).toBe('Fièvre.');
  });

  it('is disabled with the reason where the browser has no speech recognition', () => {
    const onInsert = vi.fn();
    render(
      <TestProviders>
        <DictationButton onInsert={onInsert} />
      </TestProviders>,
    );
    const button = screen.getByTestId('dictation-button');
    expect(button).toBeDisabled();
    expect(button).toHaveAccessibleName(/ne propose pas la reconnaissance vocale/);
  });

  it('dictates in the UI language, says where the audio goes, and inserts the corrected text', async () => {
    vi.stubGlobal('webkitSpeechRecognition', FakeRecognition);
    const user = userEvent.setup();
    const onInsert = vi.fn();
    render(
      <TestProviders>
        <DictationButton onInsert={onInsert} label="Examen clinique" />
      </TestProviders>,
    );
    await user.click(screen.getByTestId('dictation-button'));
    const dialog = await screen.findByRole('dialog', { name: 'Dictée — Examen clinique' });
    expect(within(dialog).getByTestId('dictation-privacy')).toHaveTextContent(/Google ou de Microsoft/);
    await user.click(within(dialog).getByRole('button', { name: 'Commencer la dictée' }));
    const recognition = FakeRecognition.last!;
    expect(recognition).toMatchObject({
      lang: 'fr-FR',
      continuous: true,
      interimResults: true,
      started: true,
    });
    expect(within(dialog).getByRole('status')).toHaveTextContent('Écoute en cours');

    act(() => recognition.say('abdomen sou', false));
    expect(await within(dialog).findByTestId('dictation-interim')).toHaveTextContent('abdomen sou');
    act(() => recognition.say('abdomen souple dépressible', true));
    const field = within(dialog).getByRole('textbox', { name: /Texte reconnu/ });
    await waitFor(() => expect(field).toHaveValue('abdomen souple dépressible'));
    // Insertion waits for the end of the dictation, then takes the corrected text.
    expect(within(dialog).getByRole('button', { name: 'Insérer' })).toBeDisabled();
    await user.click(within(dialog).getByRole('button', { name: 'Arrêter' }));
    await user.type(field, ', indolore');
    await user.click(within(dialog).getByRole('button', { name: 'Insérer' }));
    expect(onInsert).toHaveBeenCalledWith('abdomen souple dépressible, indolore');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('shows a refused microphone', async () => {
    vi.stubGlobal('SpeechRecognition', FakeRecognition);
    const user = userEvent.setup();
    render(
      <TestProviders>
        <DictationButton onInsert={vi.fn()} />
      </TestProviders>,
    );
    await user.click(screen.getByTestId('dictation-button'));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Commencer la dictée' }));
    act(() => FakeRecognition.last!.onerror?.({ error: 'not-allowed' }));
    expect(await within(dialog).findByText(/Le micro est refusé/)).toBeInTheDocument();
  });

  it('is disabled when the hospital switched browser recognition off', async () => {
    vi.stubGlobal('SpeechRecognition', FakeRecognition);
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ dictation_browser_enabled: false, notification_sound: true })),
    );
    useAuthStore.setState({ access: 'a', refresh: 'r', isAuthenticated: true, currentHospitalId: 'h1' });
    render(
      <TestProviders>
        <DictationButton onInsert={vi.fn()} />
      </TestProviders>,
    );
    await waitFor(() => expect(screen.getByTestId('dictation-button')).toBeDisabled());
    expect(screen.getByTestId('dictation-button')).toHaveAccessibleName(/désactivée par votre hôpital/);
  });
});
