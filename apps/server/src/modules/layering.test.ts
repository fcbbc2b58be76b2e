import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
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

/** The relative imports of a module source (type imports included), as paths relative to this folder. */
function importsOf(file: string): string[] {
  const source = readFileSync(join(modules, file), 'utf8');
  return [...source.matchAll(/^\s*(?:import|export)\b[^;]*?from\s+'(\.{1,2}\/[^']+)'/gms)].map(([, target]) =>
    join(dirname(file), target!.replace(/\.js$/, '.ts')),
  );
}

/** The import cycles among `files` (each as the list of its files, first repeated at the end). */
function importCycles(files: readonly string[]): string[][] {
  const set = new Set(files);
  const edges = new Map(files.map((f) => [f, importsOf(f).filter((t) => set.has(t))]));
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (f: string) => {
    state.set(f, 'open');
    path.push(f);
    for (const t of edges.get(f) ?? []) {
      if (state.get(t) === 'open') cycles.push([...path.slice(path.indexOf(t)), t]);
      else if (!state.has(t)) visit(t);
    }
    path.pop();
    state.set(f, 'done');
  };
  for (const f of files) if (!state.has(f)) visit(f);
  return cycles;
}

describe('services do not import each other in a cycle (issue 36)', () => {
  it('finds the imports between services', () => {
    expect(importsOf('care/mar.service.ts')).toContain('care/care.service.ts');
  });

  it('has no import cycle between services', () => {
    // care.service.ts and mar.service.ts imported each other; what both need is in care/mar.lines.ts.
    expect(importCycles(services)).toEqual([]);
  });
});

/** SQL text: a `sql` template, a raw fragment or an identifier. */
const SQL_TEXT = /\bsql(`|\.raw\(|\.identifier\()/;
const holdsSql = (file: string) => SQL_TEXT.test(readFileSync(join(modules, file), 'utf8'));

/** The files `docs/architecture.md` lists under « Files that hold SQL besides repositories ». */
function documentedSqlFiles(): string[] {
  const doc = readFileSync(join(modules, '../../../../docs/architecture.md'), 'utf8');
  const section = doc.split('## Files that hold SQL besides repositories')[1]?.split('\n## ')[0] ?? '';
  return [...section.matchAll(/^- `modules\/([^`]+)`/gm)].map(([, file]) => file!);
}

describe('SQL lives in repositories (issue 41)', () => {
  const layers = sources.filter((f) => f.endsWith('.routes.ts') || f.endsWith('.service.ts'));

  it('finds SQL where it is', () => {
    expect(holdsSql('patients/patients.repository.ts')).toBe(true);
    expect(layers.length).toBeGreaterThanOrEqual(services.length);
  });

  it.each(layers)('%s holds no SQL text', (file) => {
    expect(readFileSync(join(modules, file), 'utf8')).not.toMatch(SQL_TEXT);
  });

  it('holds SQL outside the repositories only in the files docs/architecture.md lists, each saying why', () => {
    const found = sources.filter((f) => !f.endsWith('.repository.ts') && holdsSql(f)).sort();
    expect(found).toEqual(documentedSqlFiles().sort());
    for (const file of found)
      expect(readFileSync(join(modules, file), 'utf8')).toMatch(/^\/\/ SQL outside a repository: \S/);
  });
});
