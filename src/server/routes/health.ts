import type { FastifyInstance } from 'fastify';
import { ERROR_SCHEMA } from '../openapi/error-schema.js';

/** GET /api/health: liveness and database reachability, for load balancers. No secrets. */
export async function healthRoutes(app: FastifyInstance) {
  app.get(
    '/health',
    {
      config: { public: true },
      schema: {
        response: {
          200: {
            type: 'object',
            additionalProperties: false,
            required: ['status', 'database', 'uptime'],
            properties: {
              status: { type: 'string', enum: ['ok'] },
              database: { type: 'string', enum: ['up'] },
              uptime: { type: 'integer', description: 'Seconds since the process started.' },
            },
          },
          503: {
            ...ERROR_SCHEMA,
            required: [...ERROR_SCHEMA.required, 'database'],
            properties: { ...ERROR_SCHEMA.properties, database: { type: 'string', enum: ['down'] } },
            description: 'The database is unreachable (Retry-After).',
          },
        },
      },
    },
    async (_request, reply) => {
      try {
        await app.database.ping();
        return { status: 'ok', database: 'up', uptime: Math.round(process.uptime()) };
      } catch {
        return reply
          .status(503)
          .header('retry-after', '5')
          .send({ statusCode: 503, code: 'UNAVAILABLE', message: 'The database is unavailable.', database: 'down' });
      }
    },
  );
}
