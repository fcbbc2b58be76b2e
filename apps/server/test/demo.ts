import { afterAll, beforeAll } from 'vitest';
import { seedDemo } from '../src/db/seed/demo.js';
import { createTestApp, type TestContext } from './app.js';

/**
 * The demo seed's checks share one seeded database per engine (`src/db/seed/demo-seed.test.ts` imports every
 * `src/db/seed/*.checks.ts`): seeding the demo is the longest fixture of the suite, made once instead of once per
 * module. A live binding: the checks read it when they run, after the seed.
 */
export let demo: TestContext;

/** Seeds the demo in a fresh database before the file's tests, closes it after them. */
export function useSeededDemo(): void {
  beforeAll(async () => {
    demo = await createTestApp();
    await seedDemo(demo.database.db);
  }, 240_000);
  afterAll(() => demo?.close());
}
