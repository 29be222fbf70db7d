import { service } from './server/service.js';

export const resultsServer = service;
