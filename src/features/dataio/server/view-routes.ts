import type { FastifyInstance, FastifyRequest } from 'fastify';
import { noContent, route, validatedByHandler, viewAnswer, viewBody, viewParams, viewsAnswer, viewsQuery } from './schemas.js';
import { dataioDb } from './tables.js';
import { type ViewCaller, ViewService } from './views.service.js';

/**
 * Saved list views, stored on the server (views.service.ts): `GET /api/views?entity=` the admin's
 * own and the shared ones; `POST /api/views {entity, name, query, shared}`; `DELETE /api/views/:id`
 * (the owner only). A view is opened by its link: the list's path with its query.
 */
export async function viewRoutes(app: FastifyInstance) {
  const views = new ViewService(dataioDb(app.db), app.entities);
  const caller = (request: FastifyRequest): ViewCaller => ({ userId: request.user!.id, role: request.user?.role });
  const checked = { validatorCompiler: validatedByHandler };

  app.get(
    '/views',
    {
      ...checked,
      schema: route("The caller's saved views of an entity's list and the shared ones.", { querystring: viewsQuery, response: { 200: viewsAnswer } }),
    },
    async (request) => ({
      data: await views.list((request.query as { entity?: string }).entity, caller(request)),
    }),
  );

  app.post(
    '/views',
    { ...checked, schema: route("Save a list's query as a view, the caller's own or shared.", { body: viewBody, response: { 201: viewAnswer } }) },
    async (request, reply) => reply.code(201).send({ data: await views.create((request.body ?? {}) as Record<string, unknown>, caller(request)) }),
  );

  app.delete(
    '/views/:id',
    { ...checked, schema: route("Delete one of the caller's views.", { params: viewParams, response: { 204: noContent } }) },
    async (request, reply) => {
      await views.remove((request.params as { id: string }).id, caller(request));
      return reply.code(204).send();
    },
  );
}
