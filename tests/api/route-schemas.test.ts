import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DocumentedRoute, documentedMethods, toOpenApiPath } from '../../src/server/openapi/build-document.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { startSignedInApp, type TestApp, type TestClient } from '../helpers/test-app.js';
import { ENTITY_ENV } from './entities-helpers.js';

// DESIGN §15: routes carry their schemas and answers are serialised from them, so a field the
// schema does not name never leaves the server; and the document lists only what answers.

const WRITES = new Set(['POST', 'PUT', 'PATCH']);
type Json = Record<string, any>;

/** What one documented operation lacks: a 2xx response schema, a schema of each path parameter, a body schema on a write. */
function lacks(route: DocumentedRoute, method: string): string[] {
  const schema = (route.schema ?? {}) as Json;
  const missing: string[] = [];
  const responses = Object.entries((schema.response ?? {}) as Record<string, Json>).filter(([code]) => /^2(\d\d|xx)$/i.test(code));
  // A success answer described by a schema of its own (JSON), its media types, or `type: 'null'` (no content).
  const described = responses.some(([, entry]) => entry && (entry.type !== undefined || entry.content || entry.anyOf || entry.oneOf || entry.$ref));
  if (!described) missing.push('response');
  const names = [...route.url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
  if (names.some((name) => !schema.params?.properties?.[name])) missing.push('params');
  if (WRITES.has(method) && !schema.body) missing.push('body');
  return missing;
}

/**
 * Answers whose JSON is not built from their schema, or is itself free-form: the document itself, a
 * list answer passed on as its own route serialised it, the extra translations (a tree of strings),
 * and the client-safe descriptors (sent as built once per role).
 */
const FREE_FORM_ANSWERS: Record<string, string> = {
  'GET /api/openapi.json': '',
  'GET /api/meta/first-list': '',
  'GET /api/locales/{language}': '',
  'GET /api/meta/entities': '.data[]',
};
/**
 * Values inside an answer that are free-form JSON by nature, by their field's name: a JSON column an
 * entity schema declares without properties (the fixtures' `specs`), an audit row's `changes` and
 * `details`, a field error's `params`, a form's JSON Schema and UI schema.
 */
const FREE_FORM_FIELDS = new Set(['specs', 'changes', 'details', 'params', 'schema', 'uiSchema']);

/**
 * Where a response schema lets through what it does not name: an object that allows any other key,
 * or a value of no type. Walks properties, items and anyOf/oneOf/allOf branches.
 */
function openNodes(node: Json | undefined, path: string, out: string[], exempt: string): void {
  if (!node || typeof node !== 'object' || path === exempt) return;
  const types = [node.type].flat();
  const typed = node.type !== undefined || node.anyOf || node.oneOf || node.allOf || node.enum || node.const !== undefined;
  if (!typed) out.push(`${path || '(answer)'} has no type`);
  const branched = node.anyOf || node.oneOf || node.allOf || node.then || node.else;
  if (types.includes('object') && (node.additionalProperties === true || (!node.properties && !node.additionalProperties && !branched)))
    out.push(`${path || '(answer)'} takes any key`);
  for (const [name, inner] of Object.entries((node.properties ?? {}) as Record<string, Json>))
    if (!FREE_FORM_FIELDS.has(name)) openNodes(inner, `${path}.${name}`, out, exempt);
  if (node.items) openNodes(node.items, `${path}[]`, out, exempt);
  if (node.additionalProperties && typeof node.additionalProperties === 'object') openNodes(node.additionalProperties, `${path}{}`, out, exempt);
  for (const key of ['anyOf', 'oneOf', 'allOf', 'then', 'else']) for (const branch of [node[key] ?? []].flat() as Json[]) openNodes(branch, path, out, exempt);
}

/** Fields that name an entry's entrant (or are theirs alone): no answer a juror gets may carry one (§11, blind judging). */
const NAMES_THE_ENTRANT = [
  'contest_id',
  'customer_id',
  'customer',
  'campaign_id',
  'campaign',
  'company',
  'company_id',
  'agency',
  'agency_name',
  'confidential_kpi',
  'other',
  'email',
  'phone',
];

/** Every property name a schema can carry, with its path. */
function propertyNames(node: Json | undefined, path: string, out: Array<[string, string]>): void {
  if (!node || typeof node !== 'object') return;
  for (const [name, inner] of Object.entries((node.properties ?? {}) as Record<string, Json>)) {
    out.push([name, `${path}.${name}`]);
    propertyNames(inner, `${path}.${name}`, out);
  }
  if (node.items) propertyNames(node.items, `${path}[]`, out);
  if (node.additionalProperties && typeof node.additionalProperties === 'object') propertyNames(node.additionalProperties, `${path}{}`, out);
  for (const key of ['anyOf', 'oneOf', 'allOf', 'then', 'else']) for (const branch of [node[key] ?? []].flat() as Json[]) propertyNames(branch, path, out);
}

describe.each(testDatabaseKinds().slice(0, 1))('every route carries its schemas (%s)', (kind) => {
  let t: TestApp;
  let client: TestClient;
  let documented: Array<{ method: string; path: string; route: DocumentedRoute }> = [];

  beforeAll(async () => {
    ({ t, client } = await startSignedInApp(kind, ENTITY_ENV));
    const seen = new Set<string>();
    for (const route of t.app.apiRoutes) {
      if (route.config?.openapi === false) continue;
      for (const method of documentedMethods(route)) {
        const path = toOpenApiPath(route.url);
        if (seen.has(`${method} ${path}`)) continue;
        seen.add(`${method} ${path}`);
        documented.push({ method, path, route });
      }
    }
    documented = documented.sort((a, b) => `${a.path} ${a.method}`.localeCompare(`${b.path} ${b.method}`));
  });
  afterAll(async () => t?.close());

  it('declares, on every /api operation, the schema of its success answer, its path parameters and its body', () => {
    const uncovered = documented.map(({ method, path, route }) => ({ op: `${method} ${path}`, missing: lacks(route, method) })).filter((r) => r.missing.length);
    const withResponse = documented.filter(({ method, route }) => !lacks(route, method).includes('response')).length;
    process.stdout.write(`route schemas: ${withResponse} of ${documented.length} operations declare a success response schema\n`);
    expect(documented.length).toBeGreaterThan(40);
    expect(uncovered.map((r) => `${r.op}: no ${r.missing.join(', ')} schema`)).toEqual([]);
  });

  it('names every field a JSON answer may carry: a field not in the schema cannot leave the server', () => {
    const open: string[] = [];
    for (const { method, path, route } of documented) {
      const op = `${method} ${path}`;
      if (FREE_FORM_ANSWERS[op] === '') continue;
      for (const [code, entry] of Object.entries(((route.schema as Json)?.response ?? {}) as Record<string, Json>)) {
        if (!/^2/.test(code) || entry.type === 'null') continue;
        const schemas = entry.content
          ? Object.entries(entry.content as Record<string, Json>)
              .filter(([type]) => /json/.test(type))
              .map(([, media]) => media.schema)
          : [entry];
        for (const schema of schemas) {
          const found: string[] = [];
          openNodes(schema, '', found, FREE_FORM_ANSWERS[op] ?? '\u0000');
          open.push(...found.map((where) => `${op} ${code}: ${where}`));
        }
      }
    }
    expect(open).toEqual([]);
  });

  it("keeps jurors blind by schema: no answer a juror may get names a field of the entrant's", () => {
    const jurorRoutes = documented.filter(({ path, route }) => {
      const roles = (route.config?.roles ?? []) as string[];
      // The caller's own account (their own e-mail) is no entry's.
      return roles.includes('juror') && !/^\/api\/(auth|me)\//.test(path);
    });
    expect(jurorRoutes.map((r) => `${r.method} ${r.path}`)).toEqual(expect.arrayContaining(['GET /api/jury/assignments', 'PUT /api/assignments/{id}/grade']));
    const leaks: string[] = [];
    for (const { method, path, route } of jurorRoutes)
      for (const [code, entry] of Object.entries(((route.schema as Json)?.response ?? {}) as Record<string, Json>)) {
        if (!/^2/.test(code)) continue;
        const names: Array<[string, string]> = [];
        propertyNames(entry, '', names);
        for (const [name, where] of names) if (NAMES_THE_ENTRANT.includes(name)) leaks.push(`${method} ${path} ${code}: ${where}`);
      }
    expect(leaks).toEqual([]);
  });

  it('leaves out of the document only routes that are no operation: a 405 or a static file', async () => {
    const left = t.app.apiRoutes.filter((route) => route.config?.openapi === false);
    for (const route of left)
      for (const method of documentedMethods(route)) {
        const url = route.url.replace(/:[A-Za-z0-9_]+/g, '1');
        const res = await client.request(method as 'GET', url);
        if (method === 'GET' && res.status === 200) expect(String(res.headers['content-type']), url).not.toMatch(/json/);
        else expect(res.status, `${method} ${url}`).toBe(405);
      }
  });

  it('documents only operations that answer: none is a 405 or an unknown route', async () => {
    const liars: string[] = [];
    // Sign-outs last: they end the session the other requests use.
    const ordered = [...documented].sort((a, b) => Number(/logout/.test(a.path)) - Number(/logout/.test(b.path)));
    for (const { method, path } of ordered) {
      // A record that does not exist, an empty body: nothing is changed, but the route answers.
      const url = path.replace(/\{[^}]+\}/g, '2147483647');
      const res = await client.request(method as 'GET', url, WRITES.has(method) ? {} : undefined);
      const unknownRoute = res.status === 404 && /^No route /.test(String(res.body?.message));
      if (res.status === 405 || unknownRoute) liars.push(`${method} ${path} → ${res.status}`);
    }
    expect(liars).toEqual([]);
  });
});
