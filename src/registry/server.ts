import { accountsServer } from '../features/accounts/server.js';
import { dataioServer } from '../features/dataio/server.js';
import { demoServer } from '../features/demo/server.js';
import { editionsServer } from '../features/editions/server.js';
import { entrantsServer } from '../features/entrants/server.js';
import { historyServer } from '../features/history/server.js';
import { judgingServer } from '../features/judging/server.js';
import { mediaServer } from '../features/media/server.js';
import { notificationsServer } from '../features/notifications/server.js';
import { resultsServer } from '../features/results/server.js';
import { registerServerFeature } from '../server/features.js';
import '../extensions/server/index.js';

/**
 * The server's registry: every feature the console ships, registered by name before the server
 * builds (the entry points import this module first). To add a feature, import its server face and
 * add one line.
 */
// Media before the demo: the demo data's pictures are stored as media.
for (const feature of [
  editionsServer,
  mediaServer,
  demoServer,
  judgingServer,
  notificationsServer,
  resultsServer,
  historyServer,
  dataioServer,
  accountsServer,
  entrantsServer,
]) {
  registerServerFeature(feature);
}
