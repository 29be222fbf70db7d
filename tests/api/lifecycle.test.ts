import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { acquireDataDirLock, DataDirLockedError } from '../../src/server/data-dir-lock.js';
import { openDatabase } from '../../src/server/db/kysely.js';
import { freePort } from '../helpers/free-port.js';

// Real server processes from dist/ (`npm test` builds first; run `node build.mjs` before a targeted run).
const MAIN = path.resolve('dist/server/main.js');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-lifecycle-'));
const children = new Set<ChildProcess>();

afterEach(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  children.clear();
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

interface Server {
  child: ChildProcess;
  port: number;
  output: () => string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

async function spawnServer(dataDir: string, env: Record<string, string> = {}): Promise<Server> {
  const port = await freePort();
  const child = spawn(process.execPath, [MAIN], {
    env: {
      PATH: process.env.PATH,
      DATA_DIR: dataDir,
      PORT: String(port),
      ADMIN_EMAIL: 'admin@example.com',
      ADMIN_PASSWORD: 'correct-horse-battery',
      DEMO_DATA: 'false',
      BACKUP_INTERVAL_HOURS: '0',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, port, output: () => output, exit };
}

async function untilListening(server: Server, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!server.output().includes('is running at')) {
    if (server.child.exitCode !== null) throw new Error(`The server exited early:\n${server.output()}`);
    if (Date.now() > deadline) throw new Error(`The server did not start in ${timeoutMs} ms:\n${server.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** PostgreSQL's pg_control `state`: 1 = shut down cleanly, 6 = in production (not closed). */
function clusterState(dataDir: string): number {
  return fs.readFileSync(path.join(dataDir, 'pglite', 'global', 'pg_control')).readUInt32LE(16);
}

async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

describe('server lifecycle on a PGlite data directory', { timeout: 150_000 }, () => {
  const dataDir = path.join(tmp, 'shared');

  it('refuses a second server on a locked DATA_DIR and says why', async () => {
    const first = await spawnServer(dataDir);
    await untilListening(first);
    const lock = JSON.parse(fs.readFileSync(path.join(dataDir, 'server.lock'), 'utf8'));
    expect(lock.pid).toBe(first.child.pid);

    const second = await spawnServer(dataDir);
    const { code } = await second.exit;
    expect(code).toBe(1);
    expect(second.output()).toContain(`Awards Console could not start: Another Awards Console server (process ${first.child.pid}`);
    expect(second.output()).toContain(`is using the data directory ${dataDir}`);
    expect(second.output()).toMatch(/stop the other server, or set DATA_DIR/);
    // The refused server left the first one's lock and database alone.
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, 'server.lock'), 'utf8')).pid).toBe(first.child.pid);
    const health = await fetch(`http://127.0.0.1:${first.port}/api/health`);
    expect(health.status).toBe(200);

    first.child.kill('SIGTERM');
    expect(await first.exit).toEqual({ code: 0, signal: null });
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('closes PGlite cleanly on %s: exit code 0, lock released, the directory reopens', async (signal) => {
    const server = await spawnServer(dataDir);
    await untilListening(server);
    expect(clusterState(dataDir)).not.toBe(1);
    server.child.kill(signal);
    expect(await server.exit).toEqual({ code: 0, signal: null });
    expect(fs.existsSync(path.join(dataDir, 'server.lock'))).toBe(false);
    expect(clusterState(dataDir)).toBe(1);

    const database = await openDatabase({ pgliteDir: path.join(dataDir, 'pglite') });
    try {
      const users = await database.db.selectFrom('users').select('email').execute();
      expect(users.map((u) => u.email)).toContain('admin@example.com');
    } finally {
      await database.close();
    }
  });

  it('closes cleanly when stopped while it is still starting', async () => {
    const dir = path.join(tmp, 'early-stop');
    const server = await spawnServer(dir);
    // Signal as soon as the database folder appears: the server is opening or migrating it.
    while (!fs.existsSync(path.join(dir, 'server.lock'))) await new Promise((resolve) => setTimeout(resolve, 10));
    await new Promise((resolve) => setTimeout(resolve, 200));
    server.child.kill('SIGTERM');
    const { code, signal } = await server.exit;
    expect({ code, signal, output: server.output() }).toMatchObject({ code: 0, signal: null });
    expect(fs.existsSync(path.join(dir, 'server.lock'))).toBe(false);
    expect(clusterState(dir)).toBe(1);
  });

  it('takes over a stale lock left by a process that no longer runs', async () => {
    const pid = await deadPid();
    fs.writeFileSync(path.join(dataDir, 'server.lock'), JSON.stringify({ pid, host: os.hostname(), startedAt: '2020-01-01T00:00:00.000Z' }));
    const server = await spawnServer(dataDir);
    await untilListening(server);
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, 'server.lock'), 'utf8')).pid).toBe(server.child.pid);
    server.child.kill('SIGTERM');
    expect((await server.exit).code).toBe(0);
  });

  it('serves the console on first start and prints credentials that sign in through the API', async () => {
    const dir = path.join(tmp, 'fresh');
    // As on a fresh clone: no ADMIN_EMAIL / ADMIN_PASSWORD, default demo data.
    const server = await spawnServer(dir, { ADMIN_EMAIL: '', ADMIN_PASSWORD: '', DEMO_DATA: '' });
    await untilListening(server);
    const printed = /sign in as (\S+) with password (\S+)/.exec(server.output());
    expect(printed, server.output()).not.toBeNull();
    const [, email, password] = printed!;
    expect(server.output()).toContain(`Awards Console is running at http://localhost:${server.port}`);

    const page = await fetch(`http://127.0.0.1:${server.port}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const xsrf = /XSRF-TOKEN=([^;]+)/.exec(page.headers.get('set-cookie') ?? '')?.[1] ?? '';
    const login = await fetch(`http://127.0.0.1:${server.port}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: `XSRF-TOKEN=${xsrf}`, 'x-xsrf-token': xsrf },
      body: JSON.stringify({ email, password }),
    });
    expect(login.status).toBe(200);
    expect(((await login.json()) as { data: { email: string } }).data.email).toBe(email);

    server.child.kill('SIGTERM');
    expect((await server.exit).code).toBe(0);
  });

  it('fails fast with the variable and the accepted values when the configuration is wrong', async () => {
    const server = await spawnServer(path.join(tmp, 'bad-config'), { PORT: 'eighty' });
    expect((await server.exit).code).toBe(1);
    expect(server.output()).toContain('Awards Console could not start: PORT must be a whole number from 0 to 65535; got "eighty".');
  });
});

