import { BackupError } from '../backup/backup-format.js';
import { openForMaintenance } from '../backup/open-for-maintenance.js';
import { runCli } from '../backup/run-cli.js';
import { verifyAuditChain } from './audit-chain.js';

// npm run audit:verify: exit 0 when the audit log's hash chain is whole, 1 naming the first broken row.
await runCli('npm run audit:verify', async (config) => {
  const target = await openForMaintenance(config, 'audit:verify');
  try {
    const report = await verifyAuditChain(target.database.db);
    if (!report.ok) {
      throw new BackupError(
        `the audit log of ${target.label} is broken at row ${report.broken!.id}: ${report.broken!.reason}. ${report.rows} rows before it are intact.`,
      );
    }
    return `The audit log of ${target.label} is intact: ${report.rows} rows, every hash checked.`;
  } finally {
    await target.close();
  }
});
