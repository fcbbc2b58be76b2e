// The floor under scenario 10 (issue 16, docs/performance.md §sockets): how long this machine takes to write one
// notification-sized message to each of 2,000 open WebSockets, with nothing else — no database, no HTTP, no JSON —
// and when the last client, on a worker thread as in the bench, has read it. Each round writes through `ws`'s
// `send` as the gateway does, then the same frame built once and written straight to each socket (the cheapest
// a server can do: one write per socket). `node bench/socket-floor.mjs [sockets] [rounds]`.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { Sender, WebSocketServer } from 'ws';

const require = createRequire(new URL('../apps/server/package.json', import.meta.url));
const N = Number(process.argv[2] ?? 2000);
const ROUNDS = Number(process.argv[3] ?? 10);
const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false });
await new Promise((resolve) => wss.on('listening', resolve));
const sockets = [];
wss.on('connection', (ws) => sockets.push(ws));
const clients = new Worker(
  `const { parentPort, workerData } = require('node:worker_threads');
  const { WebSocket } = require(workerData.ws);
  let received = 0;
  (async () => {
    for (let i = 0; i < workerData.n; i++) {
      const s = new WebSocket('ws://127.0.0.1:' + workerData.port, { perMessageDeflate: false, skipUTF8Validation: true });
      s.on('message', () => {
        received += 1;
        if (received % workerData.n === 0) parentPort.postMessage({ last: performance.timeOrigin + performance.now() });
      });
      await new Promise((resolve) => s.on('open', resolve));
    }
    parentPort.postMessage({ ready: true });
  })();`,
  { eval: true, workerData: { n: N, port: wss.address().port, ws: require.resolve('ws') } },
);
await new Promise((resolve) => clients.once('message', resolve));
const data = Buffer.from(
  JSON.stringify({
    action: 'new_notification',
    hospital: '01a2194e-0d0a-7619-ac92-3f750300151c',
    message: {
      id: '01a2194e-0d0a-7619-ac92-3f7503001520',
      notification_type: 'hospitalization',
      title: 'Patient en attente de lit',
      message: 'Aminata Diallo est hospitalisé(e) et attend un lit.',
      data: { action: 'hospitalization_pending', hospitalization: '01a2194e-0d0a-7619-ac92-3f7503001521' },
      is_read: false,
      created_at: new Date().toISOString(),
    },
  }),
);
const frame = Buffer.concat(
  Sender.frame(data, { fin: true, rsv1: false, opcode: 1, mask: false, readOnly: true }),
);
const now = () => performance.timeOrigin + performance.now();
const results = { send: { loop: [], last: [] }, frame: { loop: [], last: [] } };
for (let round = 0; round < ROUNDS; round += 1) {
  for (const mode of ['send', 'frame']) {
    const last = new Promise((resolve) => clients.once('message', (m) => resolve(m.last)));
    const start = now();
    if (mode === 'send') for (const ws of sockets) ws.send(data, { binary: false });
    else for (const ws of sockets) ws._socket.write(frame);
    const looped = now();
    const received = await last;
    results[mode].loop.push(looped - start);
    results[mode].last.push(received - start);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
const median = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)].toFixed(1);
for (const [mode, r] of Object.entries(results))
  console.log(
    `${N} sockets, ${mode === 'send' ? 'ws.send' : 'one frame written'}: the server's loop ${median(r.loop)} ms, ` +
      `the last client's receipt ${median(r.last)} ms (medians of ${ROUNDS})`,
  );
await clients.terminate();
wss.close();
process.exit(0);
