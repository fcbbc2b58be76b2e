import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { staleVersionOf } from '../api/save-draft';
import { type AutosaveOptions, useAutosave } from './useAutosave';

type Patch = { history?: string; plan?: string };
type Result = { version: number };

function setup(over: Partial<AutosaveOptions<Patch, Result>> = {}) {
  let version = 3;
  const save = vi.fn(async (_patch: Patch, from: number) => {
    if (from !== version) throw new ApiError(409, { detail: 'stale', code: 'stale_version', version });
    version += 1;
    return { version };
  });
  const onConflict = vi.fn();
  const hook = renderHook(() =>
    useAutosave<Patch, Result>({
      version: 3,
      enabled: true,
      save,
      staleVersionOf,
      onConflict,
      ...over,
    }),
  );
  return {
    hook,
    save,
    onConflict,
    bumpServer: () => {
      version += 1;
    },
  };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

describe('useAutosave', () => {
  it('saves 1.5 s after the last change, the changes merged, with the current version', async () => {
    const { hook, save } = setup();
    act(() => hook.result.current.change({ history: 'Fiè' }));
    await advance(1000);
    act(() => hook.result.current.change({ history: 'Fièvre', plan: 'Repos' }));
    expect(hook.result.current.status).toBe('pending');
    await advance(1400);
    expect(save).not.toHaveBeenCalled();
    await advance(200);
    expect(save).toHaveBeenCalledTimes(1);
    expect(save).toHaveBeenCalledWith({ history: 'Fièvre', plan: 'Repos' }, 3);
    expect(hook.result.current.status).toBe('saved');
    expect(hook.result.current.savedAt).toBeInstanceOf(Date);
    // The next save starts from the version the server returned.
    act(() => hook.result.current.change({ plan: 'Repos strict' }));
    await advance(1500);
    expect(save).toHaveBeenLastCalledWith({ plan: 'Repos strict' }, 4);
  });

  it('stops on a stale version and hands back the unsaved changes; reset starts again from the reloaded version', async () => {
    const { hook, save, onConflict, bumpServer } = setup();
    bumpServer(); // another device saved: the server is at 4
    act(() => hook.result.current.change({ history: 'Mon texte' }));
    await advance(1500);
    expect(hook.result.current.status).toBe('conflict');
    expect(onConflict).toHaveBeenCalledWith({ history: 'Mon texte' }, 4);
    // Nothing more is sent until the record is reloaded.
    act(() => hook.result.current.change({ plan: 'x' }));
    await advance(3000);
    expect(save).toHaveBeenCalledTimes(1);
    act(() => hook.result.current.reset(4));
    act(() => hook.result.current.change({ history: 'Mon texte' }));
    await advance(1500);
    expect(save).toHaveBeenLastCalledWith({ history: 'Mon texte' }, 4);
    expect(hook.result.current.status).toBe('saved');
  });

  it('keeps invalid changes unsent, and failed ones for the next attempt', async () => {
    const failing = vi.fn().mockRejectedValueOnce(new ApiError(0, null, 'Network error'));
    failing.mockResolvedValue({ version: 4 });
    const { hook } = setup({ save: failing, isValid: (p) => p.plan !== 'bad' });
    act(() => hook.result.current.change({ plan: 'bad' }));
    await advance(1500);
    expect(hook.result.current.status).toBe('invalid');
    expect(failing).not.toHaveBeenCalled();
    act(() => hook.result.current.change({ plan: 'good', history: 'h' }));
    await advance(1500);
    expect(hook.result.current.status).toBe('error');
    expect(hook.result.current.dirty()).toBe(true);
    let flushed = false;
    await act(async () => {
      flushed = await hook.result.current.flush();
    });
    expect(flushed).toBe(true);
    expect(failing).toHaveBeenLastCalledWith({ plan: 'good', history: 'h' }, 3);
    expect(hook.result.current.status).toBe('saved');
  });

  it('flushes at once, and saves what is pending when the page is left', async () => {
    const { hook, save } = setup();
    act(() => hook.result.current.change({ plan: 'Avant de terminer' }));
    await act(async () => {
      await hook.result.current.flush();
    });
    expect(save).toHaveBeenCalledWith({ plan: 'Avant de terminer' }, 3);
    act(() => hook.result.current.change({ plan: 'En partant' }));
    hook.unmount();
    await advance(0);
    expect(save).toHaveBeenLastCalledWith({ plan: 'En partant' }, 4);
  });

  it('ignores changes while the record may not be edited', async () => {
    const { hook, save } = setup({ enabled: false });
    act(() => hook.result.current.change({ plan: 'x' }));
    await advance(2000);
    expect(save).not.toHaveBeenCalled();
    expect(hook.result.current.status).toBe('idle');
  });
});
