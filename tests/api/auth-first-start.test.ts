import { afterAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/config.js';
import { createTestDatabase, type TestDatabase, testDatabaseKinds } from '../helpers/databases.js';
import { TestClient } from '../helpers/test-app.js';

const quiet = { LOG_LEVEL: 'silent', DEMO_DATA: 'false', BACKUP_INTERVAL_HOURS: '0' };

describe.each(testDatabaseKinds())('first start on %s', (kind) => {
  const cleanup: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step();
  });

  async function freshDatabase(): Promise<TestDatabase> {
    const database = await createTestDatabase(kind);
    cleanup.push(() => database.drop());
    return database;
  }

  it('creates one admin with a generated password, printed once, that signs in', async () => {
    const database = await freshDatabase();
    const config = loadConfig({ ...quiet, ...database.env, ADMIN_EMAIL: 'Owner@Example.com' });
    const app = await buildApp(config, { logger: false });
    cleanup.push(() => app.close());
    const note = app.startupNotes.join(' ');
    const password = /with password (\S+)/.exec(note)?.[1];
    expect(password).toBeDefined();
    expect(password!.length).toBeGreaterThanOrEqual(20);
    expect(note).toContain('owner@example.com');
    expect(note).toContain('change it on the Profile page');
    const c = await new TestClient(app).init();
    const login = await c.signIn('owner@example.com', password);
    expect(login.data.role).toBe('admin');
    const users = await app.db.selectFrom('users').select(['email', 'password_hash']).execute();
    expect(users).toHaveLength(1);
    expect(users[0]!.password_hash).not.toContain(password!);
  });

  it.runIf(kind === 'postgres')('creates only one admin when two servers start at once on one database', async () => {
    const database = await freshDatabase();
    const config = loadConfig({ ...quiet, ...database.env, ADMIN_EMAIL: 'owner@example.com' });
    const [a, b] = await Promise.all([buildApp(config, { logger: false }), buildApp(config, { logger: false })]);
    cleanup.push(
      () => a.close(),
      () => b.close(),
    );
    const users = await a.db.selectFrom('users').select('email').execute();
    expect(users).toEqual([{ email: 'owner@example.com' }]);
    const generated = [a, b].filter((app) => app.startupNotes.some((n) => n.includes('with password ')));
    expect(generated.length).toBeLessThanOrEqual(1);
  });

  it('says how to sign in when an admin already exists', async () => {
    const database = await freshDatabase();
    const config = loadConfig({ ...quiet, ...database.env, ADMIN_PASSWORD: 'first-admin-pass' });
    const first = await buildApp(config, { logger: false });
    expect(first.startupNotes.join(' ')).toContain('with the password from ADMIN_PASSWORD');
    if (kind === 'pglite') {
      // An in-memory PGlite lives only as long as its app: reuse the same database object instead.
      const second = await buildApp(config, { logger: false, database: first.database });
      expect(second.startupNotes.join(' ')).toContain('Sign in with the admin account (admin@example.com');
      await second.close();
      await first.close();
    } else {
      await first.close();
      const second = await buildApp(config, { logger: false });
      cleanup.push(() => second.close());
      expect(second.startupNotes.join(' ')).toContain('Sign in with the admin account (admin@example.com');
    }
  });
});
