import type { ServerFeature } from '../../server/index.js';
import { attachRecordsPlugin } from './server/attach-records.js';
import { archivedEditionRemoveGuard, currentEditionHook, currentEditionScope } from './server/edition-policies.js';
import { editionRoutes } from './server/edition-routes.js';
import { userEditionsTable } from './server/migrations/010-editions-user-editions.js';
import { userEditionsVersion } from './server/migrations/024-editions-user-editions-version.js';

export { assertEditionWritable, assertExamWritable, currentEditionId, defaultEditionId } from './server/current-edition.js';

/**
 * Editions' server face: each person's current edition (`GET/PUT /api/me/edition`), the list scope
 * that limits every list, export and bulk selection of an entity with `edition_id` to it, the
 * `current-edition` hook (new records default to it, archived editions are read-only) and the
 * guard that keeps an archived edition's records from being deleted. Other features call
 * {@link currentEditionId} and {@link assertEditionWritable} / {@link assertExamWritable}.
 */
export const editionsServer: ServerFeature = {
  name: 'editions',
  setup: attachRecordsPlugin,
  routes: editionRoutes,
  hooks: { 'current-edition': currentEditionHook },
  listScopes: [currentEditionScope],
  removeGuards: [archivedEditionRemoveGuard],
  migrations: { '010-editions-user-editions': userEditionsTable, '024-editions-user-editions-version': userEditionsVersion },
};
