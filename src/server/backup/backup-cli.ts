import path from 'node:path';
import { parseArgs } from 'node:util';
import { BackupError, backupFileName, describeCounts } from './backup-format.js';
import { openForMaintenance } from './open-for-maintenance.js';
import { runCli } from './run-cli.js';
import { writeBackup } from './write-backup.js';

// npm run backup -- [--out FILE]
await runCli('npm run backup', async (config, signal) => {
  let values: { out?: string; help?: boolean };
  try {
    ({ values } = parseArgs({ options: { out: { type: 'string', short: 'o' }, help: { type: 'boolean', short: 'h' } } }));
  } catch (error) {
    throw new BackupError(`${(error as Error).message}. Usage: npm run backup -- [--out FILE]`);
  }
  if (values.help) {
    return 'Usage: npm run backup -- [--out FILE]\nWrites a gzip NDJSON backup of the database in DATABASE_URL, or of the embedded one in DATA_DIR (default DATA_DIR/backups/backup-<UTC time>.ndjson.gz).';
  }
  const file = path.resolve(values.out ?? path.join(config.dataDir, 'backups', backupFileName('backup')));
  const target = await openForMaintenance(config, 'backup');
  try {
    const summary = await writeBackup(target.database, file, { signal });
    return `Backed up ${target.label} to ${summary.file}: ${describeCounts(summary.tables)} in ${summary.durationMs} ms.`;
  } finally {
    await target.close();
  }
});
