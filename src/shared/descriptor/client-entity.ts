import type { Action, ClientEntity, LoadedEntity, ResolvedPermissions } from './types.js';
import { ACTIONS } from './types.js';

/** Whether a role may perform an action on an entity (empty role lists allow nobody). */
export function canPerform(entity: LoadedEntity, action: Action, role: string | undefined): boolean {
  return role !== undefined && entity.descriptor.permissions[action].includes(role);
}

/**
 * The browser's view of an entity: the descriptor without server-only keys (hooks, role lists,
 * table), its schema, the derived body schemas, and what this caller may do.
 */
export function toClientEntity(entity: LoadedEntity, role: string | undefined): ClientEntity {
  const { hooks: _hooks, permissions: _permissions, table: _table, ...rest } = entity.descriptor;
  const permissions = Object.fromEntries(ACTIONS.map((action) => [action, canPerform(entity, action, role)])) as ResolvedPermissions;
  return {
    ...structuredClone(rest),
    jsonSchema: structuredClone(entity.schema),
    createSchema: structuredClone(entity.createSchema),
    updateSchema: structuredClone(entity.updateSchema),
    permissions,
  };
}

/**
 * What `GET /api/meta/entities` answers a role: the entities it may do anything with, in menu
 * order (then by name).
 */
export function clientEntitiesFor(entities: readonly LoadedEntity[], role: string | undefined): ClientEntity[] {
  return entities
    .map((entity) => toClientEntity(entity, role))
    .filter((entity) => Object.values(entity.permissions).some(Boolean))
    .sort((a, b) => a.menu.order - b.menu.order || a.name.localeCompare(b.name));
}
