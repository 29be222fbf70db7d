import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/config.js';
import type { LoginResponse } from '../../src/shared/api-contract.js';
import { createTestDatabase, type TestDatabase } from './databases.js';

export const ADMIN_EMAIL = 'admin@example.com';
export const ADMIN_PASSWORD = 'correct-horse-battery';

export interface TestApp {
  app: FastifyInstance;
  database: TestDatabase;
  close(): Promise<void>;
}

/** Builds the real app on a fresh database of the given kind, with a known admin and no demo data. */
export async function startTestApp(kind: 'pglite' | 'postgres', env: Record<string, string> = {}): Promise<TestApp> {
  const database = await createTestDatabase(kind);
  const config = loadConfig({
    // TEST_LOG_LEVEL=error shows the server's log of an API test (the error behind a 500, say).
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    DEMO_DATA: 'false',
    // Most API tests never ask for a first screen: its render thread starts when one does.
    FIRST_SCREEN_AT_START: 'false',
    BACKUP_INTERVAL_HOURS: '0',
    ...database.env,
    ...env,
  });
  const app = await buildApp(config, { logger: false });
  return {
    app,
    database,
    async close() {
      await app.close();
      await database.drop();
    },
  };
}

export interface Answer<T = any> {
  status: number;
  body: T;
  headers: Record<string, string | string[] | number | undefined>;
}

/**
 * Talks to an app through `inject` like a browser does: keeps the XSRF cookie and echoes it on
 * writes, and sends the access token in both headers the spec names.
 */
export class TestClient {
  xsrf = '';
  token = '';

  constructor(private readonly app: FastifyInstance) {}

  async init(): Promise<this> {
    const res = await this.app.inject({ method: 'GET', url: '/api/health' });
    const cookie = [res.headers['set-cookie']].flat().find((c) => String(c).startsWith('XSRF-TOKEN='));
    this.xsrf = String(cookie).split(';')[0]!.split('=')[1]!;
    return this;
  }

  async request<T = any>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH',
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer<T>> {
    const res = await this.app.inject({
      method,
      url,
      payload: body === undefined ? undefined : JSON.stringify(body),
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        cookie: `XSRF-TOKEN=${this.xsrf}`,
        ...(method === 'GET' ? {} : { 'x-xsrf-token': this.xsrf }),
        ...(this.token ? { authorization: `Bearer ${this.token}`, 'x-access-token': this.token } : {}),
        ...headers,
      },
    });
    let parsed: any = res.body;
    try {
      parsed = res.body ? JSON.parse(res.body) : undefined;
    } catch {
      // Not JSON: keep the text.
    }
    return { status: res.statusCode, body: parsed, headers: res.headers };
  }

  /**
   * Signs in (default: the test admin), keeps the access token for later requests and returns the
   * login body (`token`, `refreshToken`, `data`). Throws when the sign-in is refused.
   */
  async signIn(email = ADMIN_EMAIL, password = ADMIN_PASSWORD): Promise<LoginResponse> {
    const res = await this.post<LoginResponse>('/api/login', { email, password });
    if (res.status !== 200) throw new Error(`Sign-in as ${email} failed: ${res.status} ${JSON.stringify(res.body)}`);
    this.token = res.body.token;
    return res.body;
  }

  get<T = any>(url: string, headers?: Record<string, string>) {
    return this.request<T>('GET', url, undefined, headers);
  }
  post<T = any>(url: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('POST', url, body, headers);
  }
  put<T = any>(url: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('PUT', url, body, headers);
  }
  delete<T = any>(url: string, headers?: Record<string, string>) {
    return this.request<T>('DELETE', url, undefined, headers);
  }
}

/** {@link startTestApp} and a client signed in as the test admin: the set-up most API suites share. */
export async function startSignedInApp(kind: 'pglite' | 'postgres', env: Record<string, string> = {}): Promise<{ t: TestApp; client: TestClient }> {
  const t = await startTestApp(kind, env);
  const client = await new TestClient(t.app).init();
  await client.signIn();
  return { t, client };
}
