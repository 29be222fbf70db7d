import { type ClientExtension, registerExtension } from '../engine/registry/index.js';
import { accountsClient } from '../features/accounts/client.js';
import { dataioClient } from '../features/dataio/client.js';
import { editionsClient } from '../features/editions/client.js';
import { entrantsClient } from '../features/entrants/client.js';
import { historyClient } from '../features/history/client.js';
import { judgingClient } from '../features/judging/client.js';
import { mediaClient } from '../features/media/client.js';
import { notificationsClient } from '../features/notifications/client.js';
import { resultsClient } from '../features/results/client.js';

/**
 * The browser's registry: every feature the console ships, registered through the engine's one
 * registration call before the app builds its routes (the client's entry imports this module
 * first). To add a feature, import its client face and add it here.
 */
// Accounts first: it declares the roles the others' screens and parts name.
const features: ClientExtension[] = [
  accountsClient,
  judgingClient,
  resultsClient,
  dataioClient,
  historyClient,
  notificationsClient,
  editionsClient,
  mediaClient,
  entrantsClient,
];
for (const feature of features) registerExtension(feature);
