// `npm run dev`: TypeScript in watch mode for the server, the server restarted on change, and Vite's dev server
// (http://localhost:5173, proxying /api and /ws to the server on :3000).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { bin, ensureBuilt, ensureInstalled, ROOT } from './lib.mjs';

ensureInstalled();
ensureBuilt({ web: false });
const children = [
  spawn(bin('tsc'), ['-b', '-w', '--preserveWatchOutput', 'packages/shared', 'apps/server'], {
    cwd: ROOT,
    stdio: 'inherit',
  }),
  spawn(process.execPath, ['--watch', join(ROOT, 'apps/server/dist/main.js')], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { DATA_DIR: join(ROOT, 'data'), ...process.env },
  }),
  spawn(bin('vite'), [], { cwd: join(ROOT, 'apps/web'), stdio: 'inherit' }),
];
const stop = () => {
  for (const c of children) c.kill('SIGTERM');
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
