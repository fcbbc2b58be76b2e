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

/**
 * A query run with Drizzle's query builder on a database handle (`db`, `this.app.db`, `tx`, `trx`, `q`): a
 * select, insert, update, delete or a statement executed (`execute`), possibly over several lines, or a relational `db.query.<table>.findFirst`.
 */
const QUERY_BUILDER =
  /\b(?:db|tx|trx|q)\s*\.\s*(?:select|selectDistinct|selectDistinctOn|insert|update|delete|execute)\s*\(|\.query\s*\.\s*\w+\s*\.\s*find(?:First|Many)\s*\(/;

describe('queries live in repositories, text or query builder (issue 41)', () => {
  const layers = sources.filter((f) => f.endsWith('.routes.ts') || f.endsWith('.service.ts'));

  it('recognises a query on a database handle, and nothing else', () => {
    for (const query of [
      'await this.app.db.select().from(hospitalLogos)',
      'await tx\n        .insert(beds)\n        .values(rows)',
      'await tx.update(hospitals).set(values)',
      'await trx.delete(appSettings).where(cond)',
      'const [row] = await q\n    .select({ value: appSettings.value })',
      'await db.selectDistinct({ id: users.id }).from(users)',
      'await this.app.db.query.patients.findFirst({ where })',
      'await tx.query.users.findMany()',
      'await tx.execute(NAME_SEARCH_TOLERANCE)',
    ])
      expect(query).toMatch(QUERY_BUILDER);
    for (const other of [
      "createHash('sha256').update(token).digest('hex')",
      'this.pending.delete(tx)',
      'this.background.delete(job)',
      'await this.update(tx, order, { status })',
      'await this.patients.update(ctx, id, update, expectedVersion)',
      'taken.delete(label)',
      'await insertBeds(tx, hospital.id, roomId, labels, 1)',
    ])
      expect(other).not.toMatch(QUERY_BUILDER);
  });

  it('finds queries where they are', () => {
    expect(readFileSync(join(modules, 'structure/structure.repository.ts'), 'utf8')).toMatch(QUERY_BUILDER);
  });

  it.each(layers)('%s runs no query with the query builder', (file) => {
    expect(readFileSync(join(modules, file), 'utf8')).not.toMatch(QUERY_BUILDER);
  });
});
