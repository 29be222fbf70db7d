import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoadedEntity } from '../../src/shared/descriptor/types.js';
import { messageKeyFor } from '../../src/shared/field-errors.js';
import { invalidCases, type RelatedIds, validBody } from '../fixtures/record-factory.js';
import { testDatabaseKinds } from '../helpers/databases.js';
import { startSignedInApp, type TestApp, TestClient } from '../helpers/test-app.js';
import { allEntities, compareValues, ENTITY_ENV, fetchAll, matches, SEED_COUNT, seedAll } from './entities-helpers.js';

const creatable = allEntities.filter((e) => e.descriptor.permissions.create.includes('admin'));
const updatable = allEntities.filter((e) => e.descriptor.permissions.update.includes('admin'));
const deletable = allEntities.filter((e) => e.descriptor.permissions.delete.includes('admin'));
const named = (list: LoadedEntity[]) => list.map((entity) => [entity.descriptor.name, entity] as const);

/** A value of a stored record the filter will match, as the query parameter's text. */
function filterParam(filter: LoadedEntity['descriptor']['list']['filters'][number], value: unknown): string {
  if (filter.values) return Object.entries(filter.values).find(([, stored]) => stored === value)?.[0] ?? String(value);
  if (filter.operator === 'ilike') return String(value).slice(1, 5).toUpperCase();
  return String(value);
}

