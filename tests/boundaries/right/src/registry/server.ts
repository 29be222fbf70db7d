import { hooks } from '../extensions/hooks.js';
import { judgingServer } from '../features/judging/server.js';

export const registry = [judgingServer, hooks];
