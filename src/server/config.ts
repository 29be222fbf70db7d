import path from 'node:path';
import { EMAIL_PATTERN } from '../shared/descriptor/length-first.js';
import { DEFAULT_ADMIN_EMAIL, DEFAULT_MAIL_FROM } from '../shared/product.js';

/** Everything the server reads from its environment, after defaults and checks. */
export interface AppConfig {
  port: number;
  /**
   * Whether the first-screen render thread starts (and warms up) with the server, so that the first
   * visitor gets a server-rendered first screen too; off, it starts with the first request for one
   * (the tests' servers, which mostly never ask). Either way it then keeps running.
   */
  firstScreenAtStart: boolean;
  /** How many rendered first screens the server keeps (`src/server/first-screen/screen-cache.ts`); 0 renders each. */
  firstScreenCache: number;
  host: string;
  /** Where PGlite keeps its files, the lock, the generated secret and scheduled backups. */
  dataDir: string;
  /** PostgreSQL connection string; when absent the embedded PGlite in `dataDir` is used. */
  databaseUrl?: string;
  /** HS256 key material; generated and kept beside the data when unset. */
  jwtSecret?: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  adminEmail: string;
  adminPassword?: string;
  /** Proxy addresses whose X-Forwarded-For is believed (Fastify `trustProxy`); none by default. */
  trustProxy: string[];
  /** Seconds of `Strict-Transport-Security` sent on https requests (as the trusted proxy says); 0 sends none. */
  hstsMaxAge: number;
  /** Origins besides the console itself that images (avatars) may load from: the CSP's img-src. */
  cspImgSrc: string[];
  /** SMTP URL for password-reset mail; the link goes to the log when unset. */
  smtpUrl?: string;
  mailFrom: string;
  /** The address users reach the console at, used in e-mailed links. */
  publicUrl: string;
  /** Largest accepted request body, in bytes. */
  bodyLimit: number;
  /** Milliseconds a request waits for a PostgreSQL connection before it gets 503 `UNAVAILABLE`. */
  dbConnectTimeoutMs: number;
  /** Longest a PostgreSQL statement may run; a silent database is given up on shortly after. */
  dbQueryTimeoutMs: number;
  /** Whether hot selects go to PostgreSQL as named (prepared) statements (off behind a pooler that cannot keep them). */
  dbPreparedStatements: boolean;
  /** Hours between scheduled backups of an embedded database; 0 turns them off. */
  backupIntervalHours: number;
  /**
   * Megabytes of list responses kept per server for reuse while the tables they were read from are
   * unchanged (`LIST_CACHE_MB`, default 16 on PostgreSQL and 4 on PGlite, whose one process also
   * holds the database within DESIGN §8's 300 MB); 0 reads every list from the database.
   */
  listCacheMb: number;
  /** Whether the first start fills an empty database with the demo data set. */
  demoData: boolean;
  /**
   * The data key (≥ 32 characters): two-factor secrets are sealed and the audit chain keyed with keys
   * derived from it; when unset, JWT_SECRET, else DATA_DIR/data-key (`src/server/data-key.ts`).
   */
  dataKey?: string;
  /** Admins without two-factor must enrol at their next sign-in. */
  require2faForAdmins: boolean;
  /** Folder of the built SPA; not served when it does not exist. */
  publicDir: string;
  /** Folders of entity descriptors (`ENTITIES_DIR`, several joined by the path delimiter); default `entities`. */
  entitiesDirs: string[];
  /** Folders searched in order for `<schema>.schema.json` (`SCHEMAS_DIR`, likewise); default `schemas`. */
  schemasDirs: string[];
  /**
   * Folders of extra translations (`LOCALES_DIR`, likewise; default none): `<dir>/<language>/*.json`,
   * merged over the shipped `locales/` in the browser (an added entity's labels and texts).
   */
  localesDirs: string[];
}

/** A configuration problem, with a message a person can act on. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

function integer(env: Env, key: string, fallback: number, min: number, max: number): number {
  const raw = env[key];
  if (raw === undefined || raw.trim() === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) {
    throw new ConfigError(`${key} must be a whole number from ${min} to ${max}; got "${raw}".`);
  }
  const value = Number(raw);
  if (value < min || value > max) {
    throw new ConfigError(`${key} must be a whole number from ${min} to ${max}; got ${value}.`);
  }
  return value;
}

function boolean(env: Env, key: string, fallback: boolean): boolean {
  const raw = env[key]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  if (['0', 'false', 'no', 'off'].includes(raw)) return false;
  throw new ConfigError(`${key} must be true or false; got "${env[key]}".`);
}

function optional(env: Env, key: string): string | undefined {
  const raw = env[key]?.trim();
  return raw ? raw : undefined;
}

/** One or more folders (joined by `:` on POSIX, `;` on Windows), resolved against `cwd`. */
function dirList(env: Env, key: string, fallback: string, cwd: string): string[] {
  const dirs = (optional(env, key) ?? fallback)
    .split(path.delimiter)
    .map((dir) => dir.trim())
    .filter(Boolean);
  return dirs.map((dir) => path.resolve(cwd, dir));
}

