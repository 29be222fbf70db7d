import type { Item } from '../shared/types.js';

export const app = (item: Item) => item.id;
