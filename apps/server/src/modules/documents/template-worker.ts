/**
 * The template renderer's worker thread (issue 36): validation and rendering of document models run here, off the
 * server's event loop, under liquidjs's own limits; the pool (`template-pool.ts`) stops the worker when a task
 * outlives the hard limit. A refusal comes back as data (a `TemplateError` does not cross threads as itself).
 */
import type { MessagePort } from 'node:worker_threads';
import { renderTemplate, TemplateError, type Variables, validateTemplate } from './templating.js';

export interface TemplateTask {
  op: 'validate' | 'render';
  body: string;
  variables: Variables;
  /** Told when the task starts: the pool's hard limit counts the render, not the queue nor a worker's start. */
  started: MessagePort;
}

export type TemplateOutcome =
  | { ok: true; text: string }
  | { ok: false; reason: TemplateError['reason']; line: number; column: number };

export default function run(task: TemplateTask): TemplateOutcome {
  task.started.postMessage('started');
  task.started.close();
  try {
    if (task.op === 'validate') {
      validateTemplate(task.body, task.variables);
      return { ok: true, text: '' };
    }
    return { ok: true, text: renderTemplate(task.body, task.variables) };
  } catch (err) {
    if (err instanceof TemplateError)
      return { ok: false, reason: err.reason, line: err.line, column: err.column };
    throw err;
  }
}
