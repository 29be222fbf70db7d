import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isUnavailableError } from '../../src/server/db/kysely.js';
import { PglitePool } from '../../src/server/db/pglite-pool.js';

describe('PglitePool', () => {
  let pglite: PGlite;
  let db: Kysely<any>;

  beforeAll(async () => {
    pglite = await PGlite.create();
    db = new Kysely<any>({ dialect: new PostgresDialect({ pool: new PglitePool(pglite, 300) }) });
    await sql`create table t (id int primary key)`.execute(db);
  });
  afterAll(async () => {
    await db.destroy();
    await pglite.close();
  });

  it('fails a query that waits for the one connection past the bound, as unavailable, instead of waiting for ever', async () => {
    // A query on the pool from inside a transaction waits for the transaction that waits for it.
    const outcome = await db
      .transaction()
      .execute(async (trx) => {
        await sql`insert into t values (1)`.execute(trx);
        await sql`select 1`.execute(db);
      })
      .then(
        () => 'committed',
        (error: Error) => error,
      );
    expect(outcome).toBeInstanceOf(Error);
    expect(isUnavailableError(outcome)).toBe(true);
    // The transaction rolled back and the pool serves the next query.
    expect((await sql<{ n: number }>`select count(*)::int as n from t`.execute(db)).rows[0]!.n).toBe(0);
  });

  it('passes a given-up turn on: queries queued behind it still run, in order', async () => {
    const order: string[] = [];
    const held = db.transaction().execute(async (trx) => {
      await sql`select 1`.execute(trx);
      await new Promise((resolve) => setTimeout(resolve, 500));
      order.push('held');
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const gaveUp = sql`select 1`.execute(db).then(
      () => 'ran',
      (error: Error) => (isUnavailableError(error) ? 'gave up' : error.message),
    );
    await held;
    const after = await sql<{ v: number }>`select 2 as v`.execute(db);
    order.push(`after ${after.rows[0]!.v}`);
    expect(await gaveUp).toBe('gave up');
    expect(order).toEqual(['held', 'after 2']);
  });
});
