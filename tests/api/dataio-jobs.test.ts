import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, postgresUrl, type TestDatabase } from '../helpers/databases.js';
import { freePort } from '../helpers/free-port.js';

// Import jobs across real server processes (dist/server/main.js; run `node build.mjs` first):
// a server killed with SIGKILL in the middle of an import's writes leaves none of its rows (PGlite
// and PostgreSQL), and with two servers on one PostgreSQL a job started on one is seen, and
// cancelled, from the other.
const MAIN = path.resolve('dist/server/main.js');
const ADMIN = { email: 'admin@example.com', password: 'correct-horse-battery' };
const ROWS = 150_000;
const children = new Set<ChildProcess>();
const dirs: string[] = [];
const databases: TestDatabase[] = [];

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  for (const database of databases) await database.drop();
});

interface Server {
  headers: Record<string, string>;
  /** GET `url`'s answer, or null when none came within `ms`. */
  answers(url: string, ms: number): Promise<{ data: Record<string, any> } | null>;
  request(method: string, url: string, body?: unknown, type?: string): Promise<{ status: number; body: any }>;
  kill(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts a server on `env` (DATA_DIR or DATABASE_URL), waits until it listens, and signs in, or
 * uses the session of `signedIn` (an account has one session: a second sign-in ends the first).
 */
async function start(env: Record<string, string>, signedIn?: Server): Promise<Server> {
  const port = await freePort();
  const proc = spawn(process.execPath, [MAIN], {
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      HOST: '127.0.0.1',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      DEMO_DATA: 'false',
      BACKUP_INTERVAL_HOURS: '0',
      FIRST_SCREEN_AT_START: 'false',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(proc);
  let output = '';
  proc.stdout!.on('data', (chunk) => (output += chunk));
  proc.stderr!.on('data', (chunk) => (output += chunk));
  const deadline = Date.now() + 120_000;
  while (!output.includes('is running at')) {
    if (proc.exitCode !== null) throw new Error(`The server exited:\n${output}`);
    if (Date.now() > deadline) throw new Error(`The server did not start within 120 s:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const base = `http://127.0.0.1:${port}/api`;
  let headers: Record<string, string>;
  if (signedIn) headers = signedIn.headers;
  else {
    const health = await fetch(`${base}/health`);
    const xsrf = /XSRF-TOKEN=([^;]+)/.exec(health.headers.get('set-cookie') ?? '')?.[1] ?? '';
    headers = { cookie: `XSRF-TOKEN=${xsrf}`, 'x-xsrf-token': xsrf };
    const login = await fetch(`${base}/login`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
    expect(login.status, output).toBe(200);
    const { token } = (await login.json()) as { token: string };
    Object.assign(headers, { authorization: `Bearer ${token}`, 'x-access-token': token });
  }
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  return {
    headers,
    async answers(url, ms) {
      try {
        const res = await fetch(`${base}${url}`, { headers, signal: AbortSignal.timeout(ms) });
        return (await res.json()) as { data: Record<string, any> };
      } catch (error) {
        if ((error as Error).name === 'TimeoutError') return null;
        throw error;
      }
    },
    async request(method, url, body, type = 'application/json') {
      const res = await fetch(`${base}${url}`, {
        method,
        headers: body === undefined ? headers : { ...headers, 'content-type': type },
        body: body === undefined ? undefined : Buffer.isBuffer(body) ? new Uint8Array(body) : JSON.stringify(body),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    },
    async kill() {
      proc.kill('SIGKILL');
      await exited;
    },
    async stop() {
      proc.kill('SIGTERM');
      await exited;
    },
  };
}

/** A companies file of `ROWS` rows whose names carry `tag`. */
const companiesFile = (tag: string) => {
  const lines = ['Name,Active'];
  for (let n = 0; n < ROWS; n++) lines.push(`${tag} company ${n},true`);
  return Buffer.from(`${lines.join('\n')}\n`);
};

/** Uploads and starts an import of companies on `server`; answers the job's id. */
async function startImport(server: Server, tag: string): Promise<number> {
  const upload = await server.request('POST', `/imports?entity=company&filename=${tag}.csv`, companiesFile(tag), 'application/octet-stream');
  expect(upload.status, JSON.stringify(upload.body)).toBe(201);
  const started = await server.request('POST', `/imports/${upload.body.data.id}/start`, { mapping: ['name', 'is_active'] });
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  return upload.body.data.id as number;
}

/** Polls a job on `server` until `until` holds for it (or its import ended); answers the last view. */
async function watch(server: Server, id: number, until: (job: Record<string, any>) => boolean, seconds = 240): Promise<Record<string, any>> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const res = await server.request('GET', `/imports/${id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    if (until(res.body.data) || res.body.data.status !== 'running' || Date.now() > deadline) return res.body.data;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** How many companies named with `tag`, through the list's search. */
async function companiesTagged(server: Server, tag: string): Promise<number> {
  const res = await server.request('GET', `/companies?search=${encodeURIComponent(tag)}&per_page=1`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.meta.total as number;
}

const writing = (job: Record<string, any>) => job.phase === 'writing' && job.done_rows > 0;

describe('a server killed in the middle of an import', () => {
  it('on PGlite leaves none of its rows, and the restarted server shows the job interrupted', { timeout: 600_000 }, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-import-kill-'));
    dirs.push(dataDir);
    const server = await start({ DATA_DIR: dataDir, DATABASE_URL: '' });
    const id = await startImport(server, 'pglitekill');
    // The job's status comes from the server's memory while it runs there, so it answers during
    // the write transaction (which holds PGlite's one connection); should an answer still be held
    // up for a second, the writes are under way too. Either way the server is killed mid-write.
    for (;;) {
      const answer = await server.answers(`/imports/${id}`, 1000);
      if (answer === null || writing(answer.data)) break;
      expect(answer.data.status, 'the import must still be running when the server is killed').toBe('running');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await server.kill();
    const restarted = await start({ DATA_DIR: dataDir, DATABASE_URL: '' });
    expect(await companiesTagged(restarted, 'pglitekill')).toBe(0);
    const job = await restarted.request('GET', `/imports/${id}`);
    expect(job.body.data).toMatchObject({ status: 'failed', error: 'dataio.import.errors.interrupted', created_rows: 0 });
    await restarted.stop();
  });

  it.skipIf(!postgresUrl)(
    'on PostgreSQL leaves none of its rows; another server shows the job interrupted once its heartbeat stops',
    { timeout: 600_000 },
    async () => {
      const database = await createTestDatabase('postgres');
      databases.push(database);
      const a = await start(database.env);
      const b = await start(database.env, a);
      const id = await startImport(a, 'pgkill');
      // Seen from B: the progress is in the job's row.
      const seen = await watch(b, id, writing);
      expect(seen, 'the import must still be writing when the server is killed').toMatchObject({ status: 'running', phase: 'writing' });
      await a.kill();
      expect(await companiesTagged(b, 'pgkill')).toBe(0);
      const after = await watch(b, id, () => false, 60);
      expect(after).toMatchObject({ status: 'failed', error: 'dataio.import.errors.interrupted', created_rows: 0 });
      expect(await companiesTagged(b, 'pgkill')).toBe(0);
      await b.stop();
    },
  );
});

describe.skipIf(!postgresUrl)('two servers on one PostgreSQL', () => {
  it('a job started on one is followed, cancelled and seen done from the other', { timeout: 600_000 }, async () => {
    const database = await createTestDatabase('postgres');
    databases.push(database);
    const a = await start(database.env);
    const b = await start(database.env, a);

    const cancelled = await startImport(a, 'twocancel');
    const running = await watch(b, cancelled, (job) => job.phase === 'checking' || writing(job));
    expect(running).toMatchObject({ status: 'running', total_rows: ROWS });
    expect(['checking', 'writing']).toContain(running.phase);
    // One running import per entity, whichever server is asked.
    const second = await b.request('POST', '/imports?entity=company&filename=x.csv', Buffer.from('Name\nX\n'), 'application/octet-stream');
    expect((await b.request('POST', `/imports/${second.body.data.id}/start`, { mapping: ['name'] })).status).toBe(409);
    const cancel = await b.request('POST', `/imports/${cancelled}/cancel`);
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    expect(cancel.body.data.status).toBe('cancelled');
    expect((await a.request('GET', `/imports/${cancelled}`)).body.data.status).toBe('cancelled');
    expect(await companiesTagged(a, 'twocancel')).toBe(0);

    const done = await startImport(a, 'twodone');
    const end = await watch(b, done, () => false, 400);
    expect(end).toMatchObject({ status: 'done', created_rows: ROWS, phase: null });
    expect(await companiesTagged(b, 'twodone')).toBe(ROWS);
    await a.stop();
    await b.stop();
  });
});
