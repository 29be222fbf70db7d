import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { IN_MEMORY } from '../plugins/db.js';
import { backupFileName, describeCounts } from './backup-format.js';
import { writeBackup } from './write-backup.js';

/** Scheduled backups kept in `DATA_DIR/backups`; older ones are deleted. */
export const KEEP_SCHEDULED = 7;
const PREFIX = 'scheduled';
const PATTERN = /^scheduled-\d{4}-\d{2}-\d{2}T[\d-]+Z\.ndjson\.gz$/;

/** The scheduled backups in `dir`, newest first (names sort by time). */
export function listScheduledBackups(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((name) => PATTERN.test(name))
    .sort()
    .reverse()
    .map((name) => path.join(dir, name));
}

/** Deletes all but the newest `keep` scheduled backups; backups made by `npm run backup` are left alone. */
export function pruneScheduledBackups(dir: string, keep = KEEP_SCHEDULED): string[] {
  const removed = listScheduledBackups(dir).slice(keep);
  for (const file of removed) fs.rmSync(file, { force: true });
  return removed;
}

/**
 * While the server runs on PGlite in a real `DATA_DIR` with `BACKUP_INTERVAL_HOURS` > 0: writes a
 * backup shortly after start when the newest scheduled one is older than the interval (or there is
 * none), then one every interval, keeping the newest {@link KEEP_SCHEDULED}. The dump reads in
 * small batches, so requests are served between them. Closing the app stops a running backup
 * (its partial file is discarded) before the database closes. PostgreSQL has its own tools
 * (pg_dump, managed snapshots), and `npm run backup` works on it on demand.
 */
export const scheduledBackupsPlugin = fp(async function scheduledBackupsPlugin(app: FastifyInstance) {
  const { config } = app;
  const hours = config.backupIntervalHours;
  if (config.databaseUrl || config.dataDir === IN_MEMORY || hours <= 0 || app.database.kind !== 'pglite') return;

  const dir = path.join(config.dataDir, 'backups');
  const intervalMs = hours * 3_600_000;
  const controller = new AbortController();
  let running: Promise<void> | undefined;
  let first: NodeJS.Timeout | undefined;
  let every: NodeJS.Timeout | undefined;

  const runOnce = () => {
    if (running || controller.signal.aborted) return;
    const file = path.join(dir, backupFileName(PREFIX));
    running = writeBackup(app.database, file, { signal: controller.signal, batchSize: 500 })
      .then((summary) => {
        pruneScheduledBackups(dir);
        app.log.info({ file: summary.file, rows: summary.rows, ms: summary.durationMs }, `scheduled backup written: ${describeCounts(summary.tables)}`);
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        app.log.error({ err: error }, 'scheduled backup failed; it is tried again at the next check');
      })
      .finally(() => {
        running = undefined;
      });
  };

  /** Writes a backup when the newest scheduled one is older than the interval (or there is none). */
  const check = () => {
    const newest = listScheduledBackups(dir)[0];
    const age = newest ? Date.now() - fs.statSync(newest).mtimeMs : Infinity;
    if (age >= intervalMs) runOnce();
  };

  app.addHook('onReady', async () => {
    // Let start-up finish first; the backup then shares the database with the first requests.
    first = setTimeout(check, 1000);
    first.unref();
    // Checking at most hourly keeps timers far below Node's 24.8-day limit whatever the interval.
    every = setInterval(check, Math.min(intervalMs, 3_600_000));
    every.unref();
  });

  app.addHook('preClose', async () => {
    clearTimeout(first);
    clearInterval(every);
    controller.abort();
    await running;
  });
});
