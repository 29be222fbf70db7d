import type { Item } from '../shared/types.js';

export const list = (items: Item[]) => items.map((item) => item.id);
