export { syncEntityTables, SchemaSyncError, type SyncReport } from './sync-entity-tables.js';
export { desiredTable } from './desired-schema.js';
export { managedObjects } from './managed-objects.js';
