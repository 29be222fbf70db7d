import { judgingClient } from '../features/judging/client.js';

export const registry = [judgingClient];
