/** The cell registry and the component that renders one field of a record through it. */
export { cells, cellFor, isEmptyFor } from './registry.js';
export { formatMoney, moneyOf, type Money } from './money-cell.js';
export { FieldValue, valueOf } from './field-value.js';
export { isEmptyValue, toText } from './cell-types.js';
export type { CellComponent, CellPlace, CellProps } from './cell-types.js';
