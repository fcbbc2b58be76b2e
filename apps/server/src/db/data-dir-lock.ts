import { randomBytes } from 'node:crypto';
import { linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

/**
 * One writer per embedded data directory (issue 35): the server and every command-line task that opens
 * `DATA_DIR`'s database first takes `DATA_DIR/greensen.lock`, a small JSON file naming the process (pid, host,
 * start time, command). A second process refuses to start with a message naming the first; a lock left by a
 * process that no longer runs on this host (crash, `kill -9`) is taken over.
 */
export const LOCK_FILE = 'greensen.lock';

export interface LockOwner {
  pid: number;
  host: string;
  started_at: string;
  command: string;
}

export class DataDirLocked extends Error {
  constructor(
    readonly dataDir: string,
    readonly owner: LockOwner | null,
  ) {
    const who = owner
      ? `process ${owner.pid} on ${owner.host} (started ${owner.started_at}: ${owner.command})`
      : 'another process (its lock file cannot be read)';
    super(
      `The data directory ${dataDir} is in use by ${who}. One process at a time may use an embedded database: ` +
        `stop it first. If it is gone for good (another host's process, or a copied directory), remove ` +
        `${join(dataDir, LOCK_FILE)}.`,
    );
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as { code?: string }).code === 'EPERM';
  }
}

function readOwner(path: string): LockOwner | null {
  try {
    const owner = JSON.parse(readFileSync(path, 'utf8')) as LockOwner;
    return typeof owner.pid === 'number' && typeof owner.host === 'string' ? owner : null;
  } catch {
    return null;
  }
}

/** Takes the lock of `dataDir` (which exists) or throws `DataDirLocked`; returns its release. */
export function lockDataDir(dataDir: string): () => void {
  const path = join(dataDir, LOCK_FILE);
  const me: LockOwner = {
    pid: process.pid,
    host: hostname(),
    started_at: new Date().toISOString(),
    command: process.argv
      .slice(1)
      .map((a) => a.replace(/[\r\n]/g, ' '))
      .join(' ')
      .slice(0, 300),
  };
  // Written whole under another name, then linked into place: the link fails when a lock exists (atomically), and
  // a reader never sees half a lock.
  const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(me)}\n`, { mode: 0o644 });
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        linkSync(tmp, path);
        break;
      } catch (err) {
        if ((err as { code?: string }).code !== 'EEXIST') throw err;
        const owner = readOwner(path);
        const stale =
          owner !== null && owner.host === me.host && owner.pid !== process.pid && !alive(owner.pid);
        if (!stale || attempt > 0) throw new DataDirLocked(dataDir, owner);
        // Its process is gone: the lock is taken over (once; a second failure means another process won it).
        unlinkSync(path);
      }
    }
  } finally {
    unlinkSync(tmp);
  }
  let released = false;
  return () => {
    if (released) return;
    released = true;
    // Only our own lock is removed (never one another process took over meanwhile).
    if (readOwner(path)?.pid === me.pid && readOwner(path)?.started_at === me.started_at) unlinkSync(path);
  };
}
