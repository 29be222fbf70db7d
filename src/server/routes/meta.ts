import type { FastifyInstance } from 'fastify';
import { toClientEntity } from '../../shared/descriptor/client-entity.js';
import type { MetaEntitiesResponse } from '../../shared/descriptor/types.js';

/**
 * `GET /api/meta/entities`: every entity's client-safe descriptor and schemas, with the caller's
 * permissions resolved to booleans, in menu order.
 */
export async function metaRoutes(app: FastifyInstance) {
  app.get('/meta/entities', async (request): Promise<MetaEntitiesResponse> => {
    const data = app.entities.entities
      .map((entity) => toClientEntity(entity, request.user?.role))
      .sort((a, b) => a.menu.order - b.menu.order || a.name.localeCompare(b.name));
    return { data };
  });
}
