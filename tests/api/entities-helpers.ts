import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { loadConfig } from '../../src/server/config.js';
import { loadConfiguredEntities } from '../../src/server/plugins/entities.js';
import type { LoadedEntity } from '../../src/shared/descriptor/types.js';
import { type RelatedIds, relatedIdFor, validBody, validValue } from '../fixtures/record-factory.js';
import type { TestClient } from '../helpers/test-app.js';

/** The real entities plus the fixtures: every suite covers a new entity the day it lands. */
export const ENTITY_ENV = {
  ENTITIES_DIR: ['entities', 'tests/fixtures/entities'].join(path.delimiter),
  SCHEMAS_DIR: ['schemas', 'tests/fixtures/schemas'].join(path.delimiter),
};

export const allEntities: LoadedEntity[] = loadConfiguredEntities(loadConfig(ENTITY_ENV));

/** Entities ordered so that each comes after the entities its relations point to. */
export function inDependencyOrder(entities: readonly LoadedEntity[]): LoadedEntity[] {
  const done = new Set<string>();
  const ordered: LoadedEntity[] = [];
  const visit = (entity: LoadedEntity) => {
    if (done.has(entity.descriptor.name)) return;
    done.add(entity.descriptor.name);
    for (const relation of Object.values(entity.descriptor.relations)) {
      const target = entities.find((e) => e.descriptor.name === relation.entity);
      if (target) visit(target);
    }
    ordered.push(entity);
  };
  entities.forEach(visit);
  return ordered;
}

export const SEED_COUNT = 7;

/**
 * Creates SEED_COUNT records of every entity: through the API when it can be created, else
 * straight into its table (read-only entities). Returns the ids per entity.
 */
export async function seedAll(app: FastifyInstance, client: TestClient): Promise<RelatedIds> {
  const ids: RelatedIds = {};
  for (const entity of inDependencyOrder(allEntities)) {
    const d = entity.descriptor;
    ids[d.name] = [];
    for (let n = 1; n <= SEED_COUNT; n++) {
      if (d.permissions.create.includes('admin')) {
        const res = await client.post(`/api/${d.endpoint}`, validBody(entity, n, ids));
        if (res.status !== 201) throw new Error(`seeding ${d.name}: ${res.status} ${JSON.stringify(res.body)}`);
        ids[d.name]!.push(res.body.data.id);
      } else {
        const values: Record<string, unknown> = {};
        const relationByField = new Map(Object.values(d.relations).map((r) => [r.field, r]));
        for (const [field, property] of Object.entries(entity.schema.properties ?? {})) {
          if (property.readOnly || d.virtual.includes(field) || Object.hasOwn(d.computed ?? {}, field)) continue;
          const relation = relationByField.get(field);
          const value = validValue(field, property, n, relation ? relatedIdFor(relation.entity, ids[relation.entity], n) : undefined);
          values[field] = typeof value === 'object' && value !== null ? JSON.stringify(value) : value;
        }
        const row = await app.db
          .insertInto(d.table as never)
          .values(values as never)
          .returning(sql<number>`id`.as('id'))
          .executeTakeFirstOrThrow();
        ids[d.name]!.push(Number((row as { id: number }).id));
      }
    }
    if (d.name === 'edition') {
      // The admin works in the first edition: every seeded exam and contest belongs to it (relatedIdFor).
      const chosen = await client.put('/api/me/edition', { edition_id: ids[d.name]![0] });
      if (chosen.status !== 200) throw new Error(`choosing the edition: ${chosen.status} ${JSON.stringify(chosen.body)}`);
    }
  }
  return ids;
}

/** Every record of an entity (with the given includes), through the list endpoint. */
export async function fetchAll(client: TestClient, entity: LoadedEntity, include: string[] = []): Promise<Record<string, any>[]> {
  const rows: Record<string, any>[] = [];
  for (let page = 1; ; page++) {
    const res = await client.get(`/api/${entity.descriptor.endpoint}?per_page=100&page=${page}${include.length ? `&include=${include.join(',')}` : ''}`);
    if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
    rows.push(...res.body.data);
    if (page >= res.body.meta.last_page) return rows;
  }
}

/** Postgres's order for the values the factory makes: nulls last ascending, first descending. */
export function compareValues(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1;
  if (b === null || b === undefined) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return String(a) < String(b) ? -1 : 1;
}

/** Whether a stored value satisfies a filter (the test's own reading of the operators). */
export function matches(value: unknown, operator: string, wanted: unknown): boolean {
  switch (operator) {
    case 'eq':
      return value === wanted;
    case 'ilike':
      return typeof value === 'string' && value.toLowerCase().includes(String(wanted).toLowerCase());
    case 'gte':
      return value !== null && compareValues(value, wanted) >= 0;
    case 'lte':
      return value !== null && compareValues(value, wanted) <= 0;
    default:
      throw new Error(`operator ${operator}`);
  }
}
