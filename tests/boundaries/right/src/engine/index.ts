export { list } from './list.js';
