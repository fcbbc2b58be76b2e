// `npm start`: install if needed, build if sources changed, migrate (and seed an empty embedded database),
// then serve the app and API on http://localhost:$PORT (3000). `npm start -- --no-demo` (or DEMO=off): an empty
// database gets no demo; the server prints the one-time setup link of a real installation instead.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ensureBuilt, ensureInstalled, ROOT } from './lib.mjs';

ensureInstalled();
ensureBuilt();

const child = spawn(process.execPath, [join(ROOT, 'apps/server/dist/main.js')], {
  cwd: ROOT,
  stdio: 'inherit',
  env: {
    WEB_DIST: join(ROOT, 'apps/web/dist'),
    DATA_DIR: join(ROOT, 'data'),
    ...process.env,
    ...(process.argv.includes('--no-demo') ? { DEMO: 'off' } : {}),
  },
});
// Ctrl-C reaches the server directly (same process group); it shuts down cleanly and we exit with it.
process.on('SIGINT', () => {});
process.on('SIGTERM', () => child.kill('SIGTERM'));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
