/** History's shared face: the wire types its server answers with and its screens read. */
export type { TrashItem } from './shared/trash-item.js';
