import type { FastifyInstance } from 'fastify';
import { dashboardData } from './dashboard.service.js';
import { dashboardAnswer, route } from './schemas.js';
import { judgingDb } from './tables.js';

/** GET /api/dashboard: `{ data: DashboardData }` (behind the auth guard, like every non-public route). */
export async function dashboardRoutes(app: FastifyInstance) {
  app.get(
    '/dashboard',
    { schema: route("The dashboard's figures: totals, the two rounds' panels and the latest contests.", { response: { 200: dashboardAnswer } }) },
    async () => ({
      data: await dashboardData(judgingDb(app.db), app.entities),
    }),
  );
}
