/** The cell registry and the component that renders one field of a record through it. */

export type { CellComponent, CellPlace, CellProps } from './cell-types.js';
export { isEmptyValue, toText } from './cell-types.js';
export { displayedValue, FieldValue } from './field-value.js';
export { formatMoney, type Money, moneyOf } from './money-cell.js';
export { cellFor, cells, isEmptyFor } from './registry.js';
