import { registry } from '../registry/server.js';

export const main = registry;
