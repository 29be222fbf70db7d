import { list } from '../engine/index.js';

export const Cell = () => <span>{list([]).length}</span>;
