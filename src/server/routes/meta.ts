import type { FastifyInstance } from 'fastify';
import { toClientEntity } from '../../shared/descriptor/client-entity.js';
import type { MetaEntitiesResponse } from '../../shared/descriptor/types.js';
import { ROLES } from '../../shared/roles.js';

/**
 * `GET /api/meta/entities`: the client-safe descriptor and schemas of every entity the caller's
 * role may do anything with, permissions resolved to booleans, in menu order. Any role may ask;
 * a juror sees only what the descriptors grant jurors.
 */
export async function metaRoutes(app: FastifyInstance) {
  app.get('/meta/entities', { config: { roles: ROLES } }, async (request): Promise<MetaEntitiesResponse> => {
    const data = app.entities.entities
      .map((entity) => toClientEntity(entity, request.user?.role))
      .filter((entity) => Object.values(entity.permissions).some(Boolean))
      .sort((a, b) => a.menu.order - b.menu.order || a.name.localeCompare(b.name));
    return { data };
  });
}
