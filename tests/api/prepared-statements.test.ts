import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../src/server/db/kysely.js';
import { HOT_AFTER } from '../../src/server/db/prepared-statements.js';
import { createTestDatabase, postgresUrl, type TestDatabase } from '../helpers/databases.js';

// Hot selects go to PostgreSQL as named statements (db/prepared-statements.ts, db/kysely.ts). On
// one connection: they are prepared once, rows come back as before, and a statement PostgreSQL
// refuses to run prepared again (a table's columns changed under the running server) runs again
// unnamed, outside a transaction, with no error for the caller.
describe.skipIf(!postgresUrl)('prepared statements on PostgreSQL', () => {
  let database: TestDatabase;
  let open: Database;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    open = await openDatabase({ databaseUrl: database.env.DATABASE_URL, poolSize: 1 });
    await sql`create table things (id int primary key, name text, "__proto__" text)`.execute(open.db);
    await sql`insert into things values (1, 'one', 'p1'), (2, 'two', null)`.execute(open.db);
  });
  afterAll(async () => {
    await open?.close();
    await database?.drop();
  });

  const prepared = async () =>
    (await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements where name like 'ac\\_%'`.execute(open.db)).rows;

  it('prepares a select seen again, once per connection, and answers the same rows', async () => {
    const read = (id: number) => sql<{ id: number; name: string }>`select id, name from things where id = ${id}`.execute(open.db);
    const answers = [];
    for (let i = 0; i < HOT_AFTER + 3; i++) answers.push((await read(1 + (i % 2))).rows);
    expect(answers[0]).toEqual([{ id: 1, name: 'one' }]);
    expect(answers[1]).toEqual([{ id: 2, name: 'two' }]);
    expect(answers.at(-1)).toEqual(answers.at(-1 - 2));
    const statements = (await prepared()).filter((row) => row.statement.includes('from things where id'));
    expect(statements).toHaveLength(1);
    // A column of any name is a plain property of the row, as pg's own rows have it.
    const row = (await sql<Record<string, unknown>>`select * from things where id = 1`.execute(open.db)).rows[0]!;
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(row, '__proto__')?.value).toBe('p1');
    // Several statements in one text (a migration's) run as before, however often.
    for (let i = 0; i < HOT_AFTER + 1; i++) await sql`select 1; update things set name = name where id = 1`.execute(open.db);
  });

  it('runs a statement again unnamed when its columns changed under it, and lets a transaction fail', async () => {
    const all = () => sql<Record<string, unknown>>`select * from things order by id`.execute(open.db);
    for (let i = 0; i < HOT_AFTER + 1; i++) await all();
    expect((await prepared()).some((row) => row.statement.includes('select * from things order by id'))).toBe(true);
    await sql`alter table things add column extra int default 5`.execute(open.db);
    const rows = (await all()).rows;
    expect(rows[0]).toMatchObject({ id: 1, name: 'one', extra: 5 });

    const byName = () => sql<Record<string, unknown>>`select * from things where name = ${'two'}`.execute(open.db);
    for (let i = 0; i < HOT_AFTER + 1; i++) await byName();
    await sql`alter table things add column more int default 6`.execute(open.db);
    await expect(open.db.transaction().execute(async (trx) => sql`select * from things where name = ${'two'}`.execute(trx))).rejects.toMatchObject({
      code: '0A000',
    });
    // The connection is fine afterwards, and the text goes unnamed from now on.
    expect((await byName()).rows[0]).toMatchObject({ id: 2, more: 6 });
  });
});
