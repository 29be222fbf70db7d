import net from 'node:net';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/config.js';
import { createTestDatabase, postgresUrl, type TestDatabase } from '../helpers/databases.js';
import { ADMIN_EMAIL, ADMIN_PASSWORD, TestClient } from '../helpers/test-app.js';

const CONNECT_TIMEOUT_MS = 1000;
const QUERY_TIMEOUT_MS = 1500;

/** A TCP proxy in front of PostgreSQL that can be cut (refusing), frozen (accepting, never answering) and restored. */
class PgProxy {
  private server?: net.Server;
  private readonly sockets = new Set<net.Socket>();
  mode: 'pass' | 'freeze' = 'pass';
  /** Open connections stay open but carry nothing either way: a frozen network, not a refusal. */
  silent = false;
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async listen(port = 0): Promise<void> {
    const server = net.createServer((client) => {
      this.sockets.add(client);
      client.on('close', () => this.sockets.delete(client));
      client.on('error', () => client.destroy());
      if (this.mode === 'freeze') return; // Accept and never answer: a connect that hangs.
      const upstream = net.connect(this.target.port, this.target.host);
      this.sockets.add(upstream);
      upstream.on('close', () => this.sockets.delete(upstream));
      upstream.on('error', () => client.destroy());
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
      // Forwarded by hand, so that silence() can stop the traffic on open connections.
      client.on('data', (chunk) => void (this.silent || upstream.write(chunk)));
      upstream.on('data', (chunk) => void (this.silent || client.write(chunk)));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.port = (server.address() as net.AddressInfo).port;
  }

  /** Stops listening and drops every connection, as a crashed or unreachable server would. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    if (server) await new Promise((resolve) => server.close(resolve));
  }
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  const value = await work();
  return { value, ms: Date.now() - started };
}

async function eventually(check: () => Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
}

const suite = postgresUrl ? describe : describe.skip;
if (!postgresUrl) process.stdout.write('Unavailable-database tests skipped: TEST_DATABASE_URL is not set (CI always sets it).\n');

suite('PostgreSQL unreachable', () => {
  let database: TestDatabase;
  let proxy: PgProxy;
  let app: FastifyInstance;
  let client: TestClient;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    const direct = new URL(database.env.DATABASE_URL!);
    proxy = new PgProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    await proxy.listen();
    const viaProxy = new URL(direct);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    const config = loadConfig({
      DATABASE_URL: viaProxy.toString(),
      DATA_DIR: ':memory:',
      DB_CONNECT_TIMEOUT_MS: String(CONNECT_TIMEOUT_MS),
      DB_QUERY_TIMEOUT_MS: String(QUERY_TIMEOUT_MS),
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      DEMO_DATA: 'false',
      LOG_LEVEL: 'silent',
    });
    app = await buildApp(config, { logger: false });
    client = await new TestClient(app).init();
    await client.signIn();
  });
  afterAll(async () => {
    await proxy?.cut();
    await app?.close();
    await database?.drop();
  });

  const expectUnavailable = (res: { status: number; body: any; headers: Record<string, unknown> }) => {
    expect(res.status).toBe(503);
    expect(res.body.code).toBe('UNAVAILABLE');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(JSON.stringify(res.body)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|stack/);
  };

  it('answers 503 UNAVAILABLE with Retry-After while the connection is refused, then recovers by itself', async () => {
    expect((await client.get('/api/auth/me')).status).toBe(200);
    const port = proxy.port;
    await proxy.cut();

    const health = await timed(() => client.get('/api/health'));
    expectUnavailable(health.value);
    expect(health.value.body.database).toBe('down');
    expect(health.ms).toBeLessThan(CONNECT_TIMEOUT_MS + 3000);

    const me = await timed(() => client.get('/api/auth/me'));
    expectUnavailable(me.value);
    expect(me.ms).toBeLessThan(CONNECT_TIMEOUT_MS + 3000);

    const login = await client.post('/api/login', { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    expectUnavailable(login);

    // More requests than the pool has connections: each still gets its answer, none hangs.
    const burst = await timed(() => Promise.all(Array.from({ length: 25 }, () => client.get('/api/auth/me'))));
    for (const res of burst.value) expectUnavailable(res);
    expect(burst.ms).toBeLessThan(3 * CONNECT_TIMEOUT_MS + 5000);

    await proxy.listen(port);
    expect(await eventually(async () => (await client.get('/api/health')).status === 200, 10_000)).toBe(true);
    expect((await client.get('/api/auth/me')).status).toBe(200);
  });

  it('bounds the wait by DB_CONNECT_TIMEOUT_MS when connections hang instead of being refused', async () => {
    const port = proxy.port;
    await proxy.cut();
    proxy.mode = 'freeze';
    await proxy.listen(port);

    const results = await timed(() => Promise.all([client.get('/api/health'), client.get('/api/auth/me'), client.get('/api/auth/me')]));
    for (const res of results.value) expectUnavailable(res);
    // One connect timeout, plus a second for requests that waited in the pool queue behind it.
    expect(results.ms).toBeLessThan(2 * CONNECT_TIMEOUT_MS + 4000);

    await proxy.cut();
    proxy.mode = 'pass';
    await proxy.listen(port);
    expect(await eventually(async () => (await client.get('/api/auth/me')).status === 200, 10_000)).toBe(true);
  });

  it('gives up on a database that goes silent mid-query with 503, and recovers when it answers again', async () => {
    expect((await client.get('/api/categories')).status).toBe(200);
    proxy.silent = true;
    const hung = await timed(() => Promise.all([client.get('/api/categories'), client.get('/api/categories?page=2')]));
    proxy.silent = false;
    for (const res of hung.value) expectUnavailable(res);
    // The client-side limit is the statement limit plus a 2 s margin; before, this waited for ever.
    expect(hung.ms).toBeLessThan(QUERY_TIMEOUT_MS + 2000 + 4000);
    expect(await eventually(async () => (await client.get('/api/categories')).status === 200, 10_000)).toBe(true);
  });

  it('answers a statement stopped by statement_timeout with 503 UNAVAILABLE and Retry-After, not 500', async () => {
    const locker = new pg.Client({ connectionString: database.env.DATABASE_URL });
    await locker.connect();
    try {
      await locker.query('begin');
      await locker.query('lock table categories in access exclusive mode');
      // A search no list answer is cached for, so the table itself is read.
      const res = await timed(() => client.get(`/api/categories?search=locked-${Date.now()}`));
      expectUnavailable(res.value);
      expect(res.ms).toBeLessThan(QUERY_TIMEOUT_MS + 4000);
    } finally {
      await locker.query('rollback');
      await locker.end();
    }
    expect((await client.get('/api/categories')).status).toBe(200);
  });
});
