import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { appliedMigrations } from '../backup/catalog.js';
import type { AppConfig } from '../config.js';
import { acquireDataDirLock } from '../data-dir-lock.js';
import { type Database, openDatabase } from '../db/kysely.js';
import { allMigrations, migrateToLatest } from '../db/migrate.js';

/** `DATA_DIR=:memory:` keeps an embedded database in memory only (tests, demos). */
export const IN_MEMORY = ':memory:';

/**
 * Opens the database (PGlite in `DATA_DIR`, or PostgreSQL at `DATABASE_URL`), locks an embedded
 * data directory against a second server, runs the system-table migrations, and closes it all when
 * the app closes.
 */
export const dbPlugin = fp(async function dbPlugin(app: FastifyInstance, options: { config: AppConfig; database?: Database }) {
  const { config } = options;
  let release: (() => void) | undefined;
  let database = options.database;
  if (!database) {
    const embeddedDir = config.dataDir === IN_MEMORY ? undefined : config.dataDir;
    if (!config.databaseUrl && embeddedDir) release = acquireDataDirLock(embeddedDir);
    try {
      database = await openDatabase({
        databaseUrl: config.databaseUrl,
        pgliteDir: embeddedDir ? path.join(embeddedDir, 'pglite') : undefined,
        connectTimeoutMs: config.dbConnectTimeoutMs,
        queryTimeoutMs: config.dbQueryTimeoutMs,
        preparedStatements: config.dbPreparedStatements,
        onPoolError: (error) => app.log.warn({ err: { message: error.message } }, 'database connection lost'),
      });
    } catch (error) {
      release?.();
      throw error;
    }
  }
  app.decorate('database', database);
  app.decorate('db', database.db);
  app.addHook('onClose', async () => {
    try {
      if (!options.database) await database.close();
    } finally {
      release?.();
    }
  });
  // Kysely's migrator costs a third of a second of CPU even with nothing to do; one query tells.
  const applied = await appliedMigrations(database.db);
  if (Object.keys(allMigrations()).some((name) => !applied.includes(name))) await migrateToLatest(database.db);
});

declare module 'fastify' {
  interface FastifyInstance {
    database: Database;
    db: Database['db'];
  }
}
