import type { ServerFeature } from '../../server/index.js';
import { demoDataPlugin } from './server/demo-data-plugin.js';

/** The demo data set, created on a first start with empty tables. */
export const demoServer: ServerFeature = { name: 'demo', setup: demoDataPlugin };
