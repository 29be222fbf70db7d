import { app } from '../../server/index.js';

export const resultsServer = app;
