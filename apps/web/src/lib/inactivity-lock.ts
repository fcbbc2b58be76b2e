/**
 * Session lock (issue 3): after 15 minutes without user activity (pointer, keys, touch, scroll, wheel —
 * never timers, polling or sockets) the session locks and the app goes to /pin-verify, remembering where
 * to return.
 */
import { useEffect } from 'react';
import { INACTIVITY_LOCK_MS, useLockStore } from '../stores/lock';
import { stripLanguagePrefix } from './language';
import { currentPathname, navigateTo } from './navigation';
import { clearTimer, registerTimeout } from './timers';

export const ACTIVITY_EVENTS = [
  'pointerdown',
  'pointermove',
  'keydown',
  'touchstart',
  'scroll',
  'wheel',
] as const;
export const INACTIVITY_TIMER = 'session:inactivity';

export function lockSession(): void {
  const search = typeof window === 'undefined' ? '' : window.location.search;
  useLockStore.getState().lock(`${stripLanguagePrefix(currentPathname())}${search}`);
  navigateTo('/pin-verify');
}

export function useInactivityLock(timeoutMs: number = INACTIVITY_LOCK_MS): void {
  useEffect(() => {
    let lastArmed = 0;
    const arm = () => {
      lastArmed = Date.now();
      registerTimeout(INACTIVITY_TIMER, lockSession, timeoutMs);
    };
    const onActivity = () => {
      if (Date.now() - lastArmed >= 1000) arm();
    };
    arm();
    for (const event of ACTIVITY_EVENTS) {
      window.addEventListener(event, onActivity, { passive: true, capture: true });
    }
    return () => {
      clearTimer(INACTIVITY_TIMER);
      for (const event of ACTIVITY_EVENTS) {
        window.removeEventListener(event, onActivity, { capture: true });
      }
    };
  }, [timeoutMs]);
}
