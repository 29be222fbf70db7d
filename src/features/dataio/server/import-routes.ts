import type { FastifyInstance, FastifyRequest } from 'fastify';
import { NO_BODY_SCHEMA } from '../../../server/index.js';
import { exportLanguage } from './export-rows.js';
import { MAX_IMPORT_BYTES, tooLarge } from './import-file.js';
import { type ImportBody, type ImportCaller, ImportService } from './imports.service.js';
import {
  fileAnswer,
  jobAnswer,
  jobParams,
  jobsAnswer,
  jobsQuery,
  langQuery,
  previewAnswer,
  previewBody,
  route,
  sampleParams,
  startBody,
  uploadAnswer,
  uploadQuery,
  validatedByHandler,
} from './schemas.js';

/** The file types an upload's body may be sent as (read as bytes, as they arrive). */
const FILE_TYPES = ['application/octet-stream', 'text/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'];

/**
 * Imports, under `/api/imports` (see docs/architecture.md, "The import job"; the work is
 * imports.service.ts):
 * - `POST /imports?entity=<name>&filename=` with the file as the body (octet-stream, ≤ 50 MB):
 *   stores it, answers its columns, the guessed mapping and the row count;
 * - `POST /imports/:id/preview {mapping, fixes}`: every row checked by the forms' validator; the
 *   first rows and the invalid ones (each invalid cell with its message key);
 * - `POST /imports/:id/start {mapping, fixes, mode}`: runs the job on the server (one running
 *   import per entity); `GET /imports/:id` its progress; `POST /imports/:id/cancel`;
 * - `GET /imports/:id/report` the rows not imported and why (CSV); `GET /imports?entity=` the
 *   recent jobs (a closed browser finds its import again); `GET /imports/sample/:entity` a sample file.
 * Each needs the entity's create permission (update too when it updates by key).
 */
export async function importRoutes(app: FastifyInstance) {
  const imports = new ImportService({ db: app.db, registry: app.entities, log: app.log });
  await imports.failInterrupted(app.database.kind === 'pglite');
  // Jobs and their stored tables expire (IMPORT_RETENTION_DAYS, 30 by default): swept at start and hourly.
  const sweep = () => imports.expire().catch((error: unknown) => app.log.warn({ err: error }, 'import job expiry failed'));
  await sweep();
  const sweeper = setInterval(() => void sweep(), 60 * 60 * 1000);
  sweeper.unref();
  app.addHook('onClose', async () => {
    clearInterval(sweeper);
    await imports.stopAll();
  });

  const caller = (request: FastifyRequest): ImportCaller => ({ role: request.user?.role, userId: request.user?.id ?? null, ip: request.ip ?? null });
  const idOf = (request: FastifyRequest) => (request.params as { id: string }).id;
  const bodyOf = (request: FastifyRequest) => (request.body ?? {}) as ImportBody;
  const languageOf = (request: FastifyRequest) => exportLanguage((request.query as { lang?: string }).lang, request.headers['accept-language']);
  const checked = { validatorCompiler: validatedByHandler };

  app.register(async (uploads) => {
    // The body is handed on as the stream it is (read, checked and stored as it arrives, see
    // ImportService.upload); a declared length over the limit is refused before a byte is read.
    uploads.addContentTypeParser(FILE_TYPES, (request, payload, done) => {
      if (Number(request.headers['content-length'] ?? 0) > MAX_IMPORT_BYTES) done(tooLarge(), undefined);
      else done(null, payload);
    });
    uploads.post(
      '/imports',
      {
        bodyLimit: MAX_IMPORT_BYTES + 1,
        ...checked,
        schema: route(
          'Upload a CSV or XLSX file (the request body, application/octet-stream, at most 50 MB) for an import: its columns, the guessed mapping, its rows.',
          {
            querystring: uploadQuery,
            body: { content: Object.fromEntries(FILE_TYPES.map((type) => [type, { schema: { type: 'string', format: 'binary' } }])) },
            response: { 201: uploadAnswer },
          },
        ),
      },
      async (request, reply) => {
        const query = request.query as { entity?: string; filename?: string };
        const upload = await imports.upload(query.entity, request.body, query.filename, caller(request));
        return reply.code(201).send({ data: upload });
      },
    );
  });

  app.get(
    '/imports',
    { ...checked, schema: route("An entity's latest import jobs, newest first.", { querystring: jobsQuery, response: { 200: jobsAnswer } }) },
    async (request) => ({ data: await imports.recent((request.query as { entity?: string }).entity, caller(request)) }),
  );

  app.post(
    '/imports/:id/preview',
    {
      ...checked,
      schema: route('Check every row with a mapping and fixes: the first rows and the invalid ones.', {
        params: jobParams,
        body: previewBody,
        response: { 200: previewAnswer },
      }),
    },
    async (request) => ({ data: await imports.preview(idOf(request), bodyOf(request), caller(request)) }),
  );

  app.post(
    '/imports/:id/start',
    {
      ...checked,
      schema: route('Start the import on the server (one running import per entity).', { params: jobParams, body: startBody, response: { 202: jobAnswer } }),
    },
    async (request, reply) => reply.code(202).send({ data: await imports.start(idOf(request), bodyOf(request), caller(request)) }),
  );

  app.get(
    '/imports/:id',
    { ...checked, schema: route('An import job and, while it runs, its phase, rate and time left.', { params: jobParams, response: { 200: jobAnswer } }) },
    async (request) => ({ data: await imports.progress(idOf(request), caller(request)) }),
  );

  app.post(
    '/imports/:id/cancel',
    {
      ...checked,
      schema: route('Cancel a running import: nothing of it is kept.', { params: jobParams, body: NO_BODY_SCHEMA, response: { 200: jobAnswer } }),
    },
    async (request) => ({ data: await imports.cancel(idOf(request), caller(request)) }),
  );

  app.get(
    '/imports/:id/report',
    {
      ...checked,
      schema: route('The rows an import did not import and why, as CSV.', {
        params: jobParams,
        querystring: langQuery,
        response: { 200: fileAnswer('The report (an attachment).') },
      }),
    },
    async (request, reply) => {
      const file = await imports.report(idOf(request), languageOf(request), caller(request));
      return reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${file.fileName}"`).send(file.body);
    },
  );

  app.get(
    '/imports/sample/:entity',
    {
      ...checked,
      schema: route("A sample file of an entity's import, headers in the chosen language.", {
        params: sampleParams,
        querystring: langQuery,
        response: { 200: fileAnswer('The sample (an attachment).') },
      }),
    },
    async (request, reply) => {
      const file = imports.sample((request.params as { entity: string }).entity, languageOf(request), caller(request));
      return reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${file.fileName}"`).send(file.body);
    },
  );
}
