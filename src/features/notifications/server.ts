import type { ServerFeature } from '../../server/index.js';
import { notificationRoutes } from './server/notifications-routes.js';

/** Notifications' server face: the header's list of what is new (`GET /api/notifications`). */
export const notificationsServer: ServerFeature = { name: 'notifications', routes: notificationRoutes };

export { FIRST_SIGN_IN_DAYS, LATEST_NOTIFICATIONS } from './server/notifications-routes.js';
