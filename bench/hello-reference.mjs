// The reference of scenario 1's goal (issue 16, decision 0048): a Fastify hello-world that sends the very same
// security headers as Greensen's API answers and writes the very same request log line, both taken from the
// server's own code (the built apps/server/dist): the helmet options and the security-headers plugin, the
// logger options (level, redaction, serializers, request ids, the one-line `RequestLog`) and the `X-Request-Id`
// header. Its log goes to standard output, as `npm start`'s does (the bench gives both the same destination).
// `GET /api/hello/` answers a small JSON body: under /api/, so it gets the API's JSON headers as
// `GET /api/profile/` does. Started and stopped by bench/run.mjs.
import Fastify from 'fastify';
import { loadConfig } from '../apps/server/dist/config.js';
import { addRequestIdHeader, requestLogOptions } from '../apps/server/dist/plugins/request-log.js';
import securityHeaders, { appHelmetOptions } from '../apps/server/dist/plugins/security-headers.js';

const config = loadConfig();
const app = Fastify({ ...requestLogOptions(config.logLevel), trustProxy: config.trustProxy });
addRequestIdHeader(app);
await app.register(securityHeaders, appHelmetOptions(config.publicUrl));
app.get('/api/hello/', async () => ({ hello: 'world' }));
await app.listen({ port: config.port, host: config.host });
process.send?.({ type: 'listening', port: app.server.address().port });
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => void app.close().then(() => process.exit(0)));
