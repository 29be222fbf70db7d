import type { FastifyInstance } from 'fastify';
import { dashboardData } from './dashboard.service.js';

/** GET /api/dashboard: `{ data: DashboardData }` (behind the auth guard, like every non-public route). */
export async function dashboardRoutes(app: FastifyInstance) {
  app.get('/dashboard', async () => ({ data: await dashboardData(app.db, app.entities) }));
}
