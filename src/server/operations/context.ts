import type { Kysely } from 'kysely';
import type { LoadedEntity } from '../../shared/descriptor/types.js';

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
}

/** Builds the lookup maps of a registry. */
export function createRegistry(entities: readonly LoadedEntity[]): EntityRegistry {
  return {
    entities,
    byName: new Map(entities.map((entity) => [entity.descriptor.name, entity])),
    byEndpoint: new Map(entities.map((entity) => [entity.descriptor.endpoint, entity])),
  };
}

/** Fields stored in the table (virtual form fields have no column). */
export function storedFields(entity: LoadedEntity): string[] {
  return Object.keys(entity.schema.properties ?? {}).filter((field) => !entity.descriptor.virtual.includes(field));
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
