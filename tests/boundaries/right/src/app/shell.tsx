import { list } from '../engine/index.js';
import type { Item } from '../shared/types.js';

export const Shell = ({ items }: { items: Item[] }) => <ul>{list(items).join(', ')}</ul>;
