import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toOpenApiPath } from '../../src/server/openapi/build-document.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { startSignedInApp, type TestApp, TestClient } from '../helpers/test-app.js';
import { allEntities, ENTITY_ENV } from './entities-helpers.js';

/** Every method and path Fastify has under /api, read from its route tree (HEAD and OPTIONS aside). */
function registeredRoutes(tree: string): string[] {
  const stack: string[] = [];
  const found = new Set<string>();
  for (const line of tree.split('\n')) {
    const match = /^([│ ]*)[├└]── (.+?) \(([^)]*)\)$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    const path = (depth > 0 ? stack[depth - 1]! : '') + match[2]!;
    stack[depth] = path;
    for (const method of match[3]!.split(',').map((m) => m.trim())) {
      if (['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(method) && path.startsWith('/api/')) found.add(`${method} ${toOpenApiPath(path)}`);
    }
  }
  return [...found].sort();
}

describe.each(testDatabaseKinds().slice(0, 1))('the API describes itself (%s)', (kind) => {
  let t: TestApp;
  let client: TestClient;
  let doc: any;

  beforeAll(async () => {
    ({ t, client } = await startSignedInApp(kind, ENTITY_ENV));
    const anonymous = await new TestClient(t.app).init();
    const res = await anonymous.get('/api/openapi.json');
    expect(res.status).toBe(200);
    doc = res.body;
  });
  afterAll(async () => t?.close());

  it('serves a valid OpenAPI 3.1 document without signing in', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('lists every registered route, each once, and nothing else', () => {
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
      .flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`))
      .sort();
    // Left out with `config: { openapi: false }`: the viewer's script (a static file of /api/docs) and
    // the actions no role may perform (they answer 405, see route-schemas.test.ts).
    const leftOut = new Set(
      t.app.apiRoutes
        .filter((route) => route.config?.openapi === false)
        .flatMap((route) => [route.method].flat().map((method) => `${method.toUpperCase()} ${toOpenApiPath(route.url)}`)),
    );
    expect(leftOut).toContain('GET /api/docs/redoc.standalone.js');
    expect(leftOut).toContain('POST /api/contests');
    const registered = registeredRoutes(t.app.printRoutes({ commonPrefix: false })).filter((route) => !leftOut.has(route));
    expect(registered.length).toBeGreaterThan(40);
    expect(documented).toEqual(registered);
  });

  it('describes every entity operation from its descriptor: parameters, bodies, responses, If-Match', () => {
    for (const entity of allEntities) {
      const d = entity.descriptor;
      const collection = doc.paths[`/api/${d.endpoint}`];
      const item = doc.paths[`/api/${d.endpoint}/{id}`];
      const list = collection.get;
      expect(list.tags).toEqual([d.endpoint]);
      const names = list.parameters.map((p: any) => p.name);
      expect(names).toEqual(expect.arrayContaining(['page', 'per_page', 'sort', 'direction', ...d.list.filters.map((f) => f.param)]));
      expect(names.includes('search')).toBe(d.list.search.length > 0);
      expect(list.parameters.find((p: any) => p.name === 'sort').schema.enum).toEqual(expect.arrayContaining(d.list.sorts));
      if (d.permissions.list.length) {
        const record = list.responses['200'].content['application/json'].schema.properties.data.items;
        // Write-only fields (a customer's password) never appear in an answer.
        for (const [field, property] of Object.entries(entity.schema.properties ?? {})) {
          if (property.writeOnly || d.virtual.includes(field)) expect(record.properties[field]).toBeUndefined();
          else expect(record.properties[field]).toBeDefined();
        }
      }
      expect(item.get.parameters.find((p: any) => p.name === 'id')).toMatchObject({ in: 'path', required: true, schema: { type: 'integer', minimum: 1 } });
      if (d.permissions.create.length) {
        expect(collection.post.requestBody.content['application/json'].schema).toEqual(JSON.parse(JSON.stringify(entity.createSchema)));
        expect(collection.post.responses['201']).toBeDefined();
        expect(collection.post.security).toEqual([
          { bearerAuth: [], xsrfHeader: [], xsrfCookie: [] },
          { accessToken: [], xsrfHeader: [], xsrfCookie: [] },
        ]);
      }
      if (d.permissions.update.length) {
        expect(item.put.parameters.map((p: any) => `${p.in} ${p.name}`)).toEqual(['path id', 'header if-match']);
        expect(item.put.requestBody.content['application/json'].schema).toEqual(JSON.parse(JSON.stringify(entity.updateSchema)));
        expect(item.put.responses['409'].content['application/json'].schema.properties.data).toBeDefined();
      }
      // An action no role may perform answers 405 and is no operation of the document.
      expect(item.delete === undefined, `DELETE /api/${d.endpoint}/{id}`).toBe(d.permissions.delete.length === 0);
      expect(collection.post === undefined, `POST /api/${d.endpoint}`).toBe(d.permissions.create.length === 0);
      expect(item.put === undefined, `PUT /api/${d.endpoint}/{id}`).toBe(d.permissions.update.length === 0);
    }
  });

  it('gives every operation the error shape and its security', () => {
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      for (const [method, operation] of Object.entries(item)) {
        expect(operation.responses['4XX'], `${method} ${path}`).toEqual({ $ref: '#/components/responses/Error' });
        expect(operation.operationId, `${method} ${path}`).toBeTruthy();
        expect(Array.isArray(operation.security), `${method} ${path}`).toBe(true);
      }
    }
    expect(doc.components.schemas.Error.required).toEqual(['statusCode', 'code', 'message']);
    expect(doc.paths['/api/login'].post.security).toEqual([{ xsrfHeader: [], xsrfCookie: [] }]);
    expect(doc.paths['/api/health'].get.security).toEqual([]);
    expect(doc.paths['/api/auth/me'].get.security).toEqual([{ bearerAuth: [] }, { accessToken: [] }]);
    expect(doc.paths['/api/login'].post.requestBody.content['application/json'].schema.required).toEqual(['email', 'password']);
  });

  it('serialises entity answers from the route schemas: nothing outside the record schema leaves', async () => {
    const res = await client.get('/api/categories?per_page=1');
    expect(res.status).toBe(200);
    const record = doc.paths['/api/categories'].get.responses['200'].content['application/json'].schema.properties.data.items;
    for (const row of res.body.data) for (const key of Object.keys(row)) expect(record.properties[key]).toBeDefined();
  });

  it('serves the reference page at /api/docs with the viewer from this server only', async () => {
    const anonymous = await new TestClient(t.app).init();
    const page = await anonymous.get('/api/docs');
    expect(page.status).toBe(200);
    expect(String(page.headers['content-type'])).toMatch(/^text\/html/);
    const html = String(page.body);
    expect(html).toContain('spec-url="/api/openapi.json"');
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.map((s) => s[2]!.trim())).toEqual(['']); // one script, no inline code
    const src = /src="([^"]+)"/.exec(scripts[0]![1]!)![1]!;
    expect(src.startsWith('/api/')).toBe(true);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/https?:|\*/);
    expect(csp).toContain("frame-ancestors 'none'");

    const viewer = await t.app.inject({ method: 'GET', url: src, headers: { 'accept-encoding': 'gzip' } });
    expect(viewer.statusCode).toBe(200);
    expect(viewer.headers['content-type']).toMatch(/javascript/);
    expect(viewer.headers['content-encoding']).toBe('gzip');
    expect(viewer.rawPayload.length).toBeGreaterThan(100_000);
    const plain = await t.app.inject({ method: 'GET', url: src });
    expect(plain.body).toContain('Redoc');

    // Everywhere else the strict policy stays: no blob workers.
    const health = await anonymous.get('/api/health');
    expect(String(health.headers['content-security-policy'])).not.toContain('blob:');
  });
});