describe.each(testDatabaseKinds())('generic entity API on %s', (kind) => {
  let t: TestApp;
  let client: TestClient;
  let ids: RelatedIds;

  beforeAll(async () => {
    ({ t, client } = await startSignedInApp(kind, ENTITY_ENV));
    ids = await seedAll(t.app, client);
  });
  afterAll(async () => t?.close());

  describe.each(named(allEntities))('%s list', (_name, entity) => {
    const d = entity.descriptor;
    const url = `/api/${d.endpoint}`;

    it('sorts by every allowed sort, both ways, with id as the tie-break', async () => {
      for (const sort of new Set([...d.list.sorts, d.list.defaultSort.field])) {
        for (const direction of ['asc', 'desc'] as const) {
          const res = await client.get(`${url}?per_page=100&sort=${sort}&direction=${direction}`);
          expect(res.status, `${sort} ${direction}`).toBe(200);
          const rows = res.body.data as Record<string, unknown>[];
          expect(rows.length).toBe(SEED_COUNT);
          for (let i = 1; i < rows.length; i++) {
            const sign = direction === 'asc' ? 1 : -1;
            const byValue = compareValues(rows[i - 1]![sort], rows[i]![sort]);
            const ordered =
              sort === 'id' || byValue === 0
                ? sign * ((rows[i - 1]!.id as number) - (rows[i]!.id as number)) < 0
                : direction === 'asc'
                  ? byValue < 0 || rows[i]![sort] === null
                  : byValue > 0 || rows[i - 1]![sort] === null;
            expect(ordered, `${sort} ${direction} at row ${i}: ${String(rows[i - 1]![sort])} then ${String(rows[i]![sort])}`).toBe(true);
          }
        }
      }
    });

    it('filters by every filter, and the total counts exactly the matches', async () => {
      const relationsUsed = [...new Set(d.list.filters.filter((f) => f.field.includes('.')).map((f) => f.field.split('.')[0]!))];
      const all = await fetchAll(client, entity, relationsUsed);
      for (const filter of d.list.filters) {
        const [first, second] = filter.field.split('.') as [string, string | undefined];
        const fieldValue = (row: Record<string, any>) => (second ? row[first]?.[second] : row[first]);
        const sample = all.map(fieldValue).find((v) => v !== null && v !== undefined);
        if (sample === undefined) continue;
        const param = filterParam(filter, sample);
        const wanted = filter.values ? filter.values[param] : filter.operator === 'ilike' ? param : sample;
        const expected = all
          .filter((row) => matches(fieldValue(row), filter.operator, wanted))
          .map((row) => row.id)
          .sort();
        const res = await client.get(`${url}?per_page=100&${encodeURIComponent(filter.param)}=${encodeURIComponent(param)}`);
        expect(res.status, filter.param).toBe(200);
        expect(res.body.data.map((row: any) => row.id).sort(), `${filter.param}=${param}`).toEqual(expected);
        expect(res.body.meta.total).toBe(expected.length);
        expect(expected.length).toBeGreaterThan(0);
      }
    });

    it('searches its search fields case-insensitively, and refuses search when it has none', async () => {
      if (d.list.search.length === 0) {
        expect((await client.get(`${url}?search=abc`)).status).toBe(400);
        return;
      }
      const all = await fetchAll(client, entity);
      const field = d.list.search.find((f) => all.some((row) => typeof row[f] === 'string' && row[f].length >= 6))!;
      const text = String(all.find((row) => typeof row[field] === 'string' && row[field].length >= 6)![field])
        .slice(1, 6)
        .toUpperCase();
      const expected = all
        .filter((row) => d.list.search.some((f) => matches(row[f], 'ilike', text)))
        .map((r) => r.id)
        .sort();
      const res = await client.get(`${url}?per_page=100&search=${encodeURIComponent(text)}`);
      expect(res.body.data.map((row: any) => row.id).sort()).toEqual(expected);
      expect(expected.length).toBeGreaterThan(0);
      const none = await client.get(`${url}?search=${encodeURIComponent('%_nothing_like_this')}`);
      expect(none.body.meta.total).toBe(0);
    });

    it('pages with the right meta and links at the edges', async () => {
      const first = await client.get(`${url}?per_page=3`);
      expect(first.body.meta).toEqual({ current_page: 1, last_page: 3, total: SEED_COUNT, per_page: 3 });
      expect(first.body.data).toHaveLength(3);
      expect(first.body.links.prev).toBeNull();
      expect(first.body.links.next).toBe(`${url}?per_page=3&page=2`);
      expect(first.body.links.last).toBe(`${url}?per_page=3&page=3`);
      const last = await client.get(`${url}?per_page=3&page=3`);
      expect(last.body.data).toHaveLength(1);
      expect(last.body.links.next).toBeNull();
      expect(last.body.links.prev).toBe(`${url}?per_page=3&page=2`);
      const beyond = await client.get(`${url}?per_page=3&page=4`);
      expect(beyond.body.data).toEqual([]);
      expect(beyond.body.meta).toMatchObject({ current_page: 4, last_page: 3, total: SEED_COUNT });
      const pages = [first, await client.get(`${url}?per_page=3&page=2`), last].flatMap((r) => r.body.data.map((row: any) => row.id));
      expect(new Set(pages).size).toBe(SEED_COUNT);
      const byDefault = await client.get(url);
      expect(byDefault.body.meta.per_page).toBe(d.list.pageSize);
      const full = await client.get(`${url}?per_page=100`);
      expect(full.body.meta).toEqual({ current_page: 1, last_page: 1, total: SEED_COUNT, per_page: 100 });
    });

    it('answers 400 naming an unknown parameter, sort, include, or a bad page', async () => {
      const bad = {
        'q[nope]=1': 'q[nope]',
        'sort=nope': 'nope',
        'include=nope': 'nope',
        'page=0': 'page',
        'page=abc': 'page',
        'per_page=101': 'per_page',
        'per_page=0': 'per_page',
        'direction=up': 'direction',
        'page=1&page=2': 'page',
      };
      for (const [query, named] of Object.entries(bad)) {
        const res = await client.get(`${url}?${query}`);
        expect(res.status, query).toBe(400);
        expect(res.body.code).toBe('BAD_REQUEST');
        expect(res.body.message, query).toContain(named);
      }
    });

    it('reads one record with an ETag, its includes, and no write-only field', async () => {
      const id = ids[d.name]![0]!;
      const res = await client.get(`${url}/${id}${d.includes.length ? `?include=${d.includes.join(',')}` : ''}`);
      expect(res.status).toBe(200);
      expect(res.headers.etag).toMatch(new RegExp(`^W/"${id}-\\d+"$`));
      for (const [field, property] of Object.entries(entity.schema.properties ?? {})) {
        if (property.writeOnly || d.virtual.includes(field)) expect(res.body.data).not.toHaveProperty(field);
        else expect(res.body.data).toHaveProperty(field);
      }
      for (const name of d.includes) {
        const relation = d.relations[name]!;
        expect(res.body.data[name]).toMatchObject({ id: res.body.data[relation.field] });
        for (const field of relation.fields) expect(res.body.data[name]).toHaveProperty(field);
      }
    });

    it('answers 400 Invalid <entity> ID for an id that is not a positive integer, 404 for an absent one', async () => {
      for (const id of ['abc', '0', '-1', '1.5', '01', '99999999999', '1e3']) {
        const res = await client.get(`${url}/${id}`);
        expect(res.status, id).toBe(400);
        expect(res.body.message).toBe(`Invalid ${d.label} ID`);
        expect(res.body.errors[0].messageKey).toBe(d.texts.invalidId);
      }
      const unknownParam = await client.get(`${url}/${ids[d.name]![0]}?sort=name`);
      expect(unknownParam.status).toBe(400);
      expect(unknownParam.body.message).toBe('Unknown query parameter: sort.');
      const missing = await client.get(`${url}/2147483647`);
      expect(missing.status).toBe(404);
      expect(missing.body.code).toBe('NOT_FOUND');
    });
  });

  describe.each(named(creatable))('%s create', (_name, entity) => {
    const d = entity.descriptor;
    const url = `/api/${d.endpoint}`;

    it('gives each broken rule its message key, one case at a time', async () => {
      for (const c of invalidCases(entity, 'create')) {
        const body = validBody(entity, 100, ids);
        if (c.omit) delete body[c.field];
        else body[c.field] = c.value;
        const res = await client.post(url, body);
        expect(res.status, `${c.field} ${c.keyword}`).toBe(422);
        expect(res.body.errors, `${c.field} ${c.keyword}`).toContainEqual(
          expect.objectContaining({ path: c.field, keyword: c.keyword, messageKey: messageKeyFor(d.messages, c.field, c.keyword) }),
        );
      }
    });

    it('reports every invalid field at once and stores nothing', async () => {
      const before = (await client.get(url)).body.meta.total;
      const body = validBody(entity, 101, ids);
      const cases = invalidCases(entity, 'create');
      const firstPerField = [...new Map(cases.filter((c) => c.keyword !== 'required').map((c) => [c.field, c])).values()];
      for (const c of firstPerField) body[c.field] = c.value;
      const res = await client.post(url, body);
      expect(res.status).toBe(422);
      for (const c of firstPerField) expect(res.body.errors.map((e: any) => e.path)).toContain(c.field);
      expect((await client.get(url)).body.meta.total).toBe(before);
    });

    it('refuses unknown fields, read-only fields and constructor/prototype keys, storing nothing', async () => {
      const before = (await client.get(url)).body.meta.total;
      const readOnly = Object.entries(entity.schema.properties ?? {})
        .filter(([, p]) => p.readOnly)
        .map(([f]) => f);
      for (const extra of [{ not_a_field: 1 }, { constructor: 'x' }, { prototype: { polluted: true } }, { id: 999 }, ...readOnly.map((f) => ({ [f]: 'x' }))]) {
        const res = await client.post(url, { ...validBody(entity, 102, ids), ...extra });
        expect(res.status, JSON.stringify(extra)).toBe(422);
        expect(res.body.errors.map((e: any) => e.path)).toContain(Object.keys(extra)[0]);
      }
      const raw = JSON.stringify(validBody(entity, 103, ids)).replace(/^\{/, '{"__proto__":{"polluted":true},');
      const proto = await client.request('POST', url, undefined, { 'content-type': 'application/json' });
      expect(proto.status).toBeGreaterThanOrEqual(400);
      const res = await t.app.inject({
        method: 'POST',
        url,
        payload: raw,
        headers: {
          'content-type': 'application/json',
          cookie: `XSRF-TOKEN=${client.xsrf}`,
          'x-xsrf-token': client.xsrf,
          authorization: `Bearer ${client.token}`,
        },
      });
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect((await client.get(url)).body.meta.total).toBe(before);
    });

    it('creates with 201, an ETag and a Location, and reads back what it stored', async () => {
      const body = validBody(entity, 104, ids);
      const res = await client.post(url, body);
      expect(res.status).toBe(201);
      expect(res.headers.location).toBe(`${url}/${res.body.data.id}`);
      const read = await client.get(`${url}/${res.body.data.id}`);
      expect(read.headers.etag).toBe(res.headers.etag);
      for (const [field, value] of Object.entries(body)) {
        const property = entity.schema.properties![field]!;
        if (property.writeOnly || d.virtual.includes(field)) continue;
        const stored = read.body.data[field];
        if (property.format === 'date-time' && typeof value === 'string') expect(Date.parse(stored)).toBe(Date.parse(value));
        else expect(stored, field).toEqual(typeof value === 'string' ? value.trim() : value);
      }
      await client.delete(`${url}/${res.body.data.id}`);
    });
  });

  describe.each(named(updatable))('%s update', (_name, entity) => {
    const url = `/api/${entity.descriptor.endpoint}`;

    it('updates with a matching If-Match and refuses a stale one with 409 and the current record', async () => {
      const id = ids[entity.descriptor.name]![1]!;
      const current = await client.get(`${url}/${id}`);
      const body = validBody(entity, 200, ids, 'edit');
      const ok = await client.put(`${url}/${id}`, body, { 'if-match': String(current.headers.etag) });
      expect(ok.status).toBe(200);
      expect(ok.headers.etag).not.toBe(current.headers.etag);
      const stale = await client.put(`${url}/${id}`, validBody(entity, 201, ids, 'edit'), { 'if-match': String(current.headers.etag) });
      expect(stale.status).toBe(409);
      expect(stale.body.code).toBe('CONFLICT');
      expect(stale.body.data).toEqual(ok.body.data);
      expect((await client.get(`${url}/${id}`)).body.data).toEqual(ok.body.data);
    });

    it('validates an update with every field error at once, and refuses unknown fields', async () => {
      const id = ids[entity.descriptor.name]![1]!;
      for (const c of invalidCases(entity, 'edit')) {
        const body = validBody(entity, 202, ids, 'edit');
        if (c.omit) delete body[c.field];
        else body[c.field] = c.value;
        const res = await client.put(`${url}/${id}`, body);
        expect(res.status, `${c.field} ${c.keyword}`).toBe(422);
        expect(res.body.errors).toContainEqual(expect.objectContaining({ path: c.field, keyword: c.keyword }));
      }
      const unknown = await client.put(`${url}/${id}`, { ...validBody(entity, 203, ids, 'edit'), constructor: 1 });
      expect(unknown.status).toBe(422);
    });

    it('answers 404 for an absent record and 400 for a bad id', async () => {
      expect((await client.put(`${url}/2147483647`, validBody(entity, 204, ids, 'edit'))).status).toBe(404);
      expect((await client.put(`${url}/abc`, validBody(entity, 204, ids, 'edit'))).status).toBe(400);
    });
  });

  describe.each(named(deletable))('%s delete', (_name, entity) => {
    const url = `/api/${entity.descriptor.endpoint}`;
    const usedBy = allEntities.filter((other) =>
      Object.values(other.descriptor.relations).some((r) => r.entity === entity.descriptor.name && r.onDelete === 'restrict'),
    );

    it('deletes with 204, then 404; refuses with 409 while other records use it', async () => {
      const id = ids[entity.descriptor.name]![SEED_COUNT - 1]!;
      if (usedBy.length > 0) {
        const res = await client.delete(`${url}/${ids[entity.descriptor.name]![0]}`);
        expect(res.status).toBe(409);
        expect(res.body.message).toMatch(/still used by \d+/);
      }
      const created = await client.post(url, validBody(entity, 300, ids));
      expect((await client.delete(`${url}/${created.body.data.id}`)).status).toBe(204);
      expect((await client.get(`${url}/${created.body.data.id}`)).status).toBe(404);
      expect((await client.delete(`${url}/${created.body.data.id}`)).status).toBe(404);
      expect((await client.delete(`${url}/x1`)).status).toBe(400);
      expect(id).toBeGreaterThan(0);
    });
  });

  describe('permissions and meta', () => {
    it('answers 405 for an action no role may perform, 403 for one the caller lacks', async () => {
      const readOnly = allEntities.filter((e) => e.descriptor.permissions.create.length === 0);
      expect(readOnly.length).toBeGreaterThan(0);
      for (const entity of readOnly) {
        const res = await client.post(`/api/${entity.descriptor.endpoint}`, {});
        expect(res.status).toBe(405);
        expect(String(res.headers.allow)).toContain('GET');
      }
      const ledger = allEntities.find((e) => e.descriptor.name === 'fixture_ledger')!;
      const res = await client.delete(`/api/${ledger.descriptor.endpoint}/${ids.fixture_ledger![0]}`);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('FORBIDDEN');
    });

    it('answers 401 without a token', async () => {
      const anonymous = await new TestClient(t.app).init();
      for (const entity of allEntities) expect((await anonymous.get(`/api/${entity.descriptor.endpoint}`)).status).toBe(401);
      expect((await anonymous.get('/api/meta/entities')).status).toBe(401);
    });

    it('gives the client-safe descriptors with permissions resolved for the caller', async () => {
      const res = await client.get('/api/meta/entities');
      expect(res.status).toBe(200);
      expect(res.body.data.map((e: any) => e.name).sort()).toEqual(allEntities.map((e) => e.descriptor.name).sort());
      for (const entity of res.body.data) {
        expect(entity).not.toHaveProperty('hooks');
        expect(entity).not.toHaveProperty('table');
        expect(Object.values(entity.permissions).every((v) => typeof v === 'boolean')).toBe(true);
        expect(entity.jsonSchema.properties).toBeTypeOf('object');
        expect(entity.createSchema.additionalProperties).toBe(false);
      }
      const ledger = res.body.data.find((e: any) => e.name === 'fixture_ledger');
      expect(ledger.permissions).toEqual({ list: true, read: true, create: false, update: false, delete: false });
    });

    it('answers 409 naming the field on a unique clash', async () => {
      const gadget = allEntities.find((e) => e.descriptor.name === 'fixture_gadget')!;
      const existing = await client.get(`/api/fixture-gadgets/${ids.fixture_gadget![0]}`);
      const res = await client.post('/api/fixture-gadgets', { ...validBody(gadget, 400, ids), sku: existing.body.data.sku });
      expect(res.status).toBe(409);
      expect(res.body.errors).toEqual([expect.objectContaining({ path: 'sku', messageKey: 'entities.fixture_gadget.sku_taken' })]);
    });
  });
});
