import { Cell } from '../extensions/cells.js';
import { judgingClient } from '../features/judging/client.js';

export const registry = [judgingClient, Cell];
