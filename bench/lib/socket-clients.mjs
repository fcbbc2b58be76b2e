// The bench's side of the notification sockets (scenarios 10 and 16), spread over worker threads so that the
// receiving side is not one event loop reading 2,000 sockets in turn: each worker opens its share of the sockets
// and notes, on its own thread, when each awaited frame arrived. Every time (the write's start in the main thread,
// each receipt in a worker) is read from the same monotonic clock of the process (`process.hrtime`), so the
// delays are comparable across threads.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

/** Milliseconds on the process's monotonic clock: the same origin in every thread of the process. */
export const clock = () => Number(process.hrtime.bigint() / 1000n) / 1000;

if (!isMainThread && workerData?.role === 'socket-clients') runWorker();

/**
 * The worker: `open` (its share of the sockets), `arm` (a marker awaited on some of them; answered `armed` at
 * once, then `receipts` once every armed socket got a frame containing it, or after `timeoutMs`), `close`.
 */
function runWorker() {
  const { WebSocket } = createRequire(join(workerData.root, 'apps/server/package.json'))('ws');
  /** Socket key → {ws, awaited: the armed marker or null}. */
  const sockets = new Map();
  /** The current wait: {id, marker, times: Map key → ms, left, timer}. */
  let wait = null;

  const finish = () => {
    if (!wait) return;
    clearTimeout(wait.timer);
    parentPort.postMessage({ type: 'receipts', id: wait.id, times: [...wait.times] });
    for (const s of sockets.values()) s.awaited = null;
    wait = null;
  };

  parentPort.on('message', async (msg) => {
    if (msg.type === 'open') {
      try {
        await Promise.all(
          msg.sockets.map(
            ({ key, url }) =>
              new Promise((resolve, reject) => {
                // As little work per message as possible: no compression, no UTF-8 check.
                const ws = new WebSocket(url, { perMessageDeflate: false, skipUTF8Validation: true });
                const socket = { ws, awaited: null };
                ws.on('message', (data) => {
                  // The time first: whatever follows is the bench's own work.
                  const at = clock();
                  if (socket.awaited === null || !wait || !data.includes(socket.awaited)) return;
                  socket.awaited = null;
                  wait.times.set(key, at);
                  wait.left -= 1;
                  if (wait.left === 0) finish();
                });
                ws.once('open', () => {
                  sockets.set(key, socket);
                  resolve();
                });
                ws.once('error', reject);
                // A socket that fails later is counted as missing its receipts, not as a crash of the worker.
                ws.on('error', () => {});
              }),
          ),
        );
        parentPort.postMessage({ type: 'opened', id: msg.id });
      } catch (err) {
        parentPort.postMessage({ type: 'opened', id: msg.id, error: String(err?.message ?? err) });
      }
    } else if (msg.type === 'arm') {
      const marker = Buffer.from(msg.marker);
      const keys = msg.keys.filter((k) => sockets.has(k));
      wait = { id: msg.id, times: new Map(), left: keys.length, timer: null };
      for (const k of keys) sockets.get(k).awaited = marker;
      parentPort.postMessage({ type: 'armed', id: msg.id });
      if (keys.length === 0) finish();
      else wait.timer = setTimeout(finish, msg.timeoutMs);
    } else if (msg.type === 'close') {
      await Promise.all(
        [...sockets.values()].map(
          ({ ws }) =>
            new Promise((resolve) => {
              if (ws.readyState === ws.CLOSED) return resolve();
              ws.once('close', resolve);
              ws.close();
            }),
        ),
      );
      sockets.clear();
      parentPort.postMessage({ type: 'closed', id: msg.id });
    }
  });
}

/**
 * A pool of `count` worker threads holding the bench's client sockets. `open(urls)` gives socket i (its URL
 * already carrying its ticket) to worker i mod count; `expect(indexes, marker)` arms the marker on those
 * sockets and resolves, once every worker is armed, to `{done}`: a promise of each socket's receipt time
 * (`clock()` ms, undefined when missed within `timeoutMs`) in the order of `indexes`.
 */
export async function socketClients({ root, count, timeoutMs = 10_000 }) {
  const workers = Array.from(
    { length: count },
    () => new Worker(new URL(import.meta.url), { workerData: { role: 'socket-clients', root } }),
  );
  let next = 0;
  /** `type:id` of an awaited answer → its resolver. */
  const pending = new Map();
  let failure = null;
  const answer = (type, id) =>
    new Promise((resolve, reject) => {
      if (failure) reject(failure);
      else pending.set(`${type}:${id}`, { resolve, reject });
    });
  /** A worker that fails or stops fails every awaited answer (the bench stops with the reason). */
  const fail = (err) => {
    failure ??= err;
    for (const p of pending.values()) p.reject(failure);
    pending.clear();
  };
  /** Sockets opened so far. */
  let size = 0;
  let stopping = false;
  for (const w of workers) {
    w.on('message', (msg) => {
      const key = `${msg.type}:${msg.id}`;
      pending.get(key)?.resolve(msg);
      pending.delete(key);
    });
    w.on('error', fail);
    w.on('exit', (code) => {
      if (!stopping) fail(new Error(`a bench socket thread stopped (exit code ${code})`));
    });
  }
  /** Sends one message to each worker (`make(i)`) and resolves to their answers of type `type`. */
  const each = (type, make) => {
    next += 1;
    const id = next;
    return Promise.all(
      workers.map((w, i) => {
        const answered = answer(type, `${id}.${i}`);
        w.postMessage({ ...make(i), id: `${id}.${i}` });
        return answered;
      }),
    );
  };
  return {
    /** Opens more sockets, numbered on from the last ones: socket k goes to worker k mod count. */
    async open(urls) {
      const shares = workers.map(() => []);
      for (const [i, url] of urls.entries()) shares[(size + i) % count].push({ key: size + i, url });
      const answers = await each('opened', (i) => ({ type: 'open', sockets: shares[i] }));
      const failed = answers.find((a) => a.error);
      if (failed) throw new Error(`a bench socket did not open: ${failed.error}`);
      size += urls.length;
    },
    async expect(indexes, marker) {
      next += 1;
      const id = next;
      const armed = [];
      const done = [];
      for (const [i, w] of workers.entries()) {
        const wid = `${id}.${i}`;
        armed.push(answer('armed', wid));
        done.push(answer('receipts', wid).then((msg) => new Map(msg.times)));
        const keys = indexes.filter((k) => k % count === i);
        w.postMessage({ type: 'arm', id: wid, marker: String(marker), keys, timeoutMs });
      }
      await Promise.all(armed);
      return { done: Promise.all(done).then((maps) => indexes.map((k) => maps[k % count].get(k))) };
    },
    async close() {
      await each('closed', () => ({ type: 'close' }));
      size = 0;
    },
    async terminate() {
      stopping = true;
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}
