import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { PRODUCT_NAME } from '../shared/product.js';
import { buildApp } from './app.js';
import { type AppConfig, ConfigError, loadConfig } from './config.js';
import { DataDirLockedError } from './data-dir-lock.js';
import { isUnavailableError } from './db/kysely.js';
import type { EarlyStart } from './early-start.js';
import { keepEmbeddedServerSmall } from './memory.js';

const STARTUP_WAIT_MS = 30_000;

function fail(message: string): never {
  process.stderr.write(`\n${PRODUCT_NAME} could not start: ${message}\n\n`);
  process.exit(1);
}

async function start(early: EarlyStart): Promise<FastifyInstance> {
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
  if (!config.databaseUrl) keepEmbeddedServerSmall();

  const deadline = Date.now() + STARTUP_WAIT_MS;
  for (;;) {
    try {
      const app = await buildApp(config, { firstScreenRenderer: early.firstScreenRenderer });
      const address = await app.listen({ port: config.port, host: config.host });
      const { port } = app.server.address() as AddressInfo;
      const local = ['0.0.0.0', '127.0.0.1', '::', '::1', 'localhost'].includes(config.host);
      const shown = local ? `http://localhost:${port}` : address;
      const lines = [
        '',
        `  ${PRODUCT_NAME} is running at ${shown}`,
        `  Database: ${app.database.kind === 'pglite' ? `embedded PGlite in ${config.dataDir}` : 'PostgreSQL (DATABASE_URL)'}`,
        ...app.startupNotes.map((note) => `  ${note}`),
        '',
      ];
      process.stdout.write(`${lines.join('\n')}\n`);
      return app;
    } catch (error) {
      if (error instanceof DataDirLockedError || error instanceof ConfigError) fail(error.message);
      if (pending) process.exit(pending.exitCode);
      if (config.databaseUrl && isUnavailableError(error) && Date.now() < deadline) {
        process.stderr.write('Waiting for PostgreSQL at DATABASE_URL to accept connections...\n');
        await new Promise((resolve) => setTimeout(resolve, 2000));
        continue;
      }
      if (config.databaseUrl && isUnavailableError(error)) {
        fail('PostgreSQL at DATABASE_URL did not accept connections within 30 seconds. Check that it is running and that the URL is right.');
      }
      fail(error instanceof Error ? error.message : String(error));
    }
  }
}

let app: FastifyInstance | undefined;
let closing = false;
let pending: { reason: string; exitCode: number } | undefined;

async function shutdown(reason: string, exitCode: number) {
  if (!app) {
    // Still starting (the database may be open, a migration running): finish, then close cleanly.
    // Start-up is bounded (plugin timeout, PostgreSQL wait); this only guards against a hang.
    pending ??= { reason, exitCode };
    setTimeout(() => process.exit(exitCode || 1), 180_000).unref();
    return;
  }
  if (closing) return;
  closing = true;
  app.log.info({ reason }, 'shutting down');
  // Whatever happens, the process ends; but only after the database has been closed cleanly.
  const force = setTimeout(() => process.exit(exitCode || 1), 15_000);
  force.unref();
  try {
    await app.close();
  } catch (error) {
    app.log.error({ err: error }, 'error while shutting down');
    exitCode ||= 1;
  }
  process.exit(exitCode);
}

// Registered before start-up, so a signal that arrives while the database opens is not fatal to it.
process.on('SIGINT', () => void shutdown('SIGINT', 0));
process.on('SIGTERM', () => void shutdown('SIGTERM', 0));
process.on('SIGHUP', () => void shutdown('SIGHUP', 0));
process.on('uncaughtException', (error) => {
  if (app) app.log.fatal({ err: error }, 'uncaught exception');
  else process.stderr.write(`Uncaught exception while starting: ${error.stack ?? error.message}\n`);
  void shutdown('uncaughtException', 1);
});
process.on('unhandledRejection', (error) => {
  if (app) app.log.fatal({ err: error }, 'unhandled rejection');
  else process.stderr.write(`Unhandled rejection while starting: ${String(error)}\n`);
  void shutdown('unhandledRejection', 1);
});

/**
 * Starts the server and listens; the main program (src/registry/entries/main.ts) calls it with what
 * it started before it loaded the server's modules.
 */
export async function serve(early: EarlyStart = {}): Promise<void> {
  app = await start(early);
  if (pending) await shutdown(pending.reason, pending.exitCode);
}
