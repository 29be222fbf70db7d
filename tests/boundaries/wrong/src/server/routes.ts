import type { Engine } from '../engine/index.js';
import { registry } from '../registry/server.js';
// @ts-expect-error the file does not exist: not-to-unresolvable
import { missing } from './missing.js';

export const routes = (engine: Engine) => [engine, registry, missing];
