import { type AliasedRawBuilder, type Kysely, sql } from 'kysely';
import type { LoadedEntity } from '../../shared/descriptor/types.js';
import type { DataVersionSnapshot } from './list-cache.js';

/** Every loaded entity, by name and by endpoint. */
export interface EntityRegistry {
  entities: readonly LoadedEntity[];
  byName: ReadonlyMap<string, LoadedEntity>;
  byEndpoint: ReadonlyMap<string, LoadedEntity>;
}

/** What an operation needs besides its input: the database and the other entities. */
export interface OperationContext {
  db: Kysely<any>;
  registry: EntityRegistry;
  /** Who writes and from where, for the audit row every write leaves (none: a system write). */
  actor?: { userId: number | null; ip: string | null };
  /** The request's data versions, read once however many parts of it ask (list-cache.ts). */
  versions?: DataVersionSnapshot;
}

/** Builds the lookup maps of a registry. */
export function createRegistry(entities: readonly LoadedEntity[]): EntityRegistry {
  return {
    entities,
    byName: new Map(entities.map((entity) => [entity.descriptor.name, entity])),
    byEndpoint: new Map(entities.map((entity) => [entity.descriptor.endpoint, entity])),
  };
}

/** Fields stored in the table (virtual form fields and computed fields have no column). */
export function storedFields(entity: LoadedEntity): string[] {
  return Object.keys(entity.schema.properties ?? {}).filter(
    (field) => !entity.descriptor.virtual.includes(field) && !Object.hasOwn(entity.descriptor.computed, field),
  );
}

/**
 * The select list of a read: the readable stored fields (or those of `only`) plus each computed
 * field as a correlated subquery on the entity's table, usable in `select` and `returning`.
 */
export function selectionOf(entity: LoadedEntity, registry: EntityRegistry, only?: readonly string[]) {
  const table = entity.descriptor.table;
  const wanted = (field: string) => !only || only.includes(field);
  const columns: Array<string | AliasedRawBuilder<unknown, string>> = readableFields(entity).filter(wanted);
  for (const [field, computed] of Object.entries(entity.descriptor.computed)) {
    if (!wanted(field)) continue;
    const counted = registry.byName.get(computed.entity)!;
    const foreignKey = counted.descriptor.relations[computed.relation]!.field;
    const countedTable = counted.descriptor.table;
    columns.push(
      sql<number>`(select count(*) from ${sql.table(countedTable)} where ${sql.ref(`${countedTable}.${foreignKey}`)} = ${sql.ref(`${table}.id`)})`.as(field),
    );
  }
  return columns;
}

/** Fields a read returns: stored and not write-only. */
export function readableFields(entity: LoadedEntity): string[] {
  return storedFields(entity).filter((field) => !entity.schema.properties?.[field]?.writeOnly);
}

/** The capitalised English label ('Category') for messages. */
export function labelOf(entity: LoadedEntity): string {
  const label = entity.descriptor.label;
  return label.charAt(0).toUpperCase() + label.slice(1);
}
