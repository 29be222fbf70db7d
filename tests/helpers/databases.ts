import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** A database the API suites run against. */
export interface TestDatabase {
  name: 'pglite' | 'postgres';
  /** Environment for `loadConfig`: an in-memory PGlite, or a fresh PostgreSQL database. */
  env: Record<string, string>;
  /** Drops what `create` made. */
  drop(): Promise<void>;
}

export const postgresUrl = process.env.TEST_DATABASE_URL;

let announced = false;
/** The databases to run every API suite on: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export function testDatabaseKinds(): Array<'pglite' | 'postgres'> {
  if (!postgresUrl && !announced) {
    announced = true;
    process.stdout.write('PostgreSQL suites skipped: TEST_DATABASE_URL is not set (CI always sets it).\n');
  }
  return postgresUrl ? ['pglite', 'postgres'] : ['pglite'];
}

/** A fresh, empty database of the given kind, with its own name on the PostgreSQL server. */
export async function createTestDatabase(kind: 'pglite' | 'postgres'): Promise<TestDatabase> {
  if (kind === 'pglite') {
    return { name: 'pglite', env: { DATA_DIR: ':memory:' }, drop: async () => undefined };
  }
  if (!postgresUrl) throw new Error('TEST_DATABASE_URL is not set');
  const dbName = `ac_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  await admin.end();
  const url = new URL(postgresUrl);
  url.pathname = `/${dbName}`;
  return {
    name: 'postgres',
    env: { DATABASE_URL: url.toString(), DATA_DIR: ':memory:' },
    async drop() {
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      await client.query(`drop database if exists ${dbName} with (force)`);
      await client.end();
    },
  };
}
