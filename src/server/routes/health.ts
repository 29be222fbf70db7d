import type { FastifyInstance } from 'fastify';

/** GET /api/health: liveness and database reachability, for load balancers. No secrets. */
export async function healthRoutes(app: FastifyInstance) {
  app.get('/health', { config: { public: true } }, async (_request, reply) => {
    try {
      await app.database.ping();
      return { status: 'ok', database: 'up', uptime: Math.round(process.uptime()) };
    } catch {
      return reply
        .status(503)
        .header('retry-after', '5')
        .send({ statusCode: 503, code: 'UNAVAILABLE', message: 'The database is unavailable.', database: 'down' });
    }
  });
}
