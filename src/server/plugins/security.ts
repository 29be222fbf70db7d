import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import cookie from '@fastify/cookie';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';
import { badRequest, forbidden, validationFailed } from '../errors.js';

export const XSRF_COOKIE = 'XSRF-TOKEN';
export const XSRF_HEADER = 'x-xsrf-token';
const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function sameToken(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * How deeply a JSON request body may nest arrays and objects. Checked on the raw text before it is
 * parsed, so no recursive walk (the NUL check below, validation, a feature's own) ever meets a body
 * deep enough to overflow the stack: 16 KB of `[` is a 400, not a 500 with a stack trace.
 */
export const MAX_JSON_DEPTH = 64;

/** The deepest nesting of `[`/`{` outside strings in a JSON text (a linear scan; stops past `limit`). */
export function jsonDepth(text: string, limit = MAX_JSON_DEPTH): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/** The dotted paths of the strings (values or keys) in a parsed JSON body that hold a NUL character. */
function nulPaths(value: unknown, path = '', found: string[] = []): string[] {
  // A raw upload (an import file) is bytes, or the request's stream itself, not text: walking it
  // key by key would build millions of entries (or follow a socket's cycles); the import reads it
  // as UTF-8 itself.
  if (ArrayBuffer.isView(value) || value instanceof Readable) return found;
  if (typeof value === 'string') {
    if (value.includes('\0')) found.push(path);
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const at = path ? `${path}.${key}` : key;
      if (key.includes('\0')) found.push(path);
      else nulPaths(item, at, found);
    }
  }
  return found;
}

/**
 * The CSP sources (`'sha256-…'`) of the inline scripts of the built pages (`index*.html` in
 * `publicDir`: the boot script, build.mjs), read again when a page has changed (`npm run dev`
 * rebuilds them under a running server); none without a build.
 */
export function inlineScriptHashes(publicDir: string): () => string[] {
  let seen = '';
  let hashes: string[] = [];
  let checkedAt = -Infinity;
  return () => {
    // Every answer carries the CSP: the folder is looked at again at most once a second.
    const now = performance.now();
    if (now - checkedAt < 1000) return hashes;
    checkedAt = now;
    let pages: Array<{ file: string; mtimeMs: number }>;
    try {
      pages = fs
        .readdirSync(publicDir)
        .filter((name) => /^index(\.[a-z]+)?\.html$/.test(name))
        .map((name) => ({ file: path.join(publicDir, name), mtimeMs: fs.statSync(path.join(publicDir, name)).mtimeMs }));
    } catch {
      return [];
    }
    const key = pages.map((page) => `${page.file}:${page.mtimeMs}`).join('|');
    if (key !== seen) {
      const found = new Set<string>();
      for (const page of pages) {
        for (const [, code] of fs.readFileSync(page.file, 'utf8').matchAll(/<script>([\s\S]*?)<\/script>/g)) {
          found.add(`'sha256-${createHash('sha256').update(code!, 'utf8').digest('base64')}'`);
        }
      }
      hashes = [...found];
      seen = key;
    }
    return hashes;
  };
}

/**
 * Security headers (a CSP whose only inline script is the pages' boot script, allowed by its hash; no framing, nosniff, a strict referrer policy,
 * `Cache-Control: no-store` on every API answer),
 * the XSRF double-submit cookie checked on every write, and JSON as the only accepted body type.
 */
export const securityPlugin = fp(async function securityPlugin(app: FastifyInstance) {
  await app.register(cookie);
  const bootScripts = inlineScriptHashes(app.config.publicDir);
  // The middleware is built once: @fastify/helmet builds it again on every request (its directives
  // parsed and checked each time, work every request would repeat).
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        // The app's files, and the boot script the pages carry inline, by its hash (never 'unsafe-inline').
        scriptSrc: ["'self'", () => bootScripts().join(' ')],
        // Radix Themes and react-toastify set style attributes.
        styleSrc: ["'self'", "'unsafe-inline'"],
        // Only the console's own images and data: URLs, plus the avatar origins CSP_IMG_SRC lists.
        imgSrc: ["'self'", 'data:', ...app.config.cspImgSrc],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    crossOriginEmbedderPolicy: false,
    // CSP frame-ancestors 'none' forbids framing; a second, older header saying the same (and
    // ignored by browsers that read the CSP) would only be a second place to keep in step.
    xFrameOptions: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: false,
  });
  app.addHook('onRequest', (request, reply, done) => {
    securityHeaders(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined));
  });

  // Writes carry JSON or nothing: dropping the text parser makes any other body type a 415.
  app.removeContentTypeParser('text/plain');

  // JSON bodies: nesting limited before parsing (see MAX_JSON_DEPTH), then Fastify's own parser
  // (prototype-poisoning checks included).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (jsonDepth(body as string) > MAX_JSON_DEPTH) {
      done(
        badRequest(`The request body nests arrays or objects more than ${MAX_JSON_DEPTH} levels deep.`, [
          { path: '', keyword: 'depth', messageKey: 'validation.body.tooDeep', params: { limit: MAX_JSON_DEPTH } },
        ]),
        undefined,
      );
      return;
    }
    // Fastify's parser answers through done (its return value is not a promise to wait for).
    void parseJson(request, body as string, done);
  });

  // PostgreSQL cannot store a NUL character (22021): a query parameter or JSON string holding one
  // is the client's mistake, answered 400 / 422 before anything reaches the database.
  app.addHook('preValidation', async (request) => {
    if (!request.url.startsWith('/api/')) return;
    const query = request.url.indexOf('?');
    if (query >= 0 && /%00|\0/.test(request.url.slice(query))) {
      throw badRequest('A query parameter contains a character that is not allowed (NUL).');
    }
    const paths = nulPaths(request.body);
    if (paths.length > 0) {
      throw validationFailed(paths.map((path) => ({ path, keyword: 'characters', messageKey: 'validation.characters', params: {} })));
    }
  });

  app.addHook('onRequest', async (request, reply) => {
    const cookieToken = request.cookies[XSRF_COOKIE];
    if (!cookieToken) {
      reply.setCookie(XSRF_COOKIE, randomBytes(24).toString('base64url'), {
        path: '/',
        sameSite: 'strict',
        secure: request.protocol === 'https',
        httpOnly: false,
      });
    }
    // request.protocol believes X-Forwarded-Proto only from a TRUST_PROXY address.
    if (app.config.hstsMaxAge > 0 && request.protocol === 'https') {
      reply.header('strict-transport-security', `max-age=${app.config.hstsMaxAge}; includeSubDomains`);
    }
    if (!request.url.startsWith('/api/')) return;
    // Answers hold people's names, e-mails and phone numbers: no browser or proxy keeps a copy.
    reply.header('cache-control', 'no-store');
    if (!UNSAFE_METHODS.has(request.method)) return;
    const headerToken = request.headers[XSRF_HEADER];
    if (!cookieToken || typeof headerToken !== 'string' || !sameToken(cookieToken, headerToken)) {
      throw forbidden('Missing or invalid XSRF token: echo the XSRF-TOKEN cookie in the X-XSRF-TOKEN header.');
    }
  });
});
