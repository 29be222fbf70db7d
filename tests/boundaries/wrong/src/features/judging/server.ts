import { grades } from './server/grades.js';

export const judgingServer = grades;
