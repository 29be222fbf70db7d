import type { FastifyInstance } from 'fastify';
import type { ServerFeature } from '../../server/index.js';
import { bulkRoutes } from './server/bulk-routes.js';
import { exportRoutes } from './server/export-routes.js';
import { importRoutes } from './server/import-routes.js';
import { dataioTables } from './server/migrations/007-dataio.js';
import { dataioJobState } from './server/migrations/008-dataio-job-state.js';
import { dataioSecrets } from './server/migrations/021-dataio-secrets.js';
import { dataioFileParts } from './server/migrations/025-dataio-file-parts.js';
import { viewRoutes } from './server/view-routes.js';

/** Data in and out, server face: import jobs, exports, bulk actions and saved views. */
export const dataioServer: ServerFeature = {
  name: 'dataio',
  async routes(app: FastifyInstance) {
    await app.register(exportRoutes);
    await app.register(importRoutes);
    await app.register(bulkRoutes);
    await app.register(viewRoutes);
  },
  migrations: {
    '007-dataio': dataioTables,
    '008-dataio-job-state': dataioJobState,
    '021-dataio-secrets': dataioSecrets,
    '025-dataio-file-parts': dataioFileParts,
  },
};
