import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { migrateToLatest } from '../db/migrate.js';
import { syncEntityTables } from '../db/sync/index.js';
import { loadConfiguredEntities } from '../plugins/entities.js';
import { BackupError, describeCounts } from './backup-format.js';
import { openForMaintenance } from './open-for-maintenance.js';
import { restoreBackup } from './restore-backup.js';
import { runCli } from './run-cli.js';

const USAGE = 'Usage: npm run restore -- FILE [--force]';

// npm run restore -- FILE [--force]
await runCli('npm run restore', async (config, signal) => {
  let parsed: { values: { force?: boolean; help?: boolean }; positionals: string[] };
  try {
    parsed = parseArgs({ allowPositionals: true, options: { force: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } });
  } catch (error) {
    throw new BackupError(`${(error as Error).message}. ${USAGE}`);
  }
  if (parsed.values.help) {
    return `${USAGE}\nRestores a backup into the database in DATABASE_URL, or the embedded one in DATA_DIR. --force replaces a database that already has data.`;
  }
  const [file, ...extra] = parsed.positionals;
  if (!file || extra.length > 0) throw new BackupError(`name exactly one backup file. ${USAGE}`);
  if (!fs.existsSync(file)) throw new BackupError(`The backup file ${path.resolve(file)} does not exist.`);
  // A bad descriptor stops here, before the database is touched.
  const entities = loadConfiguredEntities(config);
  const target = await openForMaintenance(config, 'restore');
  try {
    // The same tables a server start creates: system tables from migrations, entity tables from the schemas.
    await migrateToLatest(target.database.db);
    await syncEntityTables(target.database.db, entities);
    const summary = await restoreBackup(target.database, file, { force: parsed.values.force, signal });
    return `Restored ${summary.file} into ${target.label}: ${describeCounts(summary.tables)} in ${summary.durationMs} ms.`;
  } finally {
    await target.close();
  }
});
