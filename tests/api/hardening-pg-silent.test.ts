import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { createTestDatabase, postgresUrl } from '../helpers/databases.js';
import { startTestApp, TestClient } from '../helpers/test-app.js';

// Issue 29, finding 8: when PostgreSQL went silent, a request that took a connection the pool
// already held waited for the client's query timeout (32 s) before its 503; one that needed a new
// connection got it in 2 s. The pool now probes a silent server and closes the waiting connections.

/** A TCP proxy to PostgreSQL that can stop passing bytes either way while keeping every socket open. */
async function silenceableProxy(target: URL) {
  let silent = false;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => sockets.delete(socket));
    }
    client.on('data', (chunk) => void (silent || upstream.write(chunk)));
    upstream.on('data', (chunk) => void (silent || client.write(chunk)));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    set silent(value: boolean) {
      silent = value;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe.skipIf(!postgresUrl)('PostgreSQL going silent under held connections', () => {
  // Before: DB_QUERY_TIMEOUT_MS (10 minutes here) + 2 s for the 503, far past the test's limit;
  // now the watch notices the silence and its probe confirms it (about 10 s).
  it('answers 503 soon to a request on a connection the pool already held', async () => {
    const database = await createTestDatabase('postgres');
    const real = new URL(database.env.DATABASE_URL!);
    const proxy = await silenceableProxy(real);
    const viaProxy = new URL(real);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    const t = await startTestApp('postgres', { DATABASE_URL: viaProxy.toString(), DB_QUERY_TIMEOUT_MS: '600000' });
    try {
      const client = await new TestClient(t.app).init();
      await client.signIn();
      // Connections are open and idle in the pool.
      expect((await client.post('/api/categories', { name: 'Before Silence', description: 'Hardening test category', status: 'active' })).status).toBe(201);
      proxy.silent = true;
      const answer = await client.post('/api/categories', { name: 'During Silence', description: 'Hardening test category', status: 'active' });
      expect(answer.status).toBe(503);
      expect(answer.body.code).toBe('UNAVAILABLE');
      proxy.silent = false;
    } finally {
      proxy.silent = false;
      await proxy.close();
      await t.close().catch(() => undefined);
      await database.drop();
    }
  }, 120_000);
});
