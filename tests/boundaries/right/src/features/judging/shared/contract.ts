import type { Item } from '../../../shared/types.js';

export const contract = (item: Item) => item.id > 0;
