export { desiredTable } from './desired-schema.js';
export { managedObjects } from './managed-objects.js';
export { SchemaSyncError, type SyncReport, syncEntityTables } from './sync-entity-tables.js';
