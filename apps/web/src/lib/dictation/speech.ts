/**
 * The browser's speech recognition (Web Speech API) as a hook (issue 23). Chrome, Edge and Safari offer it; in
 * Chrome and Edge the audio goes to the browser vendor's servers to be recognised (decision 0034), which the
 * dictation dialog says before it starts. Firefox offers none: `supported` is false and the button says so.
 */
import { useCallback, useEffect, useRef, useState } from 'react';

interface RecognitionAlternative {
  transcript: string;
}
interface RecognitionResult {
  readonly isFinal: boolean;
  readonly length: number;
  [index: number]: RecognitionAlternative;
}
export interface RecognitionEvent {
  readonly resultIndex: number;
  readonly results: { readonly length: number; [index: number]: RecognitionResult };
}
export interface Recognition {
  lang: string;
  continuous: boolean;
  interimResults: boolean;
  onresult: ((event: RecognitionEvent) => void) | null;
  onerror: ((event: { error: string }) => void) | null;
  onend: (() => void) | null;
  start(): void;
  stop(): void;
  abort(): void;
}
type RecognitionConstructor = new () => Recognition;

/** The browser's recognition class (standard or prefixed), or null. */
export function recognitionClass(win: object = window): RecognitionConstructor | null {
  const w = win as {
    SpeechRecognition?: RecognitionConstructor;
    webkitSpeechRecognition?: RecognitionConstructor;
  };
  return w.SpeechRecognition ?? w.webkitSpeechRecognition ?? null;
}

/** `fr-FR` or `en-US` for the UI language. */
export const recognitionLang = (language: string) => (language.startsWith('en') ? 'en-US' : 'fr-FR');

export interface SpeechState {
  supported: boolean;
  listening: boolean;
  /** The recognised text so far (final results), then what is being heard (interim). */
  text: string;
  interim: string;
  /** The last error (`not-allowed` when the microphone is refused, `no-speech`, `network`…), or null. */
  error: string | null;
  start(): void;
  stop(): void;
  reset(): void;
}

export function useSpeechRecognition(language: string): SpeechState {
  const Klass = recognitionClass();
  const recognition = useRef<Recognition | null>(null);
  const [listening, setListening] = useState(false);
  const [text, setText] = useState('');
  const [interim, setInterim] = useState('');
  const [error, setError] = useState<string | null>(null);

  const stop = useCallback(() => recognition.current?.stop(), []);
  useEffect(() => () => recognition.current?.abort(), []);

  const start = useCallback(() => {
    if (!Klass || recognition.current) return;
    const r = new Klass();
    r.lang = recognitionLang(language);
    r.continuous = true;
    r.interimResults = true;
    r.onresult = (event) => {
      let finalPart = '';
      let heard = '';
      for (let i = event.resultIndex; i < event.results.length; i++) {
        const result = event.results[i]!;
        if (result.isFinal) finalPart += result[0]!.transcript;
        else heard += result[0]!.transcript;
      }
      if (finalPart) setText((before) => [before, finalPart.trim()].filter(Boolean).join(' '));
      setInterim(heard.trim());
    };
    r.onerror = (event) => setError(event.error);
    r.onend = () => {
      recognition.current = null;
      setListening(false);
      setInterim('');
    };
    recognition.current = r;
    setError(null);
    setListening(true);
    r.start();
  }, [Klass, language]);

  const reset = useCallback(() => {
    setText('');
    setInterim('');
    setError(null);
  }, []);

  return { supported: Klass !== null, listening, text, interim, error, start, stop, reset };
}
