import type { FastifyInstance } from 'fastify';
import type { ServerFeature } from '../../server/index.js';
import { mediaPlugin } from './server/media-plugin.js';
import { mediaRoutes } from './server/media-routes.js';
import { migration020Media } from './server/migrations/020-media.js';
import { mediaNames } from './shared/extension-names.js';

/**
 * Media's server face: uploads (`POST /api/media`), files served from the console's own origin to
 * those allowed to see their entry, signed links for `<img>`, thumbnails; the store is the data
 * directory's `media` folder, or an S3-compatible bucket when `MEDIA_URL=s3://…`.
 */
export const mediaServer: ServerFeature = {
  name: 'media',
  setup: mediaPlugin,
  async routes(app: FastifyInstance) {
    await app.register(mediaRoutes);
  },
  clientNames: mediaNames,
  migrations: { '020-media': migration020Media },
};

export { demoImage } from './server/demo-images.js';
export type { MediaCaller, MediaRow, MediaService } from './server/media.service.js';
export { attachEntryMedia, mediaIdOf } from './server/media.service.js';
export { openMediaService } from './server/media-plugin.js';
