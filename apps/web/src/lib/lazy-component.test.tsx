import { act, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { type ComponentLoader, lazyComponent, loadedComponent, preloadComponent } from './lazy-component';

function Hello({ name }: { name: string }) {
  return <p>Bonjour {name}</p>;
}

/** A loader of `Hello` whose promise settles when the test says. */
function deferredLoader() {
  let settle: (ok: boolean) => void = () => {};
  const load = vi.fn<ComponentLoader<{ name: string }>>(
    () =>
      new Promise((resolve, reject) => {
        settle = (ok) => (ok ? resolve({ default: Hello }) : reject(new Error('chunk failed')));
      }),
  );
  return { load, settle: (ok: boolean) => settle(ok) };
}

describe('lazyComponent (issue 38)', () => {
  it('renders at once, without its fallback, once the module was preloaded', async () => {
    const load = vi.fn<ComponentLoader<{ name: string }>>(async () => ({ default: Hello }));
    const Lazy = lazyComponent(load);
    await preloadComponent(load);
    render(
      <Suspense fallback={<p>Chargement</p>}>
        <Lazy name="Awa" />
      </Suspense>,
    );
    // In the same render: no loader shown, hence nothing for React to hold back.
    expect(screen.getByText('Bonjour Awa')).toBeInTheDocument();
    expect(screen.queryByText('Chargement')).not.toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('suspends to its fallback while the module is not in, then renders it (one import)', async () => {
    const { load, settle } = deferredLoader();
    const Lazy = lazyComponent(load);
    render(
      <Suspense fallback={<p>Chargement</p>}>
        <Lazy name="Awa" />
      </Suspense>,
    );
    expect(screen.getByText('Chargement')).toBeInTheDocument();
    // The page's prefetch asks for the same loader meanwhile: the import started by the render is shared.
    const preloaded = preloadComponent(load);
    await act(async () => {
      settle(true);
      await preloaded;
    });
    expect(await screen.findByText('Bonjour Awa')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
    expect(loadedComponent(load)).toBe(Hello);
  });

  it('asks for a failed chunk again the next time (a deployment in between, a dropped link)', async () => {
    const { load, settle } = deferredLoader();
    const first = preloadComponent(load);
    settle(false);
    await expect(first).rejects.toThrow('chunk failed');
    expect(loadedComponent(load)).toBeUndefined();
    const second = preloadComponent(load);
    settle(true);
    await expect(second).resolves.toEqual({ default: Hello });
    expect(load).toHaveBeenCalledTimes(2);
  });
});
