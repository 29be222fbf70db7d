import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setHashCostForTests } from '../../src/server/auth/password.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { bodyFor, invalid, type Schema, text, valid } from '../helpers/schema-arbitraries.js';
import { startSignedInApp, type TestApp, TestClient } from '../helpers/test-app.js';
import { ENTITY_ENV, seedAll } from './entities-helpers.js';

// Thousands of sign-ins and registrations: hashed at a cost of 1 MiB here (this process only), so the
// cases measure the API, not scrypt.
setHashCostForTests({ N: 2 ** 10, r: 8, p: 1 });
// No exam scheduler: it opens and closes the generated exams whose dates have passed, between a
// refused write and the check that nothing changed.
process.env.EXAM_SCHEDULER_SECONDS = '0';

// Property-based tests over every operation of GET /api/openapi.json: generated valid
// and invalid path ids, query parameters, If-Match headers and bodies, on each database. Whatever
// the input: no 5xx, no hang, and a refused write leaves every data table as it was.
// 120 generated requests per operation and database in `npm test` (200 took six minutes of a suite
// that must stay within 30 on a 2-core machine); PROPERTY_RUNS=1000 for a deeper search.
const RUNS = Math.max(1, Number(process.env.PROPERTY_RUNS) || 120);
// Generous: on a loaded machine a sign-in waits its turn for one of two password hashes.
const REQUEST_TIMEOUT_MS = 60_000;
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

interface Operation {
  method: string;
  path: string;
  spec: Record<string, any>;
}

interface Case {
  params: Record<string, string>;
  query: Array<[string, string]>;
  ifMatch?: string;
  body?: { kind: string; value: unknown; raw?: boolean };
}

const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** A path id: an existing record's (most often), any number the schema allows, or something that is no id. */
function idArbitrary(schema: Schema, existing: number[]): fc.Arbitrary<string> {
  const malformed = fc.oneof(fc.constantFrom('0', '-1', '07', '1.5', '1e3', '2147483648', '99999999999999999999', 'abc', '%20', 'null'), text(1, 12));
  const options: Array<fc.WeightedArbitrary<string>> = [
    { weight: 2, arbitrary: valid(schema).map(asText) },
    { weight: 2, arbitrary: malformed },
  ];
  if (existing.length) options.push({ weight: 4, arbitrary: fc.constantFrom(...existing).map(String) });
  return fc.oneof(...options);
}

function caseArbitrary(operation: Operation, existingIds: (path: string) => number[]): fc.Arbitrary<Case> {
  const parameters = (operation.spec.parameters ?? []) as Array<{ name: string; in: string; required?: boolean; schema: Schema }>;
  const params: Record<string, fc.Arbitrary<string>> = {};
  for (const p of parameters.filter((p) => p.in === 'path')) params[p.name] = idArbitrary(p.schema, existingIds(operation.path));
  const queryParams = parameters.filter((p) => p.in === 'query');
  const validQuery = fc.tuple(...queryParams.map((p) => fc.option(valid(p.schema).map(asText), { freq: 2 }))).map((values) => {
    const pairs: Array<[string, string]> = [];
    queryParams.forEach((p, index) => {
      if (values[index] !== null) pairs.push([p.name, values[index] as string]);
    });
    return pairs;
  });
  // Half the cases keep every parameter valid; the others break one: a wrong value, any text, or a parameter the operation does not have.
  const broken: fc.Arbitrary<[string, string]>[] = [fc.tuple(fc.constantFrom('unknown', 'q[nope]', 'page[]', '__proto__', 'constructor'), text(0, 8))];
  if (queryParams.length) {
    broken.push(
      fc.constantFrom(...queryParams).chain((p) => fc.oneof(invalid(p.schema).map(asText), text(0, 30)).map((value): [string, string] => [p.name, value])),
    );
  }
  const query = fc.oneof(
    validQuery,
    fc.tuple(validQuery, fc.oneof(...broken)).map(([pairs, bad]) => [...pairs.filter(([name]) => name !== bad[0]), bad]),
  );
  const ifMatch = parameters.some((p) => p.in === 'header' && p.name === 'if-match')
    ? fc.oneof(fc.constant(undefined), fc.constant('CURRENT'), fc.constant('CURRENT'), fc.constant('*'), text(0, 40))
    : fc.constant(undefined);
  const schema = operation.spec.requestBody?.content?.['application/json']?.schema as Schema | undefined;
  const body = schema
    ? bodyFor(schema)
    : WRITES.has(operation.method)
      ? fc.option(bodyFor({ type: 'object' }), { freq: 3 }).map((b) => b ?? undefined)
      : fc.constant(undefined);
  return fc.record({ params: fc.record(params), query, ifMatch, body }) as fc.Arbitrary<Case>;
}

/**
 * The property suite on one database (one app, seeded once; every operation in turn). Each
 * database has its own test file so that the two run side by side.
 */
