import type { FastifyInstance } from 'fastify';
import type { ServerFeature } from '../../server/index.js';
import { migration018NotificationsOutbox } from './server/migrations/018-notifications-outbox.js';
import { notificationRoutes } from './server/notifications-routes.js';
import { outboxMailer, outboxPlugin } from './server/outbox-plugin.js';
import { outboxRoutes } from './server/outbox-routes.js';

/**
 * Notifications' server face: the outbox (every mail written with its cause, sent by a worker;
 * `GET /api/outbox` and retry / cancel for admins) and the header's list of what is new
 * (`GET /api/notifications`).
 */
export const notificationsServer: ServerFeature = {
  name: 'notifications',
  mailer: outboxMailer,
  setup: outboxPlugin,
  async routes(app: FastifyInstance) {
    await app.register(notificationRoutes);
    await app.register(outboxRoutes);
  },
  migrations: { '018-notifications-outbox': migration018NotificationsOutbox },
};

export { FIRST_SIGN_IN_DAYS, LATEST_NOTIFICATIONS } from './server/notifications-routes.js';
export { enqueueMail } from './server/outbox-mailer.js';
export { outboxWorkerOf } from './server/outbox-plugin.js';
export type { OutboxTable, OutboxTables } from './server/outbox-tables.js';
export { outboxDb } from './server/outbox-tables.js';
