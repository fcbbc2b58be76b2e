import { describe } from 'vitest';
import { useSeededDemo } from '../../../test/demo.js';

// The demo seed's checks, one module after another on one seeded database per engine (test/demo.ts). Those that
// write (a document upload, a check-in, invoices assembled, the scale seeds) come last, in this order.
useSeededDemo();
describe('consultations', async () => {
  await import('./consultations.checks.js');
});
describe('exams', async () => {
  await import('./exams.checks.js');
});
describe('care', async () => {
  await import('./care.checks.js');
});
describe('chat', async () => {
  await import('./chat.checks.js');
});
describe('notes', async () => {
  await import('./notes.checks.js');
});
describe('stats', async () => {
  await import('./stats.checks.js');
});
describe('pharmacy', async () => {
  await import('./pharmacy.checks.js');
});
describe('documents', async () => {
  await import('./documents.checks.js');
});
describe('appointments', async () => {
  await import('./appointments.checks.js');
});
describe('billing', async () => {
  await import('./billing.checks.js');
});
describe('journey', async () => {
  await import('./journey.checks.js');
});
