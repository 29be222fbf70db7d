import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { DescriptorError } from '../../shared/descriptor/descriptor-error.js';
import { type EntitySource, loadEntities } from '../../shared/descriptor/load-entities.js';
import type { LoadedEntity } from '../../shared/descriptor/types.js';
import { roleNames } from '../../shared/roles.js';
import type { AppConfig } from '../config.js';
import { syncEntityTables } from '../db/sync/index.js';
import { knownExtensionNames, registeredHookNames } from '../extensions.js';
import { createRegistry, type EntityRegistry } from '../operations/context.js';

function parseJson(file: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new DescriptorError(file, '', `is not valid JSON: ${(error as Error).message}`);
  }
}

/**
 * Reads every `*.json` descriptor in the entities folders and its `<schema>.schema.json` from the
 * first schemas folder that has it. A missing folder is an error (a typo in ENTITIES_DIR must not
 * start a console without entities).
 */
export function readEntitySources(config: Pick<AppConfig, 'entitiesDirs' | 'schemasDirs'>): EntitySource[] {
  const sources: EntitySource[] = [];
  for (const dir of config.entitiesDirs) {
    if (!fs.existsSync(dir)) throw new DescriptorError(dir, '', 'the entities folder (ENTITIES_DIR) does not exist');
    for (const name of fs
      .readdirSync(dir)
      .filter((n) => n.endsWith('.json'))
      .sort()) {
      const file = path.join(dir, name);
      const descriptor = parseJson(file);
      const schemaName = (descriptor as { schema?: unknown; name?: unknown })?.schema ?? (descriptor as { name?: unknown })?.name;
      const base = typeof schemaName === 'string' && /^[a-z][a-z0-9_-]*$/.test(schemaName) ? schemaName : path.basename(name, '.json');
      const candidates = config.schemasDirs.map((schemasDir) => path.join(schemasDir, `${base}.schema.json`));
      const schemaFile = candidates.find((candidate) => fs.existsSync(candidate)) ?? candidates[0] ?? `${base}.schema.json`;
      sources.push({ file, descriptor, schemaFile, schema: fs.existsSync(schemaFile) ? parseJson(schemaFile) : undefined });
    }
  }
  return sources;
}

/**
 * Reads and loads every entity of the configuration, checking hook names against the registered
 * hooks, cells, widgets, filter inputs and row actions against the registered names, and the roles
 * permissions name against the declared roles.
 */
export function loadConfiguredEntities(config: Pick<AppConfig, 'entitiesDirs' | 'schemasDirs'>): LoadedEntity[] {
  return loadEntities(readEntitySources(config), { knownHooks: registeredHookNames(), names: knownExtensionNames, knownRoles: roleNames() });
}

/**
 * Loads the entity descriptors and schemas, syncs their tables, and decorates `app.entities`.
 * A bad descriptor or a destructive schema change stops start-up with a message naming it.
 */
export const entitiesPlugin = fp(async function entitiesPlugin(app: FastifyInstance, options: { entities?: LoadedEntity[] }) {
  // `buildApp` reads them before the database opens (the first-screen thread warms up on them).
  const entities = options.entities ?? loadConfiguredEntities(app.config);
  const report = await syncEntityTables(app.db, entities);
  if (report.createdTables.length || report.addedColumns.length) {
    app.log.info({ createdTables: report.createdTables, addedColumns: report.addedColumns }, 'entity tables synced');
  }
  app.decorate('entities', createRegistry(entities));
});

declare module 'fastify' {
  interface FastifyInstance {
    /** Every loaded entity descriptor with its schema. */
    entities: EntityRegistry;
  }
}
