// `npm start`: install if needed, build if sources changed, migrate (and seed an empty embedded database),
// then serve the app and API on http://localhost:$PORT (3000). `npm start -- --no-demo` (or DEMO=off): an empty
// database gets no demo; the server prints the one-time setup link of a real installation instead.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ensureBuilt, ensureInstalled, ROOT, superviseChild } from './lib.mjs';

ensureInstalled();
ensureBuilt();

const child = spawn(process.execPath, [join(ROOT, 'apps/server/dist/main.js')], {
  cwd: ROOT,
  stdio: 'inherit',
  env: {
    DATA_DIR: join(ROOT, 'data'),
    ...process.env,
    ...(process.argv.includes('--no-demo') ? { DEMO: 'off' } : {}),
  },
});
// SIGINT and SIGTERM go on to the server; we exit once it has stopped, with its exit code (a Ctrl-C in a terminal
// reaches both: the server's shutdown ignores the second signal).
superviseChild(child);
