import { registry } from '../registry/server.js';
import { app } from './index.js';

export const main = [registry, app];
