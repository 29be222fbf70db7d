import type { FastifyInstance } from 'fastify';
import { listScopeOf } from '../../../server/index.js';
import { type DashboardScope, dashboardData } from './dashboard.service.js';
import { dashboardAnswer, route } from './schemas.js';
import { judgingDb } from './tables.js';

/** GET /api/dashboard: `{ data: DashboardData }` (behind the auth guard, like every non-public route). */
export async function dashboardRoutes(app: FastifyInstance) {
  app.get(
    '/dashboard',
    { schema: route("The dashboard's figures: totals, the two rounds' panels and the latest contests.", { response: { 200: dashboardAnswer } }) },
    async (request) => {
      // The figures follow the caller's list scopes (their current edition), as the lists do.
      const scope: Record<string, DashboardScope[string]> = {};
      for (const name of ['exam', 'contest']) {
        const entity = app.entities.byName.get(name);
        if (entity) scope[name] = await listScopeOf({ entity, db: app.db, userId: request.user?.id ?? null });
      }
      return { data: await dashboardData(judgingDb(app.db), app.entities, scope) };
    },
  );
}
