import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import zlib from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { PRODUCT_NAME } from '../../shared/product.js';
import { buildOpenApiDocument, type DocumentedRoute } from '../openapi/build-document.js';

const DOCUMENT_URL = '/api/openapi.json';
const VIEWER_URL = '/api/docs/redoc.standalone.js';

/**
 * The reference page may run only the viewer served here: no CDN, no inline script. Redoc sets
 * style attributes and builds its search worker from a blob, which only this page allows.
 */
export const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${PRODUCT_NAME} API</title>
</head>
<body>
<redoc spec-url="${DOCUMENT_URL}" hide-hostname="true"></redoc>
<script src="${VIEWER_URL}"></script>
</body>
</html>
`;

function packageVersion(): string {
  try {
    return (JSON.parse(fs.readFileSync(path.resolve('package.json'), 'utf8')) as { version?: string }).version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

/** Redoc's standalone bundle from node_modules, read once, with a gzip copy. */
function viewerBundle(): { plain: Buffer; gzip: Buffer } {
  const file = createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js');
  const plain = fs.readFileSync(file);
  return { plain, gzip: zlib.gzipSync(plain, { level: 9 }) };
}

/**
 * The API describes itself: every route registered under `/api` after this plugin is
 * collected (an `onRoute` hook, so routes added later by any plugin appear without extra work),
 * and at start-up their schemas become one OpenAPI 3.1 document, served at `GET /api/openapi.json`
 * and rendered at `GET /api/docs` by Redoc, served from node_modules (works offline). Both are
 * public: they show the shape of the API, never its data. A route is left out with
 * `config: { openapi: false }`.
 */
export const openapiPlugin = fp(async function openapiPlugin(app: FastifyInstance) {
  const routes: DocumentedRoute[] = [];
  app.decorate('apiRoutes', routes as readonly DocumentedRoute[]);
  app.addHook('onRoute', (route: RouteOptions) => {
    if (route.url.startsWith('/api/'))
      routes.push({
        method: route.method,
        url: route.url,
        schema: route.schema as DocumentedRoute['schema'],
        config: route.config as DocumentedRoute['config'],
      });
  });

  let document: string | undefined;
  app.addHook('onReady', async () => {
    document = JSON.stringify(
      buildOpenApiDocument(routes, {
        title: `${PRODUCT_NAME} API`,
        version: packageVersion(),
        description:
          `The HTTP API of ${PRODUCT_NAME}, generated at start-up from the entity descriptors and the routes' own schemas. ` +
          'Sign in with `POST /api/login`; send the access token as `Authorization: Bearer …` (or `x-access-token`) and, on every write, ' +
          'echo the `XSRF-TOKEN` cookie in the `X-XSRF-TOKEN` header. Errors are `{statusCode, code, message, errors?}`.',
      }),
    );
  });

  let bundle: ReturnType<typeof viewerBundle> | undefined;
  app.get(
    DOCUMENT_URL,
    {
      config: { public: true },
      schema: {
        tags: ['docs'],
        summary: 'This OpenAPI 3.1 document.',
        response: { 200: { type: 'object', additionalProperties: true, description: 'The OpenAPI document.' } },
      },
    },
    async (_request, reply) => reply.type('application/json; charset=utf-8').send(document),
  );
  app.get(
    '/api/docs',
    {
      config: { public: true },
      schema: {
        tags: ['docs'],
        summary: 'The API reference (HTML), rendered from the document.',
        response: { 200: { description: 'An HTML page.', content: { 'text/html': { schema: { type: 'string' } } } } },
      },
    },
    async (_request, reply) => reply.header('content-security-policy', DOCS_CSP).type('text/html; charset=utf-8').send(DOCS_PAGE),
  );
  app.get(
    VIEWER_URL,
    // A static file of the reference page, not an operation of the API: left out of the document.
    { config: { public: true, openapi: false } },
    async (request: FastifyRequest, reply: FastifyReply) => {
      bundle ??= viewerBundle();
      const gzip = /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
      reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=86400').header('vary', 'accept-encoding');
      if (gzip) reply.header('content-encoding', 'gzip');
      return reply.send(gzip ? bundle.gzip : bundle.plain);
    },
  );
});

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered under `/api` (method, url, schema, config), as the document is built from them. */
    apiRoutes: readonly DocumentedRoute[];
  }
  interface FastifyContextConfig {
    /** `false` leaves the route out of GET /api/openapi.json (a static file, not an operation). */
    openapi?: boolean;
  }
}
