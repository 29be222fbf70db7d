import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { TOTP_KEY_LABEL } from '../auth/totp.js';
import { TwoFactor } from '../auth/two-factor.js';
import { deriveKey, describeDataKey, loadDataKey } from '../data-key.js';
import { migrateToLatest } from '../db/migrate.js';
import { syncEntityTables } from '../db/sync/index.js';
import { AUDIT_KEY_LABEL, databaseName, keyAuditChain } from '../history/audit-chain.js';
import { IN_MEMORY } from '../plugins/db.js';
import { loadConfiguredEntities } from '../plugins/entities.js';
import { loadJwtSecret } from '../secrets.js';
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
    const lines = [`Restored ${summary.file} into ${target.label}: ${describeCounts(summary.tables)} in ${summary.durationMs} ms.`];
    // What the backup cannot carry: the data key. Say now what it means for this server.
    const dataKey = loadDataKey(config, { create: true })!;
    const where = describeDataKey(dataKey, config.dataDir);
    const audit = await keyAuditChain(target.database.db, deriveKey(dataKey.source, AUDIT_KEY_LABEL), {
      markerDir: config.dataDir === IN_MEMORY ? undefined : config.dataDir,
      allowRekey: true,
      database: databaseName(config),
    });
    if (audit.state !== 'empty' && audit.state !== 'keyed') lines.push(`Audit log: ${audit.message} This server's data key: ${where}.`);
    const jwtSecret = await loadJwtSecret(config, target.database, false);
    const totp = new TwoFactor([deriveKey(dataKey.source, TOTP_KEY_LABEL), deriveKey(jwtSecret, TOTP_KEY_LABEL)]);
    const secrets = await totp.checkSecrets(target.database.db as never);
    if (secrets.unreadable.length > 0) {
      lines.push(
        `Two-factor: ${secrets.unreadable.length} account(s) have secrets sealed with another data key (${secrets.unreadable.map((a) => a.email).join(', ')}). ` +
          `Start the server with the data key of the server the backup came from (its DATA_KEY or DATA_DIR/data-key; this server's is ${where}), ` +
          "or have an admin reset those accounts' two-factor; their recovery codes still sign in.",
      );
    }
    return lines.join('\n');
  } finally {
    await target.close();
  }
});
