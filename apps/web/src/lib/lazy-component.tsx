/**
 * `React.lazy` for a component whose chunk may already be in when it first renders (asked by path as the app starts,
 * app/page-prefetch.ts, or by the idle preloader): then it renders at once instead of suspending (issue 38).
 *
 * Why: `React.lazy` suspends on its first render even when the module is loaded (its promise settles a microtask
 * later), and React 19 holds the reveal of a suspended boundary until 300 ms after the last fallback it showed (its
 * "fallback throttle"). The pharmacist's home, whose chunk had arrived with its data, showed its loader and then
 * waited ~220 ms to show the rows it already had.
 *
 * The state is kept by loader: `preloadComponent(load)` and `lazyComponent(load)` given the same function share one
 * import, so the loaders are module-level constants (as app/page-loaders.ts's).
 */
import { type ComponentType, lazy, useState } from 'react';

export type ComponentLoader<P extends object = Record<string, never>> = () => Promise<{
  default: ComponentType<P>;
}>;

// biome-ignore lint/suspicious/noExplicitAny: the maps hold loaders of components with any props.
type AnyLoader = ComponentLoader<any>;
const loaded = new WeakMap<AnyLoader, ComponentType<never>>();
const pending = new WeakMap<AnyLoader, Promise<unknown>>();

/** Starts (once) the import of `load`'s module; once it settles, `lazyComponent(load)` renders without suspending. */
export function preloadComponent<P extends object>(
  load: ComponentLoader<P>,
): Promise<{ default: ComponentType<P> }> {
  let promise = pending.get(load) as Promise<{ default: ComponentType<P> }> | undefined;
  if (!promise) {
    promise = load().then(
      (module) => {
        loaded.set(load, module.default as ComponentType<never>);
        return module;
      },
      (error: unknown) => {
        // A failed chunk (a deployment in between, a dropped link) is asked again next time.
        pending.delete(load);
        throw error;
      },
    );
    pending.set(load, promise);
  }
  return promise;
}

/** The module's component if it is already loaded, else undefined. */
export function loadedComponent<P extends object>(load: ComponentLoader<P>): ComponentType<P> | undefined {
  return loaded.get(load) as ComponentType<P> | undefined;
}

/**
 * A component that renders `load`'s default export: at once if the module is loaded when it mounts, else through
 * `React.lazy` (it suspends to the nearest `Suspense`). The choice is made once per mount, so that a module arriving
 * later never remounts what the lazy one rendered.
 */
export function lazyComponent<P extends object>(load: ComponentLoader<P>): ComponentType<P> {
  const Lazy = lazy(() => preloadComponent(load)) as unknown as ComponentType<P>;
  // biome-ignore lint/correctness/noComponentHookFactories: made once per chunk at module level, as React.lazy's.
  function LazyComponent(props: P) {
    const [Ready] = useState(() => loadedComponent(load) ?? Lazy);
    return <Ready {...props} />;
  }
  return LazyComponent;
}
