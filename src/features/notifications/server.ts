import type { ServerFeature } from '../../server/index.js';
import { notificationRoutes } from './server/notifications-routes.js';

/** Notifications' server face: the header's list of what is new. */
export const notificationsServer: ServerFeature = { name: 'notifications', routes: notificationRoutes };
