import { describe, expect, it, vi } from 'vitest';
import { parseResetToken } from '../features/auth/api/password';
import { isChunkLoadError, RELOAD_GUARD_KEY, reloadOnceForChunkError } from './chunk-reload';
import { serverErrorsFromBody } from './field-errors';
import { BUSY_RECHECK_MS, runWithLimit } from './preload';
import { activeTimerNames, clearAllTimers, clearTimersWithPrefix, registerInterval } from './timers';

describe('reset link parsing', () => {
  const uid = '0190f1a2-7b3c-7def-8123-456789abcdef';
  it('reads {uid}.{token}', () => {
    expect(parseResetToken(`${uid}.abc_DEF-123`, '')).toEqual({ uid, token: 'abc_DEF-123' });
  });
  it('reads {token}?uid=…', () => {
    expect(parseResetToken('tok-en', `?uid=${uid}`)).toEqual({ uid, token: 'tok-en' });
  });
  it('reads {uuid}-{token}', () => {
    expect(parseResetToken(`${uid}-tokenValue`, '')).toEqual({ uid, token: 'tokenValue' });
  });
  it('reads {uid}-{token} at the first dash for a simple uid', () => {
    expect(parseResetToken('42-abc-def', '')).toEqual({ uid: '42', token: 'abc-def' });
  });
  it('refuses a bare token', () => {
    expect(parseResetToken('justatoken', '')).toBeNull();
  });
});

describe('chunk reload guard', () => {
  it('reloads once, then not again within 10 s', () => {
    const storage = new Map<string, string>();
    const store = {
      getItem: (key: string) => storage.get(key) ?? null,
      setItem: (k: string, v: string) => storage.set(k, v),
    };
    const reload = vi.fn();
    expect(reloadOnceForChunkError(store, reload, 1_000)).toBe(true);
    expect(storage.get(RELOAD_GUARD_KEY)).toBe('1000');
    expect(reloadOnceForChunkError(store, reload, 10_999)).toBe(false);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(reloadOnceForChunkError(store, reload, 11_000)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(2);
  });
  it('recognises chunk load errors', () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /assets/x.js'))).toBe(
      true,
    );
    expect(isChunkLoadError(new Error('Cannot read properties of undefined'))).toBe(false);
  });
});

describe('idle preloading', () => {
  it('runs at most 4 loaders at once', async () => {
    let running = 0;
    let peak = 0;
    const loaders = Array.from({ length: 10 }, () => async () => {
      running += 1;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running -= 1;
    });
    await runWithLimit(loaders);
    expect(peak).toBe(4);
  });
  it('starts nothing while the app is busy, then everything once it is not', async () => {
    vi.useFakeTimers();
    let busy = true;
    const started: number[] = [];
    const loaders = Array.from({ length: 3 }, (_, i) => async () => {
      started.push(i);
    });
    const run = runWithLimit(loaders, 4, () => busy);
    await vi.advanceTimersByTimeAsync(BUSY_RECHECK_MS * 4);
    expect(started).toEqual([]);
    busy = false;
    await vi.advanceTimersByTimeAsync(BUSY_RECHECK_MS);
    await run;
    expect(started.sort()).toEqual([0, 1, 2]);
    vi.useRealTimers();
  });
});

describe('timer registry', () => {
  it('stops timers by prefix and all at once', () => {
    vi.useFakeTimers();
    const tick = vi.fn();
    registerInterval('dashboard:doctor', tick, 100);
    registerInterval('dashboard:admin', tick, 100);
    registerInterval('platform:build-check', tick, 100);
    clearTimersWithPrefix('dashboard:');
    expect(activeTimerNames()).toEqual(['platform:build-check']);
    clearAllTimers();
    vi.advanceTimersByTime(1000);
    expect(tick).not.toHaveBeenCalled();
    vi.useRealTimers();
  });
});

describe('server field errors', () => {
  it('splits field errors from general ones', () => {
    expect(
      serverErrorsFromBody({ email: ['taken', 'again'], non_field_errors: ['nope'], detail: 'x' }),
    ).toEqual({
      fields: { email: 'taken again' },
      general: 'nope x',
    });
  });
});
