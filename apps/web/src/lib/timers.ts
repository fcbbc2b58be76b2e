/**
 * Registry of the app's periodic timers (dashboard refreshes, polling, the inactivity lock…).
 * Logout stops every one of them (specification §4 Session).
 */

type Entry = { kind: 'interval' | 'timeout'; handle: ReturnType<typeof setInterval> };

const timers = new Map<string, Entry>();

/** Starts (or restarts) a named interval. Returns a function that stops it. */
export function registerInterval(name: string, callback: () => void, ms: number): () => void {
  clearTimer(name);
  const handle = setInterval(callback, ms);
  timers.set(name, { kind: 'interval', handle });
  return () => {
    if (timers.get(name)?.handle === handle) clearTimer(name);
  };
}

/** Starts (or restarts) a named one-shot timer; it leaves the registry once it fired. */
export function registerTimeout(name: string, callback: () => void, ms: number): () => void {
  clearTimer(name);
  const handle = setTimeout(() => {
    if (timers.get(name)?.handle === handle) timers.delete(name);
    callback();
  }, ms);
  timers.set(name, { kind: 'timeout', handle });
  return () => {
    if (timers.get(name)?.handle === handle) clearTimer(name);
  };
}

export function clearTimer(name: string): void {
  const entry = timers.get(name);
  if (!entry) return;
  if (entry.kind === 'interval') clearInterval(entry.handle);
  else clearTimeout(entry.handle);
  timers.delete(name);
}

/** Stops the timers whose name starts with the prefix (e.g. 'dashboard:'). */
export function clearTimersWithPrefix(prefix: string): void {
  for (const name of [...timers.keys()]) if (name.startsWith(prefix)) clearTimer(name);
}

export function clearAllTimers(): void {
  for (const name of [...timers.keys()]) clearTimer(name);
}

export function activeTimerNames(): string[] {
  return [...timers.keys()];
}
