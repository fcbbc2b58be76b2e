/**
 * The device's copy of the ward (issue 40, docs/decisions/0064-offline-wards.md): one IndexedDB database holding
 * the last answers of the ward's reads (`reads`, by URL) and the records waiting to be sent (`queue`, in order).
 * Everything is stamped with the user and hospital it belongs to; sign-out, the PIN lock's end and a change of
 * hospital delete it all (`clearOfflineData`). Loaded on demand: nothing of it weighs on the sign-in page.
 */
import { type DBSchema, type IDBPDatabase, openDB } from 'idb';

export interface KeptRead {
  url: string;
  owner: string;
  at: string;
  body: unknown;
}

export interface QueuedRecord {
  seq?: number;
  /** The client's idempotency key (also in the body): sent again, the server answers the first record. */
  key: string;
  owner: string;
  /** What it is, for the screen: `vitals`, `dose`, `task`, with a label (patient, medication, task). */
  kind: 'vitals' | 'dose' | 'task';
  label: string;
  path: string;
  body: unknown;
  /** When it really happened (also the clinical time in the body). */
  at: string;
  status: 'pending' | 'refused';
  /** The server's reason of a refusal, in the language of the request. */
  reason?: string;
}

interface OfflineDb extends DBSchema {
  reads: { key: string; value: KeptRead };
  queue: { key: number; value: QueuedRecord };
}

const NAME = 'greensen-offline';
let opened: Promise<IDBPDatabase<OfflineDb>> | null = null;

export function offlineDb(): Promise<IDBPDatabase<OfflineDb>> {
  opened ??= openDB<OfflineDb>(NAME, 1, {
    upgrade(db) {
      db.createObjectStore('reads', { keyPath: 'url' });
      db.createObjectStore('queue', { keyPath: 'seq', autoIncrement: true });
    },
  });
  return opened;
}

/** Deletes every local clinical copy and queued record (sign-out, lock expiry, change of hospital). */
export async function clearOfflineData(): Promise<void> {
  if (typeof indexedDB === 'undefined') return;
  const db = await offlineDb();
  const tx = db.transaction(['reads', 'queue'], 'readwrite');
  await Promise.all([tx.objectStore('reads').clear(), tx.objectStore('queue').clear(), tx.done]);
}
