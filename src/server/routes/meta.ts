import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthUser } from '../../shared/api-contract.js';
import { clientEntitiesFor } from '../../shared/descriptor/client-entity.js';
import { DescriptorError } from '../../shared/descriptor/descriptor-error.js';
import type { ClientEntity, MetaEntitiesResponse } from '../../shared/descriptor/types.js';
import { listUrl, readListParams } from '../../shared/list-request.js';
import { roleNames } from '../../shared/roles.js';
import { ScreenCache } from '../first-screen/screen-cache.js';
import { cachedProductName } from '../settings/product-name.js';
import { NO_CONTENT } from './auth.js';

/** A JSON answer and its brotli and gzip forms: made by {@link CompressedJson.prepare}, else on first use. */
interface CompressedJson {
  json: string;
  /** The descriptors in it. */
  data: ClientEntity[];
  /** What it was built from (rebuilt when that changes). */
  source: unknown;
  br(): Buffer;
  gzip(): Buffer;
  /** Makes both forms off the server's thread (Node's thread pool), so that no request waits while they are made. */
  prepare(): Promise<void>;
}

const BROTLI_JSON = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT } };
const GZIP_JSON = { level: 9 };
const brotliAsync = promisify(zlib.brotliCompress);
const gzipAsync = promisify(zlib.gzip);

function compressedJson(json: string, data: ClientEntity[], source: unknown): CompressedJson {
  let br: Buffer | undefined;
  let gzip: Buffer | undefined;
  return {
    json,
    data,
    source,
    br: () => (br ??= zlib.brotliCompressSync(json, BROTLI_JSON)),
    gzip: () => (gzip ??= zlib.gzipSync(json, GZIP_JSON)),
    prepare: async () => {
      const [brotli, gzipped] = await Promise.all([brotliAsync(json, BROTLI_JSON), gzipAsync(json, GZIP_JSON)]);
      br ??= brotli;
      gzip ??= gzipped;
    },
  };
}

