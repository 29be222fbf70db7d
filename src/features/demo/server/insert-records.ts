import { randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { type EntityRegistry, hashPassword, storedFields } from '../../../server/index.js';
import { fieldKind } from '../../../shared/descriptor/schema-fields.js';
import type { JsonSchema, LoadedEntity } from '../../../shared/descriptor/types.js';
import type { DemoDataSet, DemoValue } from './demo-data.js';

/** What was inserted: ids per entity name, in the data set's order; entities not loaded are skipped. */
export interface InsertReport {
  ids: Record<string, number[]>;
  skipped: string[];
}

/** A value in the shape its column takes: arrays become JSON for json columns or text joined by spaces. */
function toColumn(property: JsonSchema, value: DemoValue | number): unknown {
  if (value === null || typeof value !== 'object' || 'ref' in value) return value;
  if ('json' in value) return JSON.stringify(value.json);
  return fieldKind(property) === 'json' ? JSON.stringify(value) : value.join(' ');
}

/**
 * Inserts a data set through the entities' own tables (so the counters and constraints apply):
 * references become the ids of the records inserted before, fields the entity's schema does not
 * store are dropped, and a required write-only field with no value (a submittor's password) gets
 * the hash of a random password nobody knows. An entity that is not loaded, or that points at
 * one that was skipped, is skipped and reported.
 */
export async function insertRecords(db: Kysely<any>, registry: EntityRegistry, set: DemoDataSet): Promise<InsertReport> {
  const report: InsertReport = { ids: {}, skipped: [] };
  let lockedSecret: string | undefined;
  for (const name of set.order) {
    const entity: LoadedEntity | undefined = registry.byName.get(name);
    const records = set.records[name] ?? [];
    const refsMissing = records.some((record) =>
      Object.values(record).some((value) => value !== null && typeof value === 'object' && 'ref' in value && !report.ids[value.ref[0]]),
    );
    if (!entity || refsMissing) {
      report.skipped.push(name);
      continue;
    }
    const props = entity.schema.properties ?? {};
    const stored = new Set([...storedFields(entity), 'created_at', 'updated_at']);
    const secretFields = storedFields(entity).filter((field) => props[field]?.writeOnly && (entity.schema.required ?? []).includes(field));
    if (secretFields.length > 0) lockedSecret ??= await hashPassword(randomBytes(24).toString('base64url'));
    const rows = records.map((record) => {
      const row: Record<string, unknown> = {};
      for (const [field, value] of Object.entries(record)) {
        if (!stored.has(field) || field === 'id') continue;
        row[field] =
          value !== null && typeof value === 'object' && 'ref' in value ? report.ids[value.ref[0]]![value.ref[1]] : toColumn(props[field] ?? {}, value);
      }
      for (const field of secretFields) row[field] ??= lockedSecret;
      if (row.created_at && stored.has('updated_at')) row.updated_at ??= row.created_at;
      return row;
    });
    const inserted = rows.length ? await db.insertInto(entity.descriptor.table).values(rows).returning(sql<number>`id`.as('id')).execute() : [];
    report.ids[name] = inserted.map((row) => Number(row.id));
  }
  return report;
}
