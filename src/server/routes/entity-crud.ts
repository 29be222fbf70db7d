import querystring from 'node:querystring';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { canPerform, clientEntitiesFor } from '../../shared/descriptor/client-entity.js';
import type { Action, LoadedEntity } from '../../shared/descriptor/types.js';
import { listUrl, readListParams } from '../../shared/list-request.js';
import { ADMIN_ROLE, type Role } from '../../shared/roles.js';
import { AppError, badRequest, forbidden } from '../errors.js';
import { entityRouteSchema } from '../openapi/entity-schemas.js';
import { create } from '../operations/create.js';
import { etagOf } from '../operations/etag.js';
import { list } from '../operations/list.js';
import { DataVersionSnapshot, dependencyTables, ListCache, listCacheKey, StaleDataVersions } from '../operations/list-cache.js';
import { hasListScopes, listScopeOf } from '../operations/list-scope.js';
import { read } from '../operations/read.js';
import { parseRecordId } from '../operations/record-id.js';
import { remove } from '../operations/remove.js';
import { StaleRecordError, update } from '../operations/update.js';

const METHODS: Record<Action, { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: '/' | '/:id' }> = {
  list: { method: 'GET', url: '/' },
  read: { method: 'GET', url: '/:id' },
  create: { method: 'POST', url: '/' },
  update: { method: 'PUT', url: '/:id' },
  delete: { method: 'DELETE', url: '/:id' },
};

/**
 * The operations validate every request part themselves (text trimmed, blank as absent, the
 * descriptor's messages) against the very schemas the routes carry, so Fastify does not.
 */
const validatedByOperations = () => (value: unknown) => ({ value });

/**
 * The generic CRUD routes of one entity, registered under `/api/<endpoint>`. Each handler checks
 * the caller's role against the descriptor and calls an operation. An action no role may perform
 * answers 405 (a read-only entity's writes) and is left out of the OpenAPI document. Each route carries its schemas (request parts and
 * success responses, see `openapi/entity-schemas.ts`): answers are serialised from them and
 * `GET /api/openapi.json` describes them.
 */
