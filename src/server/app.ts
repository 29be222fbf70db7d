import Fastify, { type FastifyInstance } from 'fastify';
import { clientEntitiesFor } from '../shared/descriptor/client-entity.js';
import { lengthBeforePattern } from '../shared/descriptor/length-first.js';
import { ADMIN_ROLE } from '../shared/roles.js';
import { scheduledBackupsPlugin } from './backup/scheduled-backups.js';
import type { AppConfig } from './config.js';
import { type DataKey, deriveKey, describeDataKey, loadDataKey } from './data-key.js';
import type { Database } from './db/kysely.js';
import { registeredServerFeatures } from './features.js';
import { FirstScreens, firstScreenWorkerFile } from './first-screen/first-screens.js';
import { FirstScreenRenderer } from './first-screen/renderer.js';
import { AUDIT_KEY_LABEL, databaseName, keyAuditChain, registerAuditKey } from './history/audit-chain.js';
import { logSerializers } from './log-redaction.js';
import { authPlugin } from './plugins/auth.js';
import { dbPlugin, IN_MEMORY } from './plugins/db.js';
import { entitiesPlugin, loadConfiguredEntities } from './plugins/entities.js';
import { errorsPlugin } from './plugins/errors.js';
import { openapiPlugin } from './plugins/openapi.js';
import { securityPlugin } from './plugins/security.js';
import { spaPlugin } from './plugins/spa.js';
import { authRoutes } from './routes/auth.js';
import { entityRoutes } from './routes/entity-crud.js';
import { healthRoutes } from './routes/health.js';
import { metaRoutes } from './routes/meta.js';
import { settingsRoutes } from './routes/settings.js';
import { schedulerPlugin } from './scheduler/scheduler.js';
import { loadJwtSecret } from './secrets.js';
import { productName } from './settings/product-name.js';

export interface BuildOptions {
  /** An already open database (tests share one across apps); the app then does not close it. */
  database?: Database;
  /** Pino options, or false for silence; defaults to the configured level. */
  logger?: boolean | Record<string, unknown>;
  /** The first-screen render thread, when started already (`main.ts` starts it first); else one is made here. */
  firstScreenRenderer?: FirstScreenRenderer;
}

/**
 * Builds the whole server as one Fastify instance: the database, security, every API route and the
 * SPA. Used by `main.ts` to listen and by tests through `inject` or `listen({port: 0})`.
 * Resolves once the database is migrated and the app is ready; rejects with a clear message when
 * it cannot start (a locked data directory, a destructive schema change, an unreachable database).
 */
