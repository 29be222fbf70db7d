import { type AppConfig, ConfigError, loadConfig } from '../config.js';
import { isUnavailableError } from '../db/kysely.js';
import { BackupError } from './backup-format.js';

/**
 * Runs a maintenance command: reads the configuration, turns known failures into one plain line
 * on stderr and exit code 1, and aborts the work (cleanly, through `signal`) on Ctrl-C or SIGTERM.
 */
export async function runCli(name: string, main: (config: AppConfig, signal: AbortSignal) => Promise<string>): Promise<void> {
  const controller = new AbortController();
  const stop = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) return;
    process.stderr.write(`${signal}: stopping ${name} and closing the database...\n`);
    controller.abort(new BackupError(`${name} was interrupted (${signal}); nothing was changed by the unfinished part.`));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  try {
    const config = loadConfig();
    const line = await main(config, controller.signal);
    process.stdout.write(`${line}\n`);
    process.exitCode = 0;
  } catch (error) {
    let message: string;
    if (error instanceof BackupError || error instanceof ConfigError) message = error.message;
    else if (isUnavailableError(error)) message = `cannot reach the database (${(error as Error).message}). Check DATABASE_URL and that PostgreSQL is running.`;
    else message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`${name} failed: ${message}\n`);
    process.exitCode = 1;
  }
}
