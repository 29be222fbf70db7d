import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { type CompiledQuery, Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { loadConfig } from '../../src/server/config.js';
import { createRegistry } from '../../src/server/operations/context.js';
import { list } from '../../src/server/operations/list.js';
import { loadConfiguredEntities } from '../../src/server/plugins/entities.js';
import { freePort } from '../helpers/free-port.js';

/** The admin every bench database gets (created on first start when the database has none). */
export const BENCH_ADMIN = { email: 'bench@example.com', password: 'bench-password-123' };

/** Where a bench runs: PostgreSQL at a URL, or PGlite in a data directory. */
export type BenchTarget = { kind: 'postgres'; url: string } | { kind: 'pglite'; dataDir: string };

/** Environment for `loadConfig` / the server process on a bench target. */
export function benchEnv(target: BenchTarget): Record<string, string> {
  return {
    LOG_LEVEL: 'warn',
    DEMO_DATA: 'false',
    BACKUP_INTERVAL_HOURS: '0',
    ADMIN_EMAIL: BENCH_ADMIN.email,
    ADMIN_PASSWORD: BENCH_ADMIN.password,
    ...(target.kind === 'postgres' ? { DATABASE_URL: target.url } : { DATABASE_URL: '', DATA_DIR: target.dataDir }),
  };
}

/** A real server (`dist/server/main.js`) in its own process, signed in as the bench admin. */
export interface BenchServer {
  base: string;
  headers: Record<string, string>;
  /** The bench admin's sign-in answer (`token`, `refreshToken`, `expiresIn`, `data`: the user). */
  session: { token: string; refreshToken: string; expiresIn: number; data: unknown };
  /** The server process's id (to read its memory). */
  pid: number;
  stop(): Promise<void>;
  /** Ends the process with `signal` (SIGKILL: no clean-up at all) and waits for it to exit. */
  kill(signal: NodeJS.Signals): Promise<void>;
}

/** Resolves once `child` prints `text` on its standard output; rejects if it exits first or takes over `ms`. */
export function startedWhenPrinting(child: ChildProcess, text: string, ms: number, name: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start within ${ms / 1000} s`)), ms);
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes(text)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}`)));
  });
}

/** Starts the built server on a free port against the target and signs in. */
export async function startBenchServer(target: BenchTarget, extraEnv: Record<string, string> = {}): Promise<BenchServer> {
  const port = await freePort();
  const env = { ...process.env, ...benchEnv(target), ...extraEnv, PORT: String(port), HOST: '127.0.0.1' };
  const child: ChildProcess = spawn(process.execPath, ['dist/server/main.js'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  const kill = async (signal: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    await exited;
  };
  const stop = () => kill('SIGTERM');
  try {
    await startedWhenPrinting(child, 'is running at', 300_000, 'the server');
    const base = `http://127.0.0.1:${port}`;
    const health = await fetch(`${base}/api/health`);
    const xsrf = /XSRF-TOKEN=([^;]+)/.exec(health.headers.get('set-cookie') ?? '')?.[1] ?? '';
    const res = await fetch(`${base}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: `XSRF-TOKEN=${xsrf}`, 'x-xsrf-token': xsrf },
      body: JSON.stringify(BENCH_ADMIN),
    });
    if (res.status !== 200) throw new Error(`bench sign-in failed (${res.status}); the bench database's admin must be ${BENCH_ADMIN.email}`);
    const session = (await res.json()) as BenchServer['session'];
    const { token } = session;
    // The XSRF cookie goes along as a browser's would, so the server does not mint a new one per request.
    return { base, headers: { authorization: `Bearer ${token}`, 'x-access-token': token, cookie: `XSRF-TOKEN=${xsrf}` }, session, pid: child.pid!, stop, kill };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * The top plan node of every query one list request runs (`categories: Limit → Index Scan ...`),
 * flagging any sequential scan. Runs the real list operation against the target to capture its
 * SQL, then EXPLAINs each statement (PGlite: on a copy opened while the server is stopped).
 */
export async function listPlans(target: BenchTarget, entityName: string, query: Record<string, string>): Promise<string[]> {
  const compiled: CompiledQuery[] = [];
  let explain: (sql: string, parameters: readonly unknown[]) => Promise<unknown>;
  let close: () => Promise<void>;
  let db: Kysely<any>;
  if (target.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: target.url, max: 1 });
    db = new Kysely<any>({ dialect: new PostgresDialect({ pool }), log: (event) => void compiled.push(event.query) });
    explain = async (sql, parameters) => (await pool.query(`explain (format json) ${sql}`, parameters as unknown[])).rows[0]['QUERY PLAN'];
    close = () => db.destroy();
  } else {
    const pglite = await PGlite.create({ dataDir: `${target.dataDir}/pglite`, extensions: { pg_trgm } });
    const { PglitePool } = await import('../../src/server/db/pglite-pool.js');
    db = new Kysely<any>({ dialect: new PostgresDialect({ pool: new PglitePool(pglite) }), log: (event) => void compiled.push(event.query) });
    explain = async (sql, parameters) => {
      const rows = (await pglite.query<Record<string, unknown>>(`explain (format json) ${sql}`, parameters as unknown[])).rows;
      const value = rows[0]!['QUERY PLAN'];
      return typeof value === 'string' ? JSON.parse(value) : value;
    };
    close = async () => {
      await db.destroy();
      await pglite.close();
    };
  }
  try {
    const registry = createRegistry(loadConfiguredEntities(loadConfig({})));
    await list(registry.byName.get(entityName)!, { query }, { db, registry });
    const lines: string[] = [];
    for (const q of compiled) {
      const plan = ((await explain(q.sql, q.parameters)) as Array<{ Plan: Record<string, unknown> }>)[0]!.Plan;
      const scans: string[] = [];
      const walk = (node: Record<string, unknown>) => {
        if (node['Relation Name']) {
          const kind = node['Node Type'] === 'Seq Scan' ? 'SEQ SCAN' : String(node['Node Type']);
          scans.push(`${kind} on ${String(node['Relation Name'])}${node['Index Name'] ? ` using ${String(node['Index Name'])}` : ''}`);
        }
        for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
      };
      walk(plan);
      const table = /from "?(\w+)"?/i.exec(q.sql)?.[1] ?? '?';
      lines.push(`${table}: top ${String(plan['Node Type'])}; ${scans.join(', ') || 'no table scan'}`);
    }
    return lines;
  } finally {
    await close();
  }
}

/** The resident memory of process `pid` in MB, from /proc (0 once the process has gone). */
export function rssMb(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}