export function describeOperationProperties(kind: 'pglite' | 'postgres') {
  describe.skipIf(!testDatabaseKinds().includes(kind))(`every operation of the OpenAPI document, fuzzed on ${kind}`, () => {
    let t: TestApp;
    let client: TestClient;
    let anonymous: TestClient;
    let operations: Operation[] = [];
    const idsByEndpoint = new Map<string, number[]>();
    const tally: string[] = [];
    let snapshot: string | undefined;

    /** A digest of every entity table and the users table, in one statement. */
    async function digest(): Promise<string> {
      const tables = [...t.app.entities.entities.map((e) => e.descriptor.table), 'users'];
      const parts = tables.map((table) => sql`(select md5(coalesce(string_agg(r::text, '|' order by r.id), '')) from ${sql.table(table)} r)`);
      const row = await sql<Record<string, string>>`select concat_ws(',', ${sql.join(parts)}) as d`.execute(t.app.db);
      return row.rows[0]!.d!;
    }

    beforeAll(async () => {
      ({ t, client } = await startSignedInApp(kind, ENTITY_ENV));
      anonymous = await new TestClient(t.app).init();
      const ids = await seedAll(t.app, client);
      for (const entity of t.app.entities.entities) idsByEndpoint.set(entity.descriptor.endpoint, ids[entity.descriptor.name] ?? []);
      const doc = (await anonymous.get('/api/openapi.json')).body;
      operations = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
        Object.entries(item).map(([method, spec]) => ({ method: method.toUpperCase(), path, spec })),
      );
    }, 600_000);
    afterAll(async () => {
      process.stdout.write(`Property tests on ${kind}: ${RUNS} cases per operation\n${tally.join('\n')}\n`);
      await t?.close();
    });

    it('walks every operation of the document', () => {
      expect(operations.length).toBeGreaterThan(40);
    });

    const existingIds = (path: string) => idsByEndpoint.get(path.split('/')[2] ?? '') ?? [];

    async function send(operation: Operation, c: Case) {
      const path = operation.path.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(c.params[name] ?? ''));
      const search = new URLSearchParams(c.query).toString();
      const url = `${path}${search ? `?${search}` : ''}`;
      const isPublic = (operation.spec.security ?? []).every((s: Record<string, unknown>) => !('bearerAuth' in s));
      const caller = isPublic ? anonymous : client;
      const headers: Record<string, string> = {};
      if (c.ifMatch === 'CURRENT') {
        const current = await client.get(path);
        if (typeof current.headers.etag === 'string') headers['if-match'] = current.headers.etag;
      } else if (c.ifMatch !== undefined) headers['if-match'] = c.ifMatch;
      const request = c.body?.raw
        ? t.app
            .inject({
              method: operation.method as 'POST',
              url,
              payload: String(c.body.value),
              headers: {
                'content-type': 'application/json',
                cookie: `XSRF-TOKEN=${caller.xsrf}`,
                'x-xsrf-token': caller.xsrf,
                ...(caller.token ? { authorization: `Bearer ${caller.token}` } : {}),
                ...headers,
              },
            })
            .then((res) => ({ status: res.statusCode, body: res.body }))
        : caller.request(operation.method as 'POST', url, c.body?.value, headers);
      let timer: NodeJS.Timeout | undefined;
      const hang = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`${operation.method} ${url} did not answer within ${REQUEST_TIMEOUT_MS} ms`)), REQUEST_TIMEOUT_MS);
      });
      try {
        return { url, ...(await Promise.race([request, hang])) };
      } finally {
        clearTimeout(timer);
      }
    }

    it(`answers ${RUNS} generated requests per operation: no 5xx, no hang, a refused write changes nothing`, { timeout: 1_800_000 }, async () => {
      const failures: string[] = [];
      const only = process.env.PROPERTY_ONLY ? new RegExp(process.env.PROPERTY_ONLY) : undefined;
      for (const operation of operations.filter((o) => !only || only.test(`${o.method} ${o.path}`))) {
        const statuses = new Map<number, number>();
        const started = performance.now();
        if (process.env.PROPERTY_TRACE) process.stdout.write(`property: ${operation.method} ${operation.path}\n`);
        const write = WRITES.has(operation.method);
        try {
          await fc.assert(
            fc.asyncProperty(caseArbitrary(operation, existingIds), async (c) => {
              if (write) snapshot ??= await digest();
              const res = await send(operation, c);
              statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
              const what = `${operation.method} ${res.url} ${c.body ? JSON.stringify(c.body).slice(0, 300) : ''} → ${res.status} ${String(JSON.stringify(res.body) ?? '').slice(0, 300)}`;
              if (res.status >= 500) throw new Error(`5xx: ${what}`);
              if (!write) return;
              if (res.status >= 400) {
                if ((await digest()) !== snapshot) throw new Error(`a refused write changed the data: ${what}`);
              } else {
                snapshot = undefined;
              }
            }),
            { numRuns: RUNS, endOnFailure: true, includeErrorInReport: true },
          );
        } catch (error) {
          failures.push(
            `${operation.method} ${operation.path}: ${(error as Error).message
              .split('\n')
              .filter((line) => !line.startsWith('Hint') && !line.startsWith('    at '))
              .slice(0, 30)
              .join('\n')}`,
          );
          if (process.env.PROPERTY_TRACE) process.stdout.write(`property FAILED: ${failures.at(-1)}\n`);
          snapshot = undefined;
        }
        const cases = [...statuses.values()].reduce((a, b) => a + b, 0);
        tally.push(
          `  ${operation.method} ${operation.path}: ${cases} cases in ${Math.round(performance.now() - started)} ms, ${[...statuses]
            .sort(([a], [b]) => a - b)
            .map(([status, n]) => `${status}×${n}`)
            .join(' ')}`,
        );
      }
      expect(failures).toEqual([]);
    });
  });
}
