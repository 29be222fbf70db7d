import { BackupError } from '../backup/backup-format.js';
import { openForMaintenance } from '../backup/open-for-maintenance.js';
import { runCli } from '../backup/run-cli.js';
import { deriveKey, describeDataKey, loadDataKey } from '../data-key.js';
import { AUDIT_KEY_LABEL, verifyAuditChain } from './audit-chain.js';

// npm run audit:verify: exit 0 when the audit log's hash chain is whole and keyed with the server's
// audit key (from its data key, which is never in the database), 1 naming the first broken row.
await runCli('npm run audit:verify', async (config) => {
  const dataKey = loadDataKey(config, { create: false });
  if (!dataKey) {
    throw new BackupError(
      `no data key was found (DATA_KEY, JWT_SECRET or ${config.dataDir}/data-key): run this with the server's DATA_DIR and environment, so the chain's HMACs can be checked.`,
    );
  }
  const target = await openForMaintenance(config, 'audit:verify');
  try {
    const report = await verifyAuditChain(target.database.db, deriveKey(dataKey.source, AUDIT_KEY_LABEL));
    const key = describeDataKey(dataKey, config.dataDir);
    if (!report.ok) {
      throw new BackupError(
        `the audit log of ${target.label} is broken at row ${report.broken!.id}: ${report.broken!.reason}. ${report.rows} rows before it are intact (checked with ${key}).`,
      );
    }
    return `The audit log of ${target.label} is intact: ${report.rows} rows, every HMAC checked with ${key}.`;
  } finally {
    await target.close();
  }
});