export async function buildApp(config: AppConfig, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    // Request lines carry URLs; reset and sign-in links hold tokens that must not reach the log.
    logger:
      options.logger === false ? false : { level: config.logLevel, ...(typeof options.logger === 'object' ? options.logger : {}), serializers: logSerializers },
    bodyLimit: config.bodyLimit,
    trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
    // Long enough for real requests, short enough that a stuck client cannot hold a socket forever.
    requestTimeout: 30_000,
    return503OnClosing: true,
    // Start-up may sync entity tables (index builds on big tables) and open PGlite on a busy machine.
    pluginTimeout: 120_000,
    forceCloseConnections: 'idle',
    // lengthBeforePattern: a pattern never runs on a string its maxLength has refused, so an
    // oversized string cannot hold the event loop in a backtracking pattern.
    ajv: { customOptions: { allErrors: true, removeAdditional: false, coerceTypes: 'array', useDefaults: true }, plugins: [lengthBeforePattern as never] },
  });
  app.decorate('config', config);
  app.decorate('startupNotes', [] as string[]);

  let firstScreens: FirstScreens | undefined;
  try {
    // The descriptors are read first, so that the first-screen thread (main.ts started it) draws its
    // empty page with them while the database opens, on a core of its own; its pages of made-up
    // rows come once the server is ready (first-screens.ts).
    const entities = loadConfiguredEntities(config);
    const renderer = options.firstScreenRenderer ?? new FirstScreenRenderer(firstScreenWorkerFile(config.publicDir));
    firstScreens = new FirstScreens(renderer, () => clientEntitiesFor(entities, ADMIN_ROLE));
    app.decorate('firstScreens', firstScreens);
    app.addHook('onClose', async () => firstScreens?.close());
    if (config.firstScreenAtStart && firstScreens.available) void firstScreens.ready(0);
    app.addHook('onReady', async () => firstScreens?.serving());
    // The warm-up's later rounds wait for a spell without requests (first-screens.ts).
    app.addHook('onRequest', async () => firstScreens?.requested());
    await app.register(errorsPlugin);
    await app.register(dbPlugin, { config, database: options.database });
    // The product's name for mails written before anyone asks for it (translate's `{{product}}`).
    await productName(app.database.db);
    app.decorate('jwtSecret', await loadJwtSecret(config, app.database, config.dataDir === IN_MEMORY && !config.databaseUrl));
    // The data key (never in the database nor a backup) keys the audit chain and seals TOTP secrets.
    const dataKey = loadDataKey(config, { create: true })!;
    app.decorate('dataKey', dataKey);
    await keyAuditLog(app, dataKey);
    await app.register(securityPlugin);
    // Plugins that need the database and run before any route (auth guard, entity tables, seeding)
    // register here, in this order.
    await app.register(authPlugin);
    await app.register(entitiesPlugin, { entities });
    for (const feature of registeredServerFeatures()) if (feature.setup) await app.register(feature.setup);
    // Before the routes: it collects every /api route registered after it.
    await app.register(openapiPlugin);
    await app.register(
      async (api) => {
        await api.register(healthRoutes);
        await api.register(authRoutes);
        await api.register(metaRoutes);
        await api.register(settingsRoutes);
        await api.register(entityRoutes);
        for (const feature of registeredServerFeatures()) if (feature.routes) await api.register(feature.routes);
        // API route plugins register here, each on its own line.
      },
      { prefix: '/api' },
    );
    await app.register(spaPlugin, { publicDir: config.publicDir });
    await app.register(scheduledBackupsPlugin);
    // The features' scheduled jobs (ServerFeature.jobs, registerScheduledJob): each run by one server.
    await app.register(schedulerPlugin);
    await app.ready();
  } catch (error) {
    await app.close().catch(() => undefined);
    await firstScreens?.close();
    throw error;
  }
  return app;
}

/**
 * Keys every audit row this app appends with the data key's audit key, and makes sure the chain
 * already stored is keyed with it (re-anchored once when it predates the key). A chain this key
 * cannot verify is said at start, with what to do.
 */
async function keyAuditLog(app: FastifyInstance, dataKey: DataKey) {
  const key = deriveKey(dataKey.source, AUDIT_KEY_LABEL);
  registerAuditKey(app.database.db, key);
  const markerDir = app.config.dataDir === IN_MEMORY ? undefined : app.config.dataDir;
  const outcome = await keyAuditChain(app.database.db, key, { markerDir, database: databaseName(app.config) });
  const where = describeDataKey(dataKey, app.config.dataDir);
  if (outcome.state === 'rekeyed') app.log.warn({ rows: outcome.rows, key: dataKey.id }, `${outcome.message} Key: ${where}.`);
  else if (outcome.state !== 'empty' && outcome.state !== 'keyed') {
    app.log.error({ state: outcome.state, key: dataKey.id }, `${outcome.message} This server's key: ${where}.`);
    app.startupNotes.push(`Audit log: ${outcome.message}`);
  }
  if (dataKey.origin === 'memory' && app.config.databaseUrl) {
    app.log.warn(
      'DATA_DIR=:memory: with DATABASE_URL and no DATA_KEY: the data key lives in memory only, so the audit chain and two-factor secrets written now cannot be checked after a restart. Set DATA_KEY.',
    );
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    config: AppConfig;
    /** HS256 key for access tokens and the refresh-token MAC. */
    jwtSecret: Uint8Array;
    /** The data key (`src/server/data-key.ts`): root of the TOTP secrets' key and the audit key. */
    dataKey: DataKey;
    /** The first-screen render thread (`GET /api/meta/first-screen`), started and warmed up with the server. */
    firstScreens: FirstScreens;
    /** Lines `main.ts` prints after listening (how to sign in, what the first start created). */
    startupNotes: string[];
  }
  interface FastifyContextConfig {
    /** Reachable without signing in. */
    public?: boolean;
    /** Descriptor message keys for body validation errors on this route. */
    messages?: Record<string, Record<string, string>>;
  }
}
