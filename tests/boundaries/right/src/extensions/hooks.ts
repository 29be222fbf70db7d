import type { Item } from '../shared/types.js';

export const hooks = (item: Item) => item.id;