export async function entityCrudRoutes(app: FastifyInstance, options: { entity: LoadedEntity; listCache?: ListCache }) {
  const { entity, listCache } = options;
  const d = entity.descriptor;
  const ctx = (request?: FastifyRequest) => ({
    db: app.db,
    registry: app.entities,
    actor: request ? { userId: request.user?.id ?? null, ip: request.ip ?? null } : undefined,
  });
  const dependencies = dependencyTables(entity, app.entities);
  const idOf = (request: FastifyRequest) => parseRecordId(entity, (request.params as { id?: string }).id);
  const guard = (action: Action) => async (request: FastifyRequest) => {
    if (!canPerform(entity, action, request.user?.role)) throw forbidden();
  };
  const allowed = (['list', 'read', 'create', 'update', 'delete'] as Action[]).filter((a) => d.permissions[a].length > 0);
  const allow = (url: string) => [...new Set(allowed.filter((a) => METHODS[a].url === url).map((a) => METHODS[a].method))].join(', ');

  const listWith = async (request: FastifyRequest, reply: FastifyReply, versions: DataVersionSnapshot): Promise<unknown> => {
    const query = request.query as Record<string, unknown>;
    const path = request.url.split('?')[0]!;
    // The caller's scope (their current edition...) is part of the list, and so of its cache key.
    const scope = hasListScopes() ? await listScopeOf({ entity, db: app.db, userId: request.user?.id ?? null, versions }) : {};
    if (!listCache) return list(entity, { query, path, scope }, { ...ctx(), versions });
    const scoped = Object.keys(scope).length > 0 ? { ...query, '\u0000scope': JSON.stringify(scope) } : query;
    const key = listCacheKey(path, request.user?.role, scoped);
    // A body kept for this list is answered only at versions read for this request.
    if (versions.presumed && listCache.has(key)) return listWith(request, reply, new DataVersionSnapshot(app.db));
    // The version is read (or presumed) before the rows: a write landing in between is already in
    // the rows stored under the older version, which the next request (seeing the newer one) replaces.
    const version = await versions.of(dependencies, { unchecked: true });
    let body = versions.presumed ? undefined : listCache.get(key, version);
    const hit = body !== undefined;
    // Serialised by the route's response schema, as an uncached answer would be.
    body ??= await listCache.readOnce(key, version, async () => reply.serialize(await list(entity, { query, path, scope }, { ...ctx(), versions })) as string);
    reply.type('application/json; charset=utf-8').header('x-list-cache', hit ? 'hit' : 'miss');
    return body;
  };

  const handlers: Record<Action, (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>> = {
    list: async (request, reply) => {
      // The data versions are read once for the request: by the scope (which keeps its answer while
      // the tables it read are unchanged), the list cache, the page marks and the kept totals. First
      // presumed (the ones this server last read, checked by the page's own statement: one round
      // trip), then, when they moved meanwhile, read before everything else.
      try {
        return await listWith(request, reply, new DataVersionSnapshot(app.db, { presume: true }));
      } catch (error) {
        if (!(error instanceof StaleDataVersions)) throw error;
        return listWith(request, reply, new DataVersionSnapshot(app.db));
      }
    },
    read: async (request, reply) => {
      const id = idOf(request);
      const query = request.query as Record<string, unknown>;
      const unknown = Object.keys(query).find((name) => name !== 'include');
      if (unknown) throw badRequest(`Unknown query parameter: ${unknown}.`);
      const record = await read(entity, { id, include: query.include as string | string[] | undefined }, ctx());
      reply.header('etag', etagOf(record));
      return { data: record };
    },
    create: async (request, reply) => {
      const record = await create(entity, request.body, ctx(request));
      reply
        .code(201)
        .header('etag', etagOf(record))
        .header('location', `/api/${d.endpoint}/${String(record.id)}`);
      return { data: record };
    },
    update: async (request, reply) => {
      const id = idOf(request);
      const ifMatch = request.headers['if-match'];
      try {
        const record = await update(entity, { id, body: request.body, ifMatch: typeof ifMatch === 'string' ? ifMatch : undefined }, ctx(request));
        reply.header('etag', etagOf(record));
        return { data: record };
      } catch (error) {
        if (!(error instanceof StaleRecordError)) throw error;
        reply.code(409).header('etag', etagOf(error.current));
        return { statusCode: 409, code: error.code, message: error.message, data: error.current };
      }
    },
    delete: async (request, reply) => {
      await remove(entity, idOf(request), ctx(request));
      return reply.code(204).send();
    },
  };

  for (const action of Object.keys(METHODS) as Action[]) {
    const { method, url } = METHODS[action];
    const schema = entityRouteSchema(entity, app.entities, action);
    if (d.permissions[action].length === 0) {
      // Answers 405 (with Allow), so it is no operation of the API: left out of GET /api/openapi.json.
      app.route({
        method,
        url,
        schema,
        validatorCompiler: validatedByOperations,
        config: { openapi: false },
        handler: async (_request, reply) => {
          reply.header('allow', allow(url));
          throw new AppError(405, 'FORBIDDEN', `The ${d.label} ${action} action is not available.`);
        },
      });
      continue;
    }
    // The auth guard checks the descriptor's roles before the handler; `guard` says it again here
    // so that the handler never runs for a role the descriptor does not name.
    app.route({
      method,
      url,
      schema,
      validatorCompiler: validatedByOperations,
      config: { roles: d.permissions[action] as Role[] },
      preHandler: guard(action),
      handler: handlers[action],
    });
  }
}

/** Registers {@link entityCrudRoutes} for every loaded entity, each under its endpoint. */
export async function entityRoutes(app: FastifyInstance) {
  // One cache for all entities, sized by LIST_CACHE_MB (0: none).
  const listCache = app.config.listCacheMb > 0 ? new ListCache(app.config.listCacheMb * 1024 * 1024) : undefined;
  for (const entity of app.entities.entities) {
    await app.register(entityCrudRoutes, { entity, listCache, prefix: `/${entity.descriptor.endpoint}` });
  }
  // With the first-screen thread's warm-up (FIRST_SCREEN_AT_START), once the server is ready, in
  // the background, one at a time: each list's first page as the console's list screen asks for
  // it, read and dropped (no cache is filled). A first read is the slow one (the statements' first
  // plans, the tables' catalogue entries, the code's compile): the first visitor after a start paid
  // it (a first screen's list read took 37-38 ms against 26-33 after this warm-up, 7-9 for the next).
  if (!app.config.firstScreenAtStart) return;
  let closing = false;
  let warming: Promise<void> | undefined;
  app.addHook('onReady', async () => {
    warming = warmListReads(app, () => closing)
      .catch((error: Error) => app.log.warn({ err: { message: error.message } }, 'warming the list reads failed'))
      .then(() => undefined);
  });
  // Before the database closes: the read under way ends, and no other starts.
  app.addHook('preClose', async () => {
    closing = true;
    await warming;
  });
}

/**
 * Reads the admin's first page of every list once, as nobody (no caller's scope: the same code and
 * statements otherwise), until `stopped` says so (see {@link entityRoutes}). A list that fails is skipped.
 */
export async function warmListReads(app: FastifyInstance, stopped: () => boolean = () => false): Promise<number> {
  let read = 0;
  for (const client of clientEntitiesFor(app.entities.entities, ADMIN_ROLE).filter((entity) => entity.permissions.list)) {
    const entity = app.entities.byName.get(client.name);
    if (stopped()) break;
    if (!entity) continue;
    const [path = '', search = ''] = listUrl(client, readListParams(client, new URLSearchParams())).split('?');
    const query = querystring.parse(search) as Record<string, unknown>;
    const versions = new DataVersionSnapshot(app.db);
    try {
      const scope = hasListScopes() ? await listScopeOf({ entity, db: app.db, userId: null, versions }) : {};
      await list(entity, { query, path, scope }, { db: app.db, registry: app.entities, versions });
      read += 1;
    } catch {
      // That list stays cold; its own request says what is wrong with it.
    }
  }
  return read;
}
