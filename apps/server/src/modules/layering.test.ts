import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const modules = new URL('.', import.meta.url).pathname;
const services = readdirSync(modules, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .flatMap((d) =>
    readdirSync(join(modules, d.name))
      .filter((f) => f.endsWith('.service.ts'))
      .map((f) => join(d.name, f)),
  );

describe('services take a ServiceContext, never the HTTP request (issue 14)', () => {
  it('finds the services', () => {
    expect(services.length).toBeGreaterThanOrEqual(8);
  });

  it.each(services)('%s neither imports FastifyRequest nor reads a request', (file) => {
    const source = readFileSync(join(modules, file), 'utf8');
    expect(source).not.toMatch(/\bFastify(Request|Reply)\b/);
    expect(source).not.toMatch(/\brequest\.(user|hospital|headers|ip|sessionId|id|log)\b/);
  });
});

/** Every TypeScript source of the modules (tests aside), relative to this folder. */
const sources = readdirSync(modules, { withFileTypes: true, recursive: true })
  .filter((d) => d.isFile() && d.name.endsWith('.ts') && !d.name.endsWith('.test.ts'))
  .map((d) => join(d.parentPath, d.name).slice(modules.length));

describe('LIKE patterns come from lib/queries.ts (issue 36)', () => {
  it.each(sources)('%s escapes no LIKE wildcard itself', (file) => {
    const source = readFileSync(join(modules, file), 'utf8');
    // `containsPattern`/`prefixPattern`/`likeEscape` are the one place that escapes `%`, `_` and `\`.
    // A character class holding `%`, `_` and a backslash, as every inline copy wrote it.
    expect(source).not.toMatch(/\.replace\(\/\[(?=[^\]]*%)(?=[^\]]*_)(?=[^\]]*\\\\)[^\]]*\]\/g/);
  });
});
