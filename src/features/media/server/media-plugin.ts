import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { MediaService } from './media.service.js';
import { mediaSettings } from './settings.js';
import { openMediaStore } from './store.js';

/**
 * Opens the media store `MEDIA_URL` names (the data directory's `media` folder by default) and
 * decorates `app.media` with the {@link MediaService}; the store is closed with the server.
 */
export const mediaPlugin = fp(async function mediaPlugin(app: FastifyInstance) {
  const settings = mediaSettings(process.env, app.config.dataDir);
  const store = await openMediaStore(settings.store);
  app.decorate('media', new MediaService(app.db as never, store, settings, app.jwtSecret));
  app.addHook('onClose', async () => {
    await store.close();
  });
  app.log.debug({ store: store.kind }, 'media store open');
});

declare module 'fastify' {
  interface FastifyInstance {
    /** Media: uploads, access, signed links (the media feature). */
    media: MediaService;
  }
}

/**
 * A media service outside the server (the seed command): the store `MEDIA_URL` names for
 * `dataDir`, on `db`. Signed links made by it are not valid on a server (they need the server's
 * secret); use it to store files. Close it when done.
 */
export async function openMediaService(db: unknown, dataDir: string): Promise<{ media: MediaService; close(): Promise<void> }> {
  const settings = mediaSettings(process.env, dataDir);
  const store = await openMediaStore(settings.store);
  return { media: new MediaService(db as never, store, settings, new Uint8Array(32)), close: () => store.close() };
}
