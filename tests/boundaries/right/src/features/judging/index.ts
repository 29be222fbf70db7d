export { contract } from './shared/contract.js';
