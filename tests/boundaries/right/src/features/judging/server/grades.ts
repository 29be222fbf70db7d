import { app } from '../../../server/index.js';
import { resultsServer } from '../../results/server.js';
import { contract } from '../index.js';

export const grades = [app, resultsServer, contract];
