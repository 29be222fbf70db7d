import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/kysely.js';
import { freePort } from '../helpers/free-port.js';

// kill -9 a real server (dist/server/main.js) on PGlite while it acknowledges writes, restart it
// on the same DATA_DIR, and check that nothing acknowledged was lost. CI runs this on every push.
// At least 20 rounds (the bar); DURABILITY_ROUNDS may ask for more.
const ROUNDS = Math.max(20, Number(process.env.DURABILITY_ROUNDS) || 20);
const MAIN = path.resolve('dist/server/main.js');
const ADMIN = { email: 'admin@example.com', password: 'correct-horse-battery' };
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ac-durability-'));
let child: ChildProcess | undefined;

afterAll(() => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Starts the server and resolves once it listens; rejects with its output if it exits instead. */
async function start(port: number): Promise<{ process: ChildProcess; exit: Promise<number | null>; startMs: number; output: () => string }> {
  const started = Date.now();
  const proc = spawn(process.execPath, [MAIN], {
    env: {
      PATH: process.env.PATH,
      DATA_DIR: dataDir,
      PORT: String(port),
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      DEMO_DATA: 'false',
      BACKUP_INTERVAL_HOURS: '0',
      // Twenty-one starts: none needs the first-screen render thread warming beside its writes.
      FIRST_SCREEN_AT_START: 'false',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child = proc;
  let output = '';
  proc.stdout!.on('data', (chunk) => (output += chunk));
  proc.stderr!.on('data', (chunk) => (output += chunk));
  const exit = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + 120_000;
  while (!output.includes('is running at')) {
    if (proc.exitCode !== null) throw new Error(`The server did not restart cleanly:\n${output}`);
    if (Date.now() > deadline) throw new Error(`The server did not start within 120 s:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { process: proc, exit, startMs: Date.now() - started, output: () => output };
}

describe('durability of acknowledged writes on PGlite', () => {
  it(`keeps every acknowledged write across ${ROUNDS} kill -9 restarts`, { timeout: 600_000 }, async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}/api`;
    let server = await start(port);

    const health = await fetch(`${base}/health`);
    const xsrf = /XSRF-TOKEN=([^;]+)/.exec(health.headers.get('set-cookie') ?? '')?.[1];
    expect(xsrf).toBeTruthy();
    const headers = { 'content-type': 'application/json', cookie: `XSRF-TOKEN=${xsrf}`, 'x-xsrf-token': xsrf! };
    const login = await fetch(`${base}/login`, { method: 'POST', headers, body: JSON.stringify(ADMIN) });
    expect(login.status).toBe(200);
    // The signing key and the session are on disk, so the token outlives every restart below.
    const { token } = (await login.json()) as { token: string };
    const authed = { ...headers, authorization: `Bearer ${token}`, 'x-access-token': token };

    const acknowledged: string[] = [];
    const startTimes: number[] = [];
    let sequence = 0;
    const register = (email: string) =>
      fetch(`${base}/auth/register`, {
        method: 'POST',
        headers: authed,
        body: JSON.stringify({ name: `Durable ${email.split('@')[0]}`, email, password: 'durable-password-1' }),
      });

    for (let round = 1; round <= ROUNDS; round++) {
      const roundAcks: string[] = [];
      let killed = false;
      const failures: string[] = [];
      const writer = async () => {
        while (!killed && failures.length === 0) {
          const email = `durable-${round}-${++sequence}@example.com`;
          try {
            const res = await register(email);
            if (res.status === 201) {
              roundAcks.push(email);
              acknowledged.push(email);
            } else if (!killed) {
              failures.push(`POST /api/auth/register answered ${res.status}: ${await res.text()}`);
            }
          } catch (error) {
            // A request cut by the kill is not acknowledged; anything before the kill is a failure.
            if (!killed) failures.push(`POST /api/auth/register failed: ${(error as Error).message}`);
          }
        }
      };
      const writers = [writer(), writer(), writer(), writer()];
      // Kill at a random moment once at least one write of this round has been acknowledged.
      const delay = 100 + Math.floor(Math.random() * 900);
      const deadline = Date.now() + 60_000;
      while (roundAcks.length === 0 && failures.length === 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
      server.process.kill('SIGKILL');
      killed = true;
      await server.exit;
      await Promise.all(writers);
      expect(failures).toEqual([]);
      expect(roundAcks.length).toBeGreaterThan(0);

      // The restart must take over the stale lock and recover the database by itself.
      server = await start(port);
      startTimes.push(server.startMs);

      // The writes acknowledged last, just before the kill, are the ones most at risk: each is
      // already there, so registering it again is refused as a duplicate.
      for (const email of roundAcks.slice(-10)) {
        // A server that stopped after starting says why (its exit code and output) rather than 'fetch failed'.
        const again = await register(email).catch((error: Error) => {
          throw new Error(`${error.message} (${error.cause ?? ''}); server exit code ${server.process.exitCode}, output:\n${server.output().slice(-4000)}`);
        });
        expect({ email, status: again.status }).toEqual({ email, status: 409 });
      }
    }

    server.process.kill('SIGTERM');
    expect(await server.exit).toBe(0);
    const database = await openDatabase({ pgliteDir: path.join(dataDir, 'pglite') });
    try {
      const rows = await database.db.selectFrom('users').select('email').where('email', 'like', 'durable-%').execute();
      const stored = new Set(rows.map((r) => r.email));
      const missing = acknowledged.filter((email) => !stored.has(email));
      expect(missing).toEqual([]);
    } finally {
      await database.close();
    }
    const sorted = [...startTimes].sort((a, b) => a - b);
    process.stdout.write(
      `Durability: ${acknowledged.length} acknowledged writes over ${ROUNDS} kill -9 rounds, none lost; ` +
        `restart after kill -9 took ${sorted[0]}-${sorted.at(-1)} ms (median ${sorted[Math.floor(sorted.length / 2)]} ms).\n`,
    );
  });
});
