/**
 * Automatic draft saving with optimistic versions. `change(patch)` merges the patch into the pending changes
 * and saves them `delay` ms after the last change (debounced), with the version the record is at; each
 * success moves the version on. Saves never overlap: changes made during a save go in the next one.
 *
 * - A stale-version answer (another tab or device saved in between) stops saving: `onConflict(lost, version)`
 *   gets the changes that were not saved, and the caller reloads the record and calls `reset(version)`.
 * - Changes that fail `isValid` are kept but not sent (`invalid`) until a later change makes them valid.
 * - Any other failure keeps the changes for the next attempt (`error`); `flush()` retries at once.
 * - Pending changes are saved when the component unmounts (leaving the page).
 */
import { useCallback, useEffect, useRef, useState } from 'react';

export type AutosaveStatus = 'idle' | 'pending' | 'saving' | 'saved' | 'invalid' | 'error' | 'conflict';

export interface AutosaveOptions<P extends Record<string, unknown>, R extends { version: number }> {
  /** The version of the record the first save is based on. */
  version: number;
  /** False while the record may not be edited: changes are ignored. */
  enabled: boolean;
  save: (patch: P, version: number) => Promise<R>;
  /** The current version carried by a stale-version error, or null for other errors. */
  staleVersionOf: (error: unknown) => number | null;
  delay?: number;
  isValid?: (patch: P) => boolean;
  onSaved?: (result: R) => void;
  onConflict?: (lost: P, version: number) => void;
}

export interface Autosave<P> {
  status: AutosaveStatus;
  /** When the last save succeeded. */
  savedAt: Date | null;
  error: unknown;
  change: (patch: Partial<P>) => void;
  /** Saves the pending changes now; resolves true when nothing is left unsaved. */
  flush: () => Promise<boolean>;
  /** Starts again from a (reloaded) version, dropping pending changes. */
  reset: (version: number) => void;
  /** Changes not saved yet. */
  dirty: () => boolean;
  /** The version the record is at after the last save. */
  version: () => number;
}

export const AUTOSAVE_DELAY_MS = 1500;

export function useAutosave<P extends Record<string, unknown>, R extends { version: number }>(
  options: AutosaveOptions<P, R>,
): Autosave<P> {
  const optionsRef = useRef(options);
  optionsRef.current = options;
  const versionRef = useRef(options.version);
  const pendingRef = useRef<Partial<P> | null>(null);
  const timerRef = useRef<ReturnType<typeof setTimeout> | null>(null);
  const inflightRef = useRef<Promise<boolean> | null>(null);
  const blockedRef = useRef(false);
  const mountedRef = useRef(true);
  const [status, setStatusState] = useState<AutosaveStatus>('idle');
  const [savedAt, setSavedAt] = useState<Date | null>(null);
  const [error, setError] = useState<unknown>(null);

  const setStatus = useCallback((next: AutosaveStatus) => {
    if (mountedRef.current) setStatusState(next);
  }, []);

  const clearTimer = useCallback(() => {
    if (timerRef.current) clearTimeout(timerRef.current);
    timerRef.current = null;
  }, []);

  const run = useCallback(async (): Promise<boolean> => {
    clearTimer();
    while (inflightRef.current) await inflightRef.current;
    const patch = pendingRef.current as P | null;
    if (!patch) return true;
    if (blockedRef.current || !optionsRef.current.enabled) return false;
    if (optionsRef.current.isValid && !optionsRef.current.isValid(patch)) {
      setStatus('invalid');
      return false;
    }
    pendingRef.current = null;
    setStatus('saving');
    const attempt = (async () => {
      try {
        const result = await optionsRef.current.save(patch, versionRef.current);
        versionRef.current = result.version;
        if (mountedRef.current) {
          setSavedAt(new Date());
          setError(null);
        }
        optionsRef.current.onSaved?.(result);
        setStatus(pendingRef.current ? 'pending' : 'saved');
        return true;
      } catch (err) {
        const current = optionsRef.current.staleVersionOf(err);
        const unsaved = { ...patch, ...(pendingRef.current ?? {}) } as P;
        if (current !== null) {
          blockedRef.current = true;
          pendingRef.current = null;
          setStatus('conflict');
          optionsRef.current.onConflict?.(unsaved, current);
        } else {
          pendingRef.current = unsaved;
          if (mountedRef.current) setError(err);
          setStatus('error');
        }
        return false;
      }
    })();
    inflightRef.current = attempt;
    const ok = await attempt;
    inflightRef.current = null;
    if (ok && pendingRef.current && mountedRef.current) {
      // Changes made during the save: their own debounce.
      timerRef.current = setTimeout(() => void run(), optionsRef.current.delay ?? AUTOSAVE_DELAY_MS);
    }
    return ok && !pendingRef.current;
  }, [clearTimer, setStatus]);

  const change = useCallback(
    (patch: Partial<P>) => {
      if (!optionsRef.current.enabled || blockedRef.current) return;
      pendingRef.current = { ...(pendingRef.current ?? {}), ...patch };
      setStatus('pending');
      clearTimer();
      timerRef.current = setTimeout(() => void run(), optionsRef.current.delay ?? AUTOSAVE_DELAY_MS);
    },
    [clearTimer, run, setStatus],
  );

  const reset = useCallback(
    (version: number) => {
      clearTimer();
      versionRef.current = version;
      pendingRef.current = null;
      blockedRef.current = false;
      setError(null);
      setStatus('idle');
    },
    [clearTimer, setStatus],
  );

  useEffect(() => {
    mountedRef.current = true;
    return () => {
      mountedRef.current = false;
      // Leaving the page: what is pending is still saved.
      if (pendingRef.current && !blockedRef.current) void run();
      else clearTimer();
    };
  }, [clearTimer, run]);

  return {
    status,
    savedAt,
    error,
    change,
    flush: run,
    reset,
    dirty: () => pendingRef.current !== null,
    version: () => versionRef.current,
  };
}