describe('data directory lock', () => {
  it('refuses a second holder while the first is alive, and frees the directory on release', () => {
    const dir = path.join(tmp, 'in-process');
    const release = acquireDataDirLock(dir);
    expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
    release();
    expect(fs.existsSync(path.join(dir, 'server.lock'))).toBe(false);
    acquireDataDirLock(dir)();
  });

  it('treats a lock naming this very pid as stale when this process does not hold it (pid reused after a restart)', () => {
    const dir = path.join(tmp, 'reused-pid');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'server.lock'), JSON.stringify({ pid: process.pid, host: os.hostname(), startedAt: '2020-01-01T00:00:00.000Z' }));
    const release = acquireDataDirLock(dir);
    expect(JSON.parse(fs.readFileSync(path.join(dir, 'server.lock'), 'utf8')).startedAt).not.toBe('2020-01-01T00:00:00.000Z');
    release();
  });

  it('says which command holds the lock when it is not a server', () => {
    const dir = path.join(tmp, 'purpose');
    const release = acquireDataDirLock(dir, 'backup');
    try {
      fs.writeFileSync(
        path.join(dir, 'server.lock'),
        fs.readFileSync(path.join(dir, 'server.lock'), 'utf8').replace(`"pid":${process.pid}`, `"pid":${process.ppid}`),
      );
      expect(() => acquireDataDirLock(dir)).toThrow(/Another Awards Console npm run backup \(process \d+/);
    } finally {
      fs.rmSync(path.join(dir, 'server.lock'), { force: true });
      release();
    }
  });

  it('refuses a lock held on another host, naming the file to delete if that server is gone', () => {
    const dir = path.join(tmp, 'other-host');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'server.lock'), JSON.stringify({ pid: 1, host: 'elsewhere', startedAt: '2020-01-01T00:00:00.000Z' }));
    expect(() => acquireDataDirLock(dir)).toThrow(/locked by a server on host elsewhere.*delete .*server\.lock/);
  });
});
