// The reference of scenario 1 (`npm run bench`): a bare Fastify hello-world on the same machine, same Node,
// same Fastify, answering a small JSON body. Started and stopped by bench/run.mjs.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
await app.listen({ port: Number(process.env.PORT ?? 0), host: process.env.HOST ?? '127.0.0.1' });
process.send?.({ type: 'listening', port: app.server.address().port });
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => void app.close().then(() => process.exit(0)));