/**
 * Reads the configuration from environment variables, filling defaults that work out of the box.
 * Throws a {@link ConfigError} naming the variable and the accepted values when one is wrong.
 *
 * @example loadConfig({ PORT: '8080', DATABASE_URL: 'postgres://localhost/console' })
 */
export function loadConfig(env: Env = process.env, cwd = process.cwd()): AppConfig {
  const port = integer(env, 'PORT', 3000, 0, 65535);
  const host = optional(env, 'HOST') ?? '127.0.0.1';

  const databaseUrl = optional(env, 'DATABASE_URL');
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must start with postgres:// or postgresql://.');
  }

  const jwtSecret = optional(env, 'JWT_SECRET');
  if (jwtSecret !== undefined && jwtSecret.length < 32) {
    throw new ConfigError('JWT_SECRET must be at least 32 characters; leave it unset to have one generated.');
  }

  const logLevel = (optional(env, 'LOG_LEVEL') ?? 'info') as AppConfig['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}; got "${env.LOG_LEVEL}".`);
  }

  const adminEmail = (optional(env, 'ADMIN_EMAIL') ?? DEFAULT_ADMIN_EMAIL).toLowerCase();
  if (adminEmail.length > 254 || !new RegExp(EMAIL_PATTERN, 'u').test(adminEmail)) {
    throw new ConfigError(`ADMIN_EMAIL must be an e-mail address; got "${env.ADMIN_EMAIL}".`);
  }
  const adminPassword = optional(env, 'ADMIN_PASSWORD');
  if (adminPassword !== undefined && (adminPassword.length < 8 || adminPassword.length > 128)) {
    throw new ConfigError('ADMIN_PASSWORD must be 8 to 128 characters long.');
  }

  const smtpUrl = optional(env, 'SMTP_URL');
  if (smtpUrl && !/^smtps?:\/\//.test(smtpUrl)) {
    throw new ConfigError('SMTP_URL must start with smtp:// or smtps://.');
  }

  const trustProxy = (optional(env, 'TRUST_PROXY') ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);

  const cspImgSrc = (optional(env, 'CSP_IMG_SRC') ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const origin of cspImgSrc) {
    if (!/^https:\/\/[a-z0-9.-]+(:\d{1,5})?$/i.test(origin)) {
      throw new ConfigError(`CSP_IMG_SRC must list https origins (https://host or https://host:port), separated by commas; got "${origin}".`);
    }
  }

  const dataKey = optional(env, 'DATA_KEY');
  if (dataKey !== undefined && dataKey.length < 32) {
    throw new ConfigError('DATA_KEY must be at least 32 characters; leave it unset to use JWT_SECRET, or the key generated in DATA_DIR/data-key.');
  }

  const publicUrl = optional(env, 'PUBLIC_URL') ?? `http://localhost:${port || 3000}`;
  if (!/^https?:\/\//.test(publicUrl)) {
    throw new ConfigError('PUBLIC_URL must start with http:// or https://.');
  }

  return {
    port,
    host,
    // ':memory:' is a marker (an in-memory PGlite), not a folder name: keep it as it is.
    dataDir: optional(env, 'DATA_DIR') === ':memory:' ? ':memory:' : path.resolve(cwd, optional(env, 'DATA_DIR') ?? 'data'),
    databaseUrl,
    jwtSecret,
    logLevel,
    adminEmail,
    adminPassword,
    trustProxy,
    hstsMaxAge: integer(env, 'HSTS', 0, 0, 2 * 365 * 24 * 60 * 60),
    cspImgSrc,
    smtpUrl,
    mailFrom: optional(env, 'MAIL_FROM') ?? DEFAULT_MAIL_FROM,
    publicUrl: publicUrl.replace(/\/+$/, ''),
    bodyLimit: integer(env, 'BODY_LIMIT', 1024 * 1024, 1024, 50 * 1024 * 1024),
    dbConnectTimeoutMs: integer(env, 'DB_CONNECT_TIMEOUT_MS', 2000, 100, 60000),
    dbQueryTimeoutMs: integer(env, 'DB_QUERY_TIMEOUT_MS', 30000, 100, 3600000),
    dbPreparedStatements: boolean(env, 'DB_PREPARED_STATEMENTS', true),
    backupIntervalHours: integer(env, 'BACKUP_INTERVAL_HOURS', 24, 0, 24 * 365),
    listCacheMb: integer(env, 'LIST_CACHE_MB', databaseUrl ? 16 : 4, 0, 4096),
    demoData: boolean(env, 'DEMO_DATA', true),
    firstScreenAtStart: boolean(env, 'FIRST_SCREEN_AT_START', true),
    firstScreenCache: integer(env, 'FIRST_SCREEN_CACHE', 64, 0, 10_000),
    dataKey,
    require2faForAdmins: boolean(env, 'REQUIRE_2FA_FOR_ADMINS', false),
    publicDir: path.resolve(cwd, optional(env, 'PUBLIC_DIR') ?? 'dist/public'),
    entitiesDirs: dirList(env, 'ENTITIES_DIR', 'entities', cwd),
    schemasDirs: dirList(env, 'SCHEMAS_DIR', 'schemas', cwd),
    localesDirs: dirList(env, 'LOCALES_DIR', '', cwd),
  };
}
