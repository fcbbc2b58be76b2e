/**
 * The ward's records made offline (issue 40): vitals sets, doses given or not given, tasks done. Each is written
 * to the app's queue (lib/offline-queue.ts) on IndexedDB with its idempotency key and the moment it happened,
 * shown "en attente d'envoi", and sent once, in order, when the connection returns. A refusal (a dose recorded
 * by someone else meanwhile, a patient discharged, a task given to another nurse) stays in the queue, marked
 * refused with the server's reason, until the nurse discards it or sends it again.
 */

import { api, isApiError } from '../api-client';
import { invalidateCare } from '../clinical/api/care-keys';
import { translate } from '../i18n';
import { createOfflineQueue, type OfflineQueue } from '../offline-queue';
import { queryClient } from '../query-client';
import { notificationSocket } from '../socket';
import { toast } from '../toast';
import { offlineOwner } from './policy';
import type { QueuedRecord } from './store';

export type { QueuedRecord };

/** What `sendOrQueue` answers when the record was queued instead of sent. */
export interface Queued {
  queued: true;
  record?: QueuedRecord;
}
export function isQueued(answer: unknown): answer is Queued {
  return typeof answer === 'object' && answer !== null && (answer as { queued?: unknown }).queued === true;
}

/** The server's reason of a refusal: its `detail`, else its first field message. */
export function reasonOf(body: unknown, fallback: string): string {
  if (body && typeof body === 'object') {
    const detail = (body as { detail?: unknown }).detail;
    if (typeof detail === 'string') return detail;
    for (const value of Object.values(body)) {
      if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
    }
  }
  return fallback;
}

const isOnline = () => typeof navigator === 'undefined' || navigator.onLine !== false;

function create(): OfflineQueue<QueuedRecord> {
  const queue = createOfflineQueue<QueuedRecord>({
    storage: {
      async load() {
        const owner = offlineOwner();
        if (!owner || typeof indexedDB === 'undefined') return [];
        const { offlineDb } = await import('./store');
        return (await (await offlineDb()).getAll('queue')).filter((r) => r.owner === owner);
      },
      async save(items) {
        if (typeof indexedDB === 'undefined') return;
        const { offlineDb } = await import('./store');
        const db = await offlineDb();
        const tx = db.transaction('queue', 'readwrite');
        await tx.store.clear();
        for (const item of items) await tx.store.put(item);
        await tx.done;
      },
    },
    idOf: (r) => r.key,
    isHeld: (r) => r.status === 'refused',
    isOnline,
    send: (r) => api.post(r.path, r.body, { silent: true }),
    onSent: () => void invalidateCare(queryClient),
    onRefused: (r, error) => ({ ...r, status: 'refused', reason: reasonOf(error.body, error.message) }),
  });
  if (typeof window !== 'undefined') window.addEventListener('online', () => void queue.flush());
  notificationSocket.onOpen(() => void queue.flush());
  return queue;
}

let shared: OfflineQueue<QueuedRecord> | null = null;
/** The ward's queue of the signed-in nurse (loaded from the device on first use). */
export function clinicalQueue(): OfflineQueue<QueuedRecord> {
  shared ??= create();
  return shared;
}

/**
 * Deletes the ward's copy and the queued records from the device and from memory: sign-out (hence a PIN lock
 * ending in sign-out) and a change of hospital (decision 0064).
 */
export async function clearOfflineWard(): Promise<void> {
  shared?.clear();
  const { clearOfflineData } = await import('./store');
  await clearOfflineData();
}

/**
 * Sends a record now when the link is up and nothing waits before it; otherwise — or when no answer comes — puts
 * it in the queue (it keeps its key and its real time) and answers `Queued`. A refusal is thrown as usual.
 */
export async function sendOrQueue<T>(
  record: Omit<QueuedRecord, 'owner' | 'status' | 'seq'> & {
    /** The body's field of the clinical time, set to `at` when queued (sent now, the server's clock says). */
    timeField?: string;
  },
): Promise<T | Queued> {
  const queue = clinicalQueue();
  await queue.ready;
  const owner = offlineOwner() ?? '';
  const { timeField, ...rest } = record;
  const queued = (): Queued => {
    const body = timeField ? { ...(rest.body as object), [timeField]: rest.at } : rest.body;
    const item: QueuedRecord = { ...rest, body, owner, status: 'pending' };
    queue.enqueue(item);
    toast({ kind: 'warning', title: translate('shell:offline.queuedToast'), description: item.label });
    return { queued: true, record: item };
  };
  const waiting = queue.items().some((r) => r.status === 'pending');
  if (!isOnline() || waiting) return queued();
  // A link that answers nothing (a weak signal, a cut the browser has not noticed) queues it after a while: if
  // the server did receive it, the key makes the later send answer the same record.
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), SEND_TIMEOUT_MS);
  try {
    return await api.post<T>(rest.path, rest.body, { signal: abort.signal });
  } catch (error) {
    if (abort.signal.aborted || (isApiError(error) && error.status === 0)) return queued();
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** How long a record waits for an answer before it is queued. */
export const SEND_TIMEOUT_MS = 10_000;

/** The nurse sends a refused record again (e.g. after checking), or discards it. */
export function retryRecord(key: string): void {
  const queue = clinicalQueue();
  const item = queue.items().find((r) => r.key === key);
  if (!item) return;
  queue.replace(key, { ...item, status: 'pending', reason: undefined });
  if (isOnline()) void queue.flush();
}
export function discardRecord(key: string): void {
  clinicalQueue().replace(key, null);
}
