import { server } from '../server/index.js';
import type { SharedEngine } from '../shared/types.js';

export const hooks = (engine: SharedEngine) => [engine, server];
