import path from 'node:path';
import { parseArgs } from 'node:util';
import type { AppConfig } from '../../../server/index.js';
import {
  acquireDataDirLock,
  createRegistry,
  keyAuditLogOf,
  loadConfiguredEntities,
  migrateToLatest,
  openDatabase,
  syncEntityTables,
} from '../../../server/index.js';
import { openMediaService } from '../../media/server.js';
import { bulkSeed } from './bulk-seed.js';
import { createDemoDataOnFirstStart } from './demo-data-plugin.js';

const USAGE =
  'Usage: npm run seed -- --contests <count> [--customers <count>] [--campaigns <count>]\n' +
  'Fills the database of DATABASE_URL (PostgreSQL) or DATA_DIR (embedded PGlite) for benchmarks; the server must be stopped when it uses PGlite.';

function count(name: string, raw: string | undefined, required: boolean): number | undefined {
  if (raw === undefined) {
    if (required) throw new Error(`--${name} is required.\n${USAGE}`);
    return undefined;
  }
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 50_000_000) throw new Error(`--${name} must be a whole number from 1 to 50000000; got "${raw}".`);
  return Number(raw);
}

/**
 * `npm run seed -- --contests N`: opens the configured database, brings its tables up to date,
 * creates the demo data set when the database is new, then adds N generated contests (and their
 * customers and campaigns) with set-based SQL.
 */
export async function seed(config: AppConfig, argv: string[], log: (line: string) => void): Promise<string> {
  const { values } = parseArgs({
    args: argv,
    options: { contests: { type: 'string' }, customers: { type: 'string' }, campaigns: { type: 'string' }, help: { type: 'boolean' } },
  });
  if (values.help) return USAGE;
  const contests = count('contests', values.contests, true)!;
  const embedded = !config.databaseUrl && config.dataDir !== ':memory:';
  const release = embedded ? acquireDataDirLock(config.dataDir, 'seed') : undefined;
  try {
    const database = await openDatabase({
      databaseUrl: config.databaseUrl,
      pgliteDir: embedded ? path.join(config.dataDir, 'pglite') : undefined,
      connectTimeoutMs: config.dbConnectTimeoutMs,
    });
    try {
      await migrateToLatest(database.db);
      // Its audit rows keyed as the server keys them (the server would say the log was rewritten).
      const audit = await keyAuditLogOf(database.db, config);
      if (audit.state !== 'empty' && audit.state !== 'keyed') log(`Audit log: ${audit.message}`);
      const entities = loadConfiguredEntities(config);
      await syncEntityTables(database.db, entities);
      const registry = createRegistry(entities);
      // The demo data's pictures go to the media store the server uses (MEDIA_URL, else DATA_DIR/media).
      const pictures = await openMediaService(database.db, config.dataDir);
      let demo: string | undefined;
      try {
        demo = await createDemoDataOnFirstStart(database.db, registry, new Date(), async (trx, bytes, contestId, name) => {
          const row = await pictures.media.storeGenerated(bytes, contestId, name, trx);
          return `/api/media/${row.id}`;
        });
      } finally {
        await pictures.close();
      }
      if (demo) log(demo);
      const report = await bulkSeed(database.db, registry, {
        contests,
        customers: count('customers', values.customers, false),
        campaigns: count('campaigns', values.campaigns, false),
        log,
      });
      return `Seeded ${report.contests} contests, ${report.customers} customers and ${report.campaigns} campaigns in ${report.seconds} s (${database.kind === 'pglite' ? `PGlite in ${config.dataDir}` : 'PostgreSQL at DATABASE_URL'}).`;
    } finally {
      await database.close();
    }
  } finally {
    release?.();
  }
}
