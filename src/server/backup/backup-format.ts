import { PRODUCT_ID } from '../../shared/product.js';
import type { DatabaseKind } from '../db/kysely.js';

/** A backup that cannot be made or restored, or a target that must not be overwritten; the message says which. */
export class BackupError extends Error {
  override name = 'BackupError';
}

/** Written in every header; a restore refuses files of another format. */
export const BACKUP_FORMAT = `${PRODUCT_ID}-backup`;
/** Bumped when the line layout changes incompatibly. */
export const BACKUP_VERSION = 1;

/**
 * The first line of a backup. Per table it lists the columns (name and SQL type) in the order the
 * source had them; rows then follow table by table, parents before the tables that reference them.
 */
export interface BackupHeader {
  format: typeof BACKUP_FORMAT;
  version: number;
  created_at: string;
  source: DatabaseKind;
  migrations: string[];
  tables: Array<{ name: string; primary_key: string[]; columns: Array<{ name: string; type: string }> }>;
}

/** One row: `t` the table, `r` the row as an object keyed by column name. */
export interface BackupRow {
  t: string;
  r: Record<string, unknown>;
}

/** The last line; its absence means the file was cut short and must not be restored. */
export interface BackupTrailer {
  end: true;
  rows: Record<string, number>;
}

/** What a backup or a restore did, for the one-line result the CLIs print. */
export interface BackupSummary {
  file: string;
  tables: Record<string, number>;
  rows: number;
  durationMs: number;
}

/** `12 tables, 10234 rows (users 3, categories 10000, ...)`: the row counts a person checks. */
export function describeCounts(tables: Record<string, number>): string {
  const entries = Object.entries(tables);
  const rows = entries.reduce((sum, [, n]) => sum + n, 0);
  const detail = entries
    .filter(([, n]) => n > 0)
    .map(([name, n]) => `${name} ${n}`)
    .join(', ');
  return `${entries.length} tables, ${rows} rows${detail ? ` (${detail})` : ''}`;
}

/** `backup-2026-01-31T09-05-00-123Z.ndjson.gz`: sortable by name, safe on every file system. */
export function backupFileName(prefix: string, at = new Date()): string {
  return `${prefix}-${at.toISOString().replace(/[:.]/g, '-')}.ndjson.gz`;
}
