import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, TEST_DB_KIND } from '../../test/database.js';
import { type Database, openDatabase } from './client.js';

/**
 * The embedded engine's prepared statements (db/client.ts, decision 0050): a repeated statement is prepared once
 * and then only bound and executed. What the modules rely on: the same answers and the same errors as an unnamed
 * statement, in and out of transactions. On embedded databases of their own, whatever the suite's engine.
 */
describe('embedded engine: repeated statements prepared', () => {
  // One database for the default setting, each test with a table of its own; the settings' tests open their own.
  const opened: Database[] = [];
  let shared: Database;
  let tables = 0;
  beforeAll(async () => {
    shared = await openDatabase({});
    opened.push(shared);
  });
  afterAll(() => Promise.all(opened.map((d) => d.close())));

  /** A new table (`things_<n>`) on the shared database, or on a new one with that setting. */
  async function open(
    preparedStatements?: number,
  ): Promise<{ db: Database['db']; things: ReturnType<typeof sql.identifier>; name: string }> {
    let database = shared;
    if (preparedStatements !== undefined) {
      database = await openDatabase({ preparedStatements });
      opened.push(database);
    }
    const name = `things_${++tables}`;
    const things = sql.identifier(name);
    await database.db.execute(sql`create table ${things} (id int primary key, label text not null,
      at timestamptz, day date, tags text[], doc json, amount numeric)`);
    return { db: database.db, things, name };
  }

  /** The statements prepared on `name`'s database that read or write it. */
  const prepared = async (db: Database['db'], name: string) =>
    (
      await db.execute<{ statement: string; generic_plans: number }>(
        sql`select statement, generic_plans from pg_prepared_statements where strpos(statement, ${name}) > 0`,
      )
    ).rows.filter((r) => !r.statement.includes('pg_prepared_statements'));

  it('gives the same rows from the second run on, with generic plans after five, as the first, unprepared run', async () => {
    const { db, things, name } = await open();
    await db.execute(sql`insert into ${things} values (1, 'Éloïse', '2026-11-23 10:00:00+00', '2026-11-23',
      array['a', 'b'], '{"n": 1}', 12.50), (2, 'Paul', null, null, null, null, null)`);
    const read = (id: number) =>
      db.execute(
        sql`select id, label, at, day, tags, doc, amount, now() > at as past from ${things} where id = ${id}`,
      );
    const first = await read(1);
    expect(await prepared(db, name)).toHaveLength(0);
    const runs = [];
    for (let i = 0; i < 8; i++) runs.push(await read(1));
    for (const run of runs) expect(run.rows).toEqual(first.rows);
    expect(first.rows[0]).toMatchObject({
      id: 1,
      label: 'Éloïse',
      day: '2026-11-23',
      tags: ['a', 'b'],
      doc: { n: 1 },
    });
    expect(new Date(String(first.rows[0]!.at)).toISOString()).toBe('2026-11-23T10:00:00.000Z');
    // Another parameter value through the same statement; nulls both ways; no row.
    expect((await read(2)).rows[0]).toMatchObject({ id: 2, label: 'Paul', at: null, tags: null, doc: null });
    expect((await read(3)).rows).toEqual([]);
    const statements = await prepared(db, name);
    expect(statements.map((s) => s.statement)).toEqual([expect.stringContaining(`where id = $1`)]);
    expect(Number(statements[0]!.generic_plans)).toBeGreaterThan(0);
  });

  it('maps columns by position for the query builder (array rows) as well', async () => {
    const { db, name } = await open();
    await db.execute(sql`insert into ${sql.identifier(name)} (id, label) values (1, 'one'), (2, 'two')`);
    const client = (db as unknown as { $client: { query: Query } }).$client;
    const text = `select label, id from ${name} where id >= $1 order by id`;
    for (let i = 0; i < 3; i++)
      expect((await client.query(text, [1], { rowMode: 'array' })).rows).toEqual([
        ['one', 1],
        ['two', 2],
      ]);
    expect(await prepared(db, name)).toHaveLength(1);
  });

  it('raises the database error of a prepared statement with its code, and the database goes on', async () => {
    const { db, things } = await open();
    const insert = (id: number) => db.execute(sql`insert into ${things} (id, label) values (${id}, 'x')`);
    await insert(1);
    await insert(2);
    await expect(insert(1)).rejects.toMatchObject({ cause: { code: '23505' } });
    await insert(3);
    expect((await db.execute(sql`select count(*)::int as n from ${things}`)).rows[0]).toEqual({ n: 3 });
  });

  it('runs prepared statements inside transactions: a failure rolls the whole transaction back', async () => {
    const { db, things } = await open();
    const insert = (q: Pick<Database['db'], 'execute'>, id: number) =>
      q.execute(sql`insert into ${things} (id, label) values (${id}, 'in a transaction')`);
    await db.transaction(async (tx) => {
      await insert(tx, 1);
      await insert(tx, 2);
    });
    await expect(
      db.transaction(async (tx) => {
        await insert(tx, 3);
        await insert(tx, 1);
      }),
    ).rejects.toMatchObject({ cause: { code: '23505' } });
    const ids = await db.execute<{ id: number }>(sql`select id from ${things} order by id`);
    expect(ids.rows.map((r) => r.id)).toEqual([1, 2]);
  });

  it('answers again after the table changed under a prepared statement', async () => {
    const { db, things } = await open();
    await db.execute(sql`insert into ${things} (id, label) values (1, 'one')`);
    const read = () => db.execute(sql`select * from ${things} where id = ${1}`);
    await read();
    await read();
    await db.execute(sql`alter table ${things} add column extra text default 'new'`);
    expect((await read()).rows[0]).toMatchObject({ id: 1, label: 'one', extra: 'new' });
    expect((await read()).rows[0]).toMatchObject({ extra: 'new' });
  });

  it('keeps at most the configured number prepared, closing the least recently used', async () => {
    const { db, things, name } = await open(2);
    await db.execute(sql`insert into ${things} (id, label) values (1, 'one')`);
    const reads = [
      () => db.execute(sql`select label from ${things} where id = ${1}`),
      () => db.execute(sql`select id from ${things} where label = ${'one'}`),
      () => db.execute(sql`select count(*)::int as n from ${things} where id > ${0}`),
    ];
    for (let round = 0; round < 3; round++)
      for (const read of reads) expect((await read()).rows).toHaveLength(1);
    expect(await prepared(db, name)).toHaveLength(2);
  });

  it('prepares nothing with preparedStatements = 0', async () => {
    const { db, things, name } = await open(0);
    for (let i = 0; i < 3; i++) await db.execute(sql`select count(*) from ${things} where id > ${i}`);
    expect(await prepared(db, name)).toHaveLength(0);
  });
});

describe(`repeated statements prepared on the suite's engine (${TEST_DB_KIND})`, () => {
  it('parses a statement once it repeats, then runs it by name on that connection, with the same answers', async () => {
    const database = await createTestDatabase();
    try {
      // One transaction: one connection on PostgreSQL, whose prepared statements pg_prepared_statements lists.
      const { answers, statements } = await database.db.transaction(async (tx) => {
        const answers = [];
        for (let i = 0; i < 3; i++)
          answers.push(
            (await tx.execute(sql`select count(*)::int as n from hospitals where code <> ${`none-${i}`}`))
              .rows,
          );
        const statements = await tx.execute<{ statement: string }>(
          sql`select statement from pg_prepared_statements where statement like '%from hospitals where code <>%'
            and statement not like '%pg_prepared_statements%'`,
        );
        return { answers, statements: statements.rows };
      });
      expect(answers[1]).toEqual(answers[0]);
      expect(answers[2]).toEqual(answers[0]);
      expect(statements.map((r) => r.statement)).toEqual([expect.stringContaining('where code <> $1')]);
    } finally {
      await database.destroy();
    }
  });
});

type Query = (text: string, params: unknown[], options: object) => Promise<{ rows: unknown[] }>;
