import { hooks } from '../../../extensions/hooks.js';
import { pool } from '../../../server/db/pool.js';
import { server } from '../../../server/index.js';
import { service } from '../../results/server/service.js';
import { resultsServer } from '../../results/server.js';
import { clientFormat } from '../client/format.js';

export const grades = [hooks, pool, server, resultsServer, service, clientFormat];