/** The compression to answer with: brotli, else gzip, when the request's Accept-Encoding allows it (q=0 refuses). */
export function acceptedEncoding(header: string | string[] | undefined): 'br' | 'gzip' | undefined {
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  const accepted = new Set<string>();
  for (const part of text.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    if (name && (q === undefined || Number(q) > 0)) accepted.add(name);
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip') || accepted.has('*')) return 'gzip';
  return undefined;
}

/** The languages extra translations may be given in (the browser's languages). */
const LANGUAGES = ['en', 'id', 'ms'] as const;

type Tree = { [key: string]: string | Tree };

function mergeInto(target: Tree, source: Tree): Tree {
  for (const [key, value] of Object.entries(source)) {
    const current = target[key];
    if (typeof value === 'object' && value !== null && typeof current === 'object') mergeInto(current, value);
    else target[key] = typeof value === 'object' && value !== null ? mergeInto({}, value) : value;
  }
  return target;
}

/**
 * The extra translations of each language: every `<dir>/<language>/*.json` of the locales folders
 * (`LOCALES_DIR`), merged in order. A missing folder or a file that is not a JSON object stops
 * start-up with its name.
 */
export function readExtraLocales(dirs: readonly string[]): Record<string, Tree> {
  const byLanguage: Record<string, Tree> = Object.fromEntries(LANGUAGES.map((language) => [language, {}]));
  for (const dir of dirs) {
    if (!fs.existsSync(dir)) throw new DescriptorError(dir, '', 'the locales folder (LOCALES_DIR) does not exist');
    for (const language of LANGUAGES) {
      const folder = path.join(dir, language);
      if (!fs.existsSync(folder)) continue;
      for (const name of fs
        .readdirSync(folder)
        .filter((n) => n.endsWith('.json'))
        .sort()) {
        const file = path.join(folder, name);
        let tree: unknown;
        try {
          tree = JSON.parse(fs.readFileSync(file, 'utf8'));
        } catch (error) {
          throw new DescriptorError(file, '', `is not valid JSON: ${(error as Error).message}`);
        }
        if (typeof tree !== 'object' || tree === null || Array.isArray(tree)) throw new DescriptorError(file, '', 'is not a JSON object');
        mergeInto(byLanguage[language]!, tree as Tree);
      }
    }
  }
  return byLanguage;
}

/**
 * `GET /api/meta/entities`: the client-safe descriptor and schemas of every entity the caller's
 * role may do anything with, permissions resolved to booleans, in menu order. Any role may ask;
 * each sees only what the descriptors grant its role.
 *
 * `GET /api/locales/:language`: the extra translations of `LOCALES_DIR` for one language (an empty
 * object without any), which the browser merges over its own; public, like the shipped ones.
 */
export async function metaRoutes(app: FastifyInstance) {
  // Every signed-in account may ask: each role gets its own answer.
  const anyRole = { roles: roleNames() };
  const extra = readExtraLocales(app.config.localesDirs ?? []);
  const hasExtra = Object.values(extra).some((tree) => Object.keys(tree).length > 0);
  // The answer depends only on the role and the descriptors loaded at start: it is built, and
  // compressed, once per role (a large JSON answer that compresses well), not per request.
  const answers = new Map<string, CompressedJson>();
  const answerFor = (role: string | undefined): CompressedJson => {
    const key = `${role ?? ''}`;
    let answer = answers.get(key);
    if (!answer || answer.source !== app.entities.entities) {
      const data = clientEntitiesFor(app.entities.entities, role);
      const body: MetaEntitiesResponse = hasExtra ? { data, extraTranslations: true } : { data };
      answer = compressedJson(JSON.stringify(body), data, app.entities.entities);
      answers.set(key, answer);
    }
    return answer;
  };
  // With the warm-up at start (FIRST_SCREEN_AT_START), each role's answer is made and compressed
  // once the server is ready, before its first visitor asks (brotli at quality 9 took the server's
  // thread some 30 ms at the first request otherwise).
  app.addHook('onReady', async () => {
    if (!app.config.firstScreenAtStart) return;
    for (const role of roleNames()) {
      answerFor(role)
        .prepare()
        .catch((error: Error) => app.log.warn({ err: { message: error.message } }, 'compressing the entity descriptors failed'));
    }
  });
  // Sent as built once per role (JSON of `MetaEntitiesResponse`, compressed): this schema describes it.
  const entitiesSchema = {
    type: 'object',
    additionalProperties: false,
    required: ['data'],
    properties: {
      data: {
        type: 'array',
        items: {
          type: 'object',
          additionalProperties: true,
          description: 'One client-safe entity descriptor (ClientEntity): schemas, list, form, permissions.',
        },
      },
      extraTranslations: { type: 'boolean', description: 'Whether GET /api/locales/{language} has extra translations.' },
    },
  };
  app.get('/meta/entities', { config: anyRole, schema: { response: { 200: entitiesSchema } } }, async (request, reply) => {
    const answer = answerFor(request.user?.role);
    const encoding = acceptedEncoding(request.headers['accept-encoding']);
    reply.header('content-type', 'application/json; charset=utf-8').header('vary', 'Accept-Encoding');
    if (encoding === 'br') return reply.header('content-encoding', 'br').send(answer.br());
    if (encoding === 'gzip') return reply.header('content-encoding', 'gzip').send(answer.gzip());
    return reply.send(answer.json);
  });

  // The headers of the caller's request that the requests made for it carry along.
  const PASSED_HEADERS = ['authorization', 'x-access-token', 'cookie', 'accept-language', 'user-agent'];
  const passedHeaders = (request: FastifyRequest) =>
    Object.fromEntries(PASSED_HEADERS.flatMap((name) => (typeof request.headers[name] === 'string' ? [[name, request.headers[name] as string]] : [])));
  /** The list the page at `path` + `search` shows the caller, and the URL its list screen asks for. */
  const firstListOf = (request: FastifyRequest, pathname: string, search: string | undefined) => {
    const path = pathname.replace(/\/+$/, '');
    const entity = answerFor(request.user?.role).data.find((candidate) => candidate.permissions.list && `/${candidate.routes.list}` === path);
    // The very URL the console's list screen asks for (the same code builds it).
    return entity && { entity, url: listUrl(entity, readListParams(entity, new URLSearchParams(search ?? ''))) };
  };
  const pageQuery = {
    type: 'object',
    properties: { path: { type: 'string', minLength: 1, maxLength: 300 }, search: { type: 'string', maxLength: 4000 } },
    required: ['path'],
    additionalProperties: false,
  } as const;

  app.get<{ Querystring: { path: string; search?: string } }>(
    '/meta/first-list',
    {
      config: anyRole,
      schema: {
        querystring: pageQuery,
        response: {
          // The list route's own answer, passed on as it serialised it (its status too: a refusal stays one).
          200: {
            type: 'object',
            additionalProperties: true,
            description: 'The answer of GET /api/{entity} for the page (see that route), its URL in x-list-url.',
          },
          204: NO_CONTENT('The page shows no list the caller may see.'),
        },
      },
    },
    async (request, reply) => {
      const list = firstListOf(request, request.query.path, request.query.search);
      if (!list) return reply.code(204).send();
      // Answered by the list's own route: the same checks, cache and serialisation as when the browser asks it.
      const answer = await app.inject({ method: 'GET', url: list.url, headers: passedHeaders(request), remoteAddress: request.ip });
      for (const name of ['content-type', 'x-list-cache', 'etag']) {
        const value = answer.headers[name];
        if (typeof value === 'string') reply.header(name, value);
      }
      return reply.code(answer.statusCode).header('x-list-url', list.url).header('cache-control', 'no-store').send(answer.rawPayload);
    },
  );

  // The first-screen render thread (started before the server loads; first-screens.ts says how it warms up).
  const renderer = app.firstScreens;
  const screens = new ScreenCache(app.config.firstScreenCache);

  // `GET /api/meta/first-screen?path=&search=&lng=&sidebar=`: the HTML of the list screen a
  // signed-in page shows, with the caller's rows, role and language (the boot script shows it inert
  // until the app's first render replaces it), its page title in `x-page-title`; 204 when the page
  // is no list, its list answers other than 200, or no render is to be had (none built, the thread
  // starting, too busy).
  app.get<{ Querystring: { path: string; search?: string; lng?: string; sidebar?: 'collapsed' } }>(
    '/meta/first-screen',
    {
      config: anyRole,
      schema: {
        querystring: {
          ...pageQuery,
          properties: { ...pageQuery.properties, lng: { type: 'string', enum: [...LANGUAGES] }, sidebar: { type: 'string', enum: ['collapsed'] } },
        },
        response: {
          200: { description: 'The list screen as HTML, its title in x-page-title.', content: { 'text/html': { schema: { type: 'string' } } } },
          204: NO_CONTENT('No first screen: the browser renders its own.'),
        },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const list = firstListOf(request, request.query.path, request.query.search);
      if (!list || !renderer.available || !(await renderer.ready(1000))) return reply.code(204).send();
      const headers = passedHeaders(request);
      const asked = performance.now();
      const [answer, me] = await Promise.all([
        app.inject({ method: 'GET', url: list.url, headers, remoteAddress: request.ip }),
        app.inject({ method: 'GET', url: '/api/auth/me', headers, remoteAddress: request.ip }),
      ]);
      // Whatever the screen would show other than a page of rows (a refusal, an error) it shows itself.
      if (answer.statusCode !== 200 || me.statusCode !== 200) return reply.code(204).send();
      const fetched = performance.now();
      const input = {
        path: request.query.path,
        search: request.query.search ?? '',
        language: request.query.lng ?? 'en',
        user: (me.json() as { data: AuthUser }).data,
        entities: answerFor(request.user?.role).data,
        entity: list.entity,
        list: answer.json(),
        extraTranslations: extra[request.query.lng ?? 'en'],
        sidebarCollapsed: request.query.sidebar === 'collapsed',
        product: cachedProductName(),
      };
      // The descriptors and translations are the role's and the language's for the server's life: the role and language name them.
      const key = ScreenCache.key([
        request.user?.role,
        input.path,
        input.search,
        input.language,
        input.user,
        list.entity.name,
        input.list,
        input.sidebarCollapsed,
        input.product,
      ]);
      let screen = screens.get(key);
      reply.header('x-first-screen-cache', screen ? 'hit' : 'miss');
      if (!screen) {
        const rendered = await renderer.render(input);
        if (rendered === null) return reply.code(204).send();
        screen = screens.set(key, rendered);
      }
      // The page title the screen sets (the boot script sets it with the markup), as URI text: a header is Latin-1.
      reply.header('x-page-title', encodeURIComponent(screen.title));
      reply.header('server-timing', `data;dur=${(fetched - asked).toFixed(1)}, render;dur=${(performance.now() - fetched).toFixed(1)}`);
      reply.header('content-type', 'text/html; charset=utf-8').header('vary', 'Accept-Encoding').header('x-list-url', list.url);
      // Markup compresses well; a fast setting, since it is made for each new render.
      const encoding = acceptedEncoding(request.headers['accept-encoding']);
      if (encoding !== 'br' && encoding !== 'gzip') return reply.send(screen.html);
      let body = screen.encoded.get(encoding);
      if (!body) {
        body =
          encoding === 'br'
            ? zlib.brotliCompressSync(screen.html, {
                params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT },
              })
            : zlib.gzipSync(screen.html, { level: 6 });
        screen.encoded.set(encoding, body);
      }
      return reply.header('content-encoding', encoding).send(body);
    },
  );

  app.get<{ Params: { language: string } }>(
    '/locales/:language',
    {
      config: { public: true },
      schema: {
        params: { type: 'object', properties: { language: { type: 'string', enum: [...LANGUAGES] } }, required: ['language'] },
        response: {
          200: {
            type: 'object',
            additionalProperties: true,
            description: 'The extra translations of LOCALES_DIR for the language: nested objects of strings ({} without any).',
          },
        },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-cache');
      return extra[request.params.language] ?? {};
    },
  );
}
