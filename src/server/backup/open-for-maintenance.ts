import fs from 'node:fs';
import path from 'node:path';
import type { AppConfig } from '../config.js';
import { acquireDataDirLock, DataDirLockedError } from '../data-dir-lock.js';
import { type Database, openDatabase } from '../db/kysely.js';
import { IN_MEMORY } from '../plugins/db.js';
import { BackupError } from './backup-format.js';

/** An open database for `npm run backup` / `npm run restore`, and how to let it go. */
export interface MaintenanceDatabase {
  database: Database;
  /** `PostgreSQL (DATABASE_URL)` or `embedded PGlite in <dir>`, for messages. */
  label: string;
  close(): Promise<void>;
}

/**
 * Opens the configured database without building the app: PostgreSQL at `DATABASE_URL`, else
 * the embedded PGlite in `DATA_DIR`, whose lock is taken first so that no server can open it at the
 * same time. A running server holding the lock makes this fail with what to do instead.
 */
export async function openForMaintenance(config: AppConfig, purpose: 'backup' | 'restore' | 'audit:verify'): Promise<MaintenanceDatabase> {
  if (config.databaseUrl) {
    const database = await openDatabase({ databaseUrl: config.databaseUrl, connectTimeoutMs: Math.max(config.dbConnectTimeoutMs, 5000), poolSize: 2 });
    return { database, label: 'PostgreSQL (DATABASE_URL)', close: () => database.close() };
  }
  if (config.dataDir === IN_MEMORY) {
    throw new BackupError("DATA_DIR=:memory: keeps no data on disk; set DATA_DIR to the server's data folder or DATABASE_URL.");
  }
  const pgliteDir = path.join(config.dataDir, 'pglite');
  if (purpose !== 'restore' && !fs.existsSync(path.join(pgliteDir, 'PG_VERSION'))) {
    throw new BackupError(
      `There is no database in ${config.dataDir} to ${purpose === 'backup' ? 'back up' : 'check'} (set DATA_DIR or DATABASE_URL to the server's).`,
    );
  }
  let release: () => void;
  try {
    release = acquireDataDirLock(config.dataDir, purpose);
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    const alternative = purpose === 'backup' ? ` While it runs, the server writes scheduled backups to ${path.join(config.dataDir, 'backups')}.` : '';
    throw new BackupError(
      `npm run ${purpose} cannot open the embedded database while another process uses it. Stop the server first, then run it again.${alternative}\n${error.message}`,
    );
  }
  try {
    const database = await openDatabase({ pgliteDir });
    return {
      database,
      label: `embedded PGlite in ${config.dataDir}`,
      async close() {
        try {
          await database.close();
        } finally {
          release();
        }
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}
