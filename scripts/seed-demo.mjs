// `npm run seed:demo`: migrate, then seed the demo on an empty database (never in production).
import { join } from 'node:path';
import { ensureBuilt, ensureInstalled, mustRun, ROOT } from './lib.mjs';

ensureInstalled();
ensureBuilt({ web: false });
mustRun(process.execPath, [join(ROOT, 'apps/server/dist/cli.js'), 'seed-demo'], {
  env: { DATA_DIR: process.env.DATA_DIR ?? join(ROOT, 'data') },
});
