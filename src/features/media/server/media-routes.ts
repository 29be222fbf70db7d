import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { badRequest, clientOf, forbidden, notFound, object } from '../../../server/index.js';
import { ADMIN_ROLE, isRole, roleNames } from '../../../shared/roles.js';
import type { MediaRow, MediaVariant } from './media.service.js';

const TAGS = ['Media'];
const id = { type: 'integer', minimum: 1, maximum: 2_147_483_647 };
const idParams = object({ id }, ['id']);
const textOrNull = { type: ['string', 'null'] };
const integerOrNull = { type: ['integer', 'null'] };
const mediaItem = object(
  {
    id: { type: 'integer' },
    type: { type: 'string' },
    size: { type: 'integer' },
    width: integerOrNull,
    height: integerOrNull,
    name: textOrNull,
    contest_id: integerOrNull,
    value: { type: 'string', description: 'What a form field stores: /api/media/<id>.' },
    url: { type: 'string', description: 'The file, signed for the caller (an <img> sends no token).' },
    thumbnail_url: { ...textOrNull, description: "An image's thumbnail (WebP), signed; null for a PDF." },
    created_at: { type: 'string', format: 'date-time' },
  },
  ['id', 'type', 'size', 'width', 'height', 'name', 'contest_id', 'value', 'url', 'thumbnail_url', 'created_at'],
);
/** What `GET /api/media/links` answers to every role: no `contest_id`, so a juror learns no entry's id from a file. */
const { contest_id: _entry, ...linkProperties } = mediaItem.properties;
const mediaLink = object(
  linkProperties,
  mediaItem.required.filter((name) => name !== 'contest_id'),
);
const fileAnswer = {
  description: "The file's bytes, with its type (read from its content when it was uploaded) and nosniff.",
  content: {
    'image/png': { schema: { type: 'string', format: 'binary' } },
    'image/jpeg': { schema: { type: 'string', format: 'binary' } },
    'image/gif': { schema: { type: 'string', format: 'binary' } },
    'image/webp': { schema: { type: 'string', format: 'binary' } },
    'application/pdf': { schema: { type: 'string', format: 'binary' } },
  },
};

/** Leaves a request part as it came: `POST /api/media` reads its body as a stream and checks `?contest` itself. */
const validatedByHandler = () => (value: unknown) => ({ value });

/** `?contest=<id>` of an upload: absent, or an id (1 to 2^31-1); anything else is a 400. */
function contestOf(query: unknown): number | null {
  const raw = (query as { contest?: unknown } | undefined)?.contest;
  if (raw === undefined || raw === '') return null;
  const value = typeof raw === 'string' && /^\d{1,10}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(value) || value < 1 || value > 2_147_483_647) throw badRequest('querystring/contest must be an entry id.');
  return value;
}

/** Roles that may upload: admins, and entrants when a feature declares the role. */
const uploaderRoles = () => [ADMIN_ROLE, ...(isRole('entrant') ? ['entrant'] : [])];

/** Sends a stored file: its own type, its length, nosniff; a PDF as a download, an image inline. */
async function sendFile(app: FastifyInstance, reply: FastifyReply, row: MediaRow, variant: MediaVariant, cache: string) {
  let opened: Awaited<ReturnType<typeof app.media.open>>;
  try {
    opened = await app.media.open(row, variant);
  } catch (error) {
    app.log.warn({ err: { message: (error as Error).message }, media: row.id }, 'media file missing from the store');
    throw notFound('The file is missing from the store.');
  }
  const extension = opened.type === 'application/pdf' ? 'pdf' : opened.type.split('/')[1];
  reply
    .header('content-type', opened.type)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', cache)
    .header('content-disposition', `${opened.type === 'application/pdf' ? 'attachment' : 'inline'}; filename="media-${row.id}.${extension}"`);
  if (opened.size > 0) reply.header('content-length', String(opened.size));
  return reply.send(opened.stream);
}

/**
 * `POST /api/media` (multipart, one part `file`; `?contest=<id>` ties it to an entry the caller may
 * write), `GET /api/media/links?ids=` (signed links for `<img>`), `GET /api/media/:id` (the bytes,
 * with the caller's token), `GET /api/media/:id/content` (the bytes by a signed link: public, the
 * signature stands for the account), `DELETE /api/media/:id`.
 */
