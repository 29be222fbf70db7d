import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { SHELL_LANGUAGES, shellFile, shellLanguage } from '../../shared/shell-language.js';

/**
 * Serves the built SPA: brotli or gzip copies made by the build when the browser accepts them,
 * hashed assets cached for a year, the HTML shell never cached and in the request's language
 * (`index.html`, `index.id.html`, `index.ms.html`: see shell-language.ts), and any GET
 * outside `/api` that matches no file falls back to `index.html` so client routes survive a reload.
 * Unknown `/api` paths stay JSON 404s (the errors plugin's not-found handler).
 */
export const spaPlugin = fp(async function spaPlugin(app: FastifyInstance, options: { publicDir: string }) {
  const index = path.join(options.publicDir, 'index.html');
  if (!fs.existsSync(index)) {
    app.log.warn(`No built client at ${options.publicDir}; run "npm run build". Only the API is served.`);
    return;
  }
  await app.register(fastifyStatic, {
    root: options.publicDir,
    wildcard: false,
    index: false,
    // The build writes .br and .gz copies of every text file: the one the browser accepts is sent.
    preCompressed: true,
    setHeaders(reply, filePath) {
      reply.header('cache-control', filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });
  // The shell in the request's language (its <title>, <noscript> and <html lang>); the English one
  // when a build has no file for it.
  const shells = new Map(SHELL_LANGUAGES.map((language) => [language, fs.existsSync(path.join(options.publicDir, shellFile(language)))]));
  const sendIndex = (request: FastifyRequest, reply: FastifyReply) => {
    const language = shellLanguage({
      lng: (request.query as Record<string, unknown> | undefined)?.lng,
      cookie: request.headers.cookie,
      acceptLanguage: request.headers['accept-language'],
    });
    return reply
      .header('cache-control', 'no-cache')
      .header('vary', 'Accept-Language, Cookie')
      .header('content-language', shells.get(language) ? language : 'en')
      .sendFile(shells.get(language) ? shellFile(language) : 'index.html', options.publicDir);
  };
  app.get('/', sendIndex);
  app.decorate('spaIndex', sendIndex);
});

declare module 'fastify' {
  interface FastifyInstance {
    /** Answers with the SPA's index.html; present when the client is built. */
    spaIndex?: (request: FastifyRequest, reply: FastifyReply) => unknown;
  }
}
