// Starts the built server for the end-to-end suite on a fresh embedded database (seeded with the demo).
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'greensen-e2e-'));
const child = spawn(process.execPath, [join(root, 'apps/server/dist/main.js')], {
  stdio: 'inherit',
  env: {
    ...process.env,
    PORT: process.env.E2E_PORT ?? '3100',
    DATA_DIR: dataDir,
    WEB_DIST: join(root, 'apps/web/dist'),
    APP_ENV: 'development',
    LOG_LEVEL: 'warn',
    JWT_SECRET: 'e2e-secret-0123456789abcdef0123456789abcdef',
  },
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => {
  if (code) console.error(`e2e server exited with code ${code}${signal ? ` (${signal})` : ''}`);
  process.exit(code ?? 0);
});
