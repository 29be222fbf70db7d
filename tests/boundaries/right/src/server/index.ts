export { app } from './app.js';
