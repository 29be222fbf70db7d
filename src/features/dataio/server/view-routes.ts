import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { canPerform } from '../../../shared/descriptor/client-entity.js';
import type { LoadedEntity } from '../../../shared/descriptor/types.js';
import { badRequest, forbidden, notFound, validationFailed } from '../../../server/index.js';

const MAX_NAME = 100;
const MAX_QUERY = 2000;

/**
 * A saved view's query: the list's own browser parameters only (page size, sort, direction,
 * search, the descriptor's filters), each once, so opening the view reproduces the list.
 */
function cleanQuery(entity: LoadedEntity, raw: unknown): string {
  if (typeof raw !== 'string' || raw.length > MAX_QUERY) throw badRequest(`query must be a query string of at most ${MAX_QUERY} characters.`);
  const list = entity.descriptor.list;
  const allowed = new Set(['sort', 'direction', 'search', ...list.filters.map((f) => f.param), ...(list.pageSizeParam ? [list.pageSizeParam] : [])]);
  const params = new URLSearchParams(raw.replace(/^\?/, ''));
  const clean = new URLSearchParams();
  for (const [key, value] of params) {
    if (!allowed.has(key)) throw badRequest(`Unknown query parameter: ${key}.`);
    if (clean.has(key)) throw badRequest(`The query parameter ${key} is given more than once.`);
    if (value.length > 200) throw badRequest(`The query parameter ${key} must be at most 200 characters.`);
    clean.set(key, value);
  }
  return clean.toString();
}

/**
 * Saved list views, stored on the server: `GET /api/views?entity=` the admin's own
 * and the shared ones; `POST /api/views {entity, name, query, shared}`; `DELETE /api/views/:id`
 * (the owner only). A view is opened by its link: the list's path with its query.
 */
export async function viewRoutes(app: FastifyInstance) {
  const db = app.db as Kysely<any>;
  const listable = (name: unknown, request: FastifyRequest): LoadedEntity => {
    const entity = typeof name === 'string' ? app.entities.byName.get(name) : undefined;
    if (!entity) throw badRequest('entity must name an entity.');
    if (!canPerform(entity, 'list', request.user?.role)) throw forbidden();
    return entity;
  };

  app.get('/views', async (request) => {
    const entity = listable((request.query as { entity?: string }).entity, request);
    const userId = request.user!.id;
    const rows = await db
      .selectFrom('saved_views')
      .select(['id', 'entity', 'name', 'query', 'shared', 'user_id', 'created_at'])
      .where('entity', '=', entity.descriptor.name)
      .where((eb) => eb.or([eb('user_id', '=', userId), eb('shared', '=', true)]))
      .orderBy('name')
      .orderBy('id')
      .execute();
    return { data: rows.map((row) => ({ ...row, mine: row.user_id === userId })) };
  });

  app.post('/views', async (request, reply) => {
    const body = (request.body ?? {}) as { entity?: unknown; name?: unknown; query?: unknown; shared?: unknown };
    const entity = listable(body.entity, request);
    const name = typeof body.name === 'string' ? body.name.trim() : '';
    if (name.length === 0 || name.length > MAX_NAME) {
      throw validationFailed([{ path: 'name', keyword: name ? 'maxLength' : 'required', messageKey: name ? 'dataio.views.errors.name_max' : 'dataio.views.errors.name_required', params: { limit: MAX_NAME } }]);
    }
    if (body.shared !== undefined && typeof body.shared !== 'boolean') throw badRequest('shared must be true or false.');
    const row = await db
      .insertInto('saved_views')
      .values({ entity: entity.descriptor.name, name, query: cleanQuery(entity, body.query ?? ''), shared: body.shared === true, user_id: request.user!.id })
      .returning(['id', 'entity', 'name', 'query', 'shared', 'user_id', 'created_at'])
      .executeTakeFirstOrThrow();
    reply.code(201);
    return { data: { ...row, mine: true } };
  });

  app.delete('/views/:id', async (request, reply) => {
    const raw = (request.params as { id: string }).id;
    if (!/^[1-9]\d{0,9}$/.test(raw)) throw badRequest('Invalid view ID');
    const deleted = await db.deleteFrom('saved_views').where('id', '=', Number(raw)).where('user_id', '=', request.user!.id).executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0) throw notFound('View not found.');
    return reply.code(204).send();
  });
}
