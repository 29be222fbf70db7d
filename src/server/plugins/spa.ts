import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Serves the built SPA: brotli or gzip copies made by the build when the browser accepts them,
 * hashed assets cached for a year, `index.html` never cached, and any GET
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
      reply.header(
        'cache-control',
        filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
      );
    },
  });
  const sendIndex = (_request: unknown, reply: any) =>
    reply.header('cache-control', 'no-cache').sendFile('index.html', options.publicDir);
  app.get('/', sendIndex);
  app.decorate('spaIndex', sendIndex);
});

declare module 'fastify' {
  interface FastifyInstance {
    /** Answers with the SPA's index.html; present when the client is built. */
    spaIndex?: (request: FastifyRequest, reply: FastifyReply) => unknown;
  }
}
