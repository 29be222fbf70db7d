import { server } from '../../../server/index.js';

export const contract = server;