export async function mediaRoutes(app: FastifyInstance) {
  const settings = app.media.settings;
  // Multipart only here: the rest of the API still takes JSON alone. Limits apply while reading.
  await app.register(multipart, {
    limits: { fileSize: settings.maxBytes, files: 1, fields: 0, parts: 1, headerPairs: 50 },
    throwFileSizeLimit: true,
  });
  const everyone = roleNames();

  app.post(
    '/media',
    {
      config: { roles: uploaderRoles() },
      // The body is multipart (read as a stream by @fastify/multipart, never parsed to JSON): documented, checked by the handler.
      validatorCompiler: validatedByHandler,
      schema: {
        tags: TAGS,
        summary: 'Upload an image (PNG, JPEG, GIF, WebP) or a PDF.',
        description:
          'multipart/form-data with one part `file`. The type is read from the content (415 otherwise), the size is limited (413), and so is the count per entry and per account (409).',
        consumes: ['multipart/form-data'],
        querystring: object({ contest: { ...id, description: 'The entry to tie the file to (its entrant or an admin).' } }),
        body: { content: { 'multipart/form-data': { schema: object({ file: { type: 'string', format: 'binary' } }, ['file']) } } },
        response: { 201: object({ data: mediaItem }, ['data']) },
      },
    },
    async (request, reply) => {
      const caller = request.user;
      const contestId = contestOf(request.query);
      if (contestId !== null && !(await app.media.mayWriteEntry(caller, contestId))) throw notFound('No such entry.');
      await app.media.checkCount(caller, contestId);
      if (!request.isMultipart()) throw badRequest('Send the file as multipart/form-data with a part named "file".');
      const part = await request.file();
      if (part?.fieldname !== 'file') {
        part?.file.resume();
        throw badRequest('Send the file in a part named "file".');
      }
      const row = await app.media.ingest({ file: part.file, filename: part.filename }, caller, contestId, clientOf(request).ip ?? null);
      reply.code(201);
      return { data: app.media.item(row, caller) };
    },
  );

  app.get(
    '/media/links',
    {
      config: { roles: everyone },
      schema: {
        tags: TAGS,
        summary: 'Signed links of files, for <img>.',
        description: 'Files the caller may not see, or that do not exist, are left out.',
        querystring: object({ ids: { type: 'string', minLength: 1, maxLength: 1100, pattern: '^\\d{1,10}(,\\d{1,10}){0,99}$' } }, ['ids']),
        response: { 200: object({ data: { type: 'array', items: mediaLink } }, ['data']) },
      },
    },
    async (request) => {
      const ids = [...new Set((request.query as { ids: string }).ids.split(',').map(Number))];
      return { data: await app.media.items(request.user, ids) };
    },
  );

  app.get(
    '/media/:id',
    {
      config: { roles: everyone },
      schema: {
        tags: TAGS,
        summary: 'A file, with the access token.',
        description: 'Admins, the uploader, and once tied to an entry its entrant and its assigned jurors; 404 for anyone else.',
        params: idParams,
        querystring: object({ variant: { type: 'string', enum: ['file', 'thumb'], default: 'file' } }),
        response: { 200: fileAnswer },
      },
    },
    async (request, reply) => {
      const row = await app.media.visible(request.user, (request.params as { id: number }).id);
      return sendFile(app, reply, row, (request.query as { variant: MediaVariant }).variant, 'private, no-store');
    },
  );

  app.get(
    '/media/:id/content',
    {
      config: { public: true },
      schema: {
        tags: TAGS,
        summary: 'A file by a signed link (what <img> loads).',
        description: "The signature stands for the account it was made for: that account's access is checked again; an expired or wrong signature is a 404.",
        params: idParams,
        querystring: object(
          {
            variant: { type: 'string', enum: ['file', 'thumb'] },
            user: id,
            expires: { type: 'integer', minimum: 0, maximum: 99_999_999_999 },
            // Its shape is checked by the comparison itself (a wrong one is a 404), so only its length here.
            signature: { type: 'string', minLength: 1, maxLength: 128 },
          },
          ['variant', 'user', 'expires', 'signature'],
        ),
        response: { 200: fileAnswer },
      },
    },
    async (request, reply) => {
      const mediaId = (request.params as { id: number }).id;
      const query = request.query as { variant: MediaVariant; user: number; expires: number; signature: string };
      if (!app.media.verify(mediaId, query.variant, query.user, query.expires, query.signature)) throw notFound('No such file, or the link has expired.');
      const user = await app.db.selectFrom('users').select(['id', 'role', 'disabled_at']).where('id', '=', query.user).executeTakeFirst();
      if (!user || user.disabled_at) throw notFound('No such file, or the link has expired.');
      const row = await app.media.visible({ id: user.id, role: user.role }, mediaId);
      // The link's own lifetime: the browser may keep the bytes until it expires, never share them.
      const seconds = Math.max(0, query.expires - Math.floor(Date.now() / 1000));
      return sendFile(app, reply, row, query.variant, `private, max-age=${seconds}`);
    },
  );

  app.delete(
    '/media/:id',
    {
      config: { roles: uploaderRoles() },
      schema: {
        tags: TAGS,
        summary: 'Delete a file.',
        description: 'Admins, or the uploader while the file is not tied to an entry.',
        params: idParams,
        response: { 204: { type: 'null', description: 'Deleted.' } },
      },
    },
    async (request, reply) => {
      const caller = request.user;
      const row = await app.media.visible(caller, (request.params as { id: number }).id);
      if (caller.role !== ADMIN_ROLE && (row.contest_id !== null || Number(row.owner_user_id) !== caller.id)) {
        throw forbidden('Only an admin may delete a file that is part of an entry.');
      }
      await app.media.remove(row, caller, clientOf(request).ip ?? null);
      return reply.code(204).send();
    },
  );
}
