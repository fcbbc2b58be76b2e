/**
 * Document models are rendered in worker threads (issue 36): one render that reaches its limit used to hold the
 * event loop ~1 s, and a dozen parallel previews made every hospital wait. A small pool (piscina, decision 0060)
 * runs the renders; liquidjs's render limit applies inside the worker, and a task that outlives the hard limit
 * (counted from its start in a worker) is aborted — piscina then terminates the worker running it — and answers
 * the usual `limit_exceeded`.
 *
 * The worker is the compiled `template-worker.js` beside this file; when the server runs from its TypeScript
 * sources (the tests, `npm run dev`), the worker loads through tsx like the rest.
 */
import { availableParallelism } from 'node:os';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { TemplateOutcome, TemplateTask } from './template-worker.js';
import { RENDER_LIMIT_MS, TemplateError, type Variables } from './templating.js';

/** The hard limit of one task, from its start in a worker: beyond it the worker is stopped. */
export const HARD_LIMIT_MS = RENDER_LIMIT_MS * 2;

const fromSources = import.meta.url.endsWith('.ts');
let pool: Piscina | null = null;

function templatePool(): Piscina {
  pool ??= new Piscina({
    filename: new URL(fromSources ? './template-worker.ts' : './template-worker.js', import.meta.url).href,
    execArgv: fromSources ? ['--import', 'tsx'] : [],
    minThreads: 0,
    maxThreads: Math.max(1, Math.min(4, availableParallelism() - 1)),
    idleTimeout: 60_000,
  });
  return pool;
}

async function runTask(task: Omit<TemplateTask, 'started'>): Promise<string> {
  const { port1, port2 } = new MessageChannel();
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  // The clock starts when a worker takes the task (a cold worker loads its modules first).
  port1.once('message', () => {
    timer = setTimeout(() => abort.abort(), HARD_LIMIT_MS);
  });
  let outcome: TemplateOutcome;
  try {
    outcome = await templatePool().run(
      { ...task, started: port2 },
      { signal: abort.signal, transferList: [port2] },
    );
  } catch (err) {
    if (abort.signal.aborted) throw new TemplateError('limit_exceeded', 1, 1);
    throw err;
  } finally {
    clearTimeout(timer);
    port1.close();
  }
  if (!outcome.ok) throw new TemplateError(outcome.reason, outcome.line, outcome.column);
  return outcome.text;
}

/** `validateTemplate` in a worker: throws the same `TemplateError`. */
export async function validateInWorker(body: string, demo: Variables): Promise<void> {
  await runTask({ op: 'validate', body, variables: demo });
}

/** `renderTemplate` in a worker: the same text, or the same `TemplateError`. */
export function renderInWorker(body: string, variables: Variables): Promise<string> {
  return runTask({ op: 'render', body, variables });
}
