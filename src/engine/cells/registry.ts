/**
 * The cells the engine ships, registered by name through `registerExtension` exactly as a
 * feature registers its own (its client face, `src/features/<name>/client.ts`); the descriptor's `cell` (list
 * column or detail field) picks one. To add a kind to the engine, write the component, add one
 * line here and its name to `CELL_KINDS`.
 */
import type { ShippedCellKind } from '../../shared/descriptor/types.js';
import { registerExtension, registeredCell } from '../registry/extension-registry.js';
import type { CellRegistration } from '../registry/extension-types.js';
import { BadgeCell, StatusBadgeCell } from './badge-cells.js';
import { type CellComponent, isEmptyValue } from './cell-types.js';
import { DateCell, RelativeDateCell } from './date-cells.js';
import { EmailCell, ImageCell, LinkCell, PhoneCell } from './link-cells.js';
import { MoneyCell, moneyOf } from './money-cell.js';
import { PresenceCell } from './presence-cell.js';
import { NumberCell, TextCell, TruncateCell } from './text-cells.js';

/** Every shipped cell kind's renderer. `relation` renders the related field as text (see `FieldValue`). */
export const cells: Readonly<Record<ShippedCellKind, CellRegistration>> = {
  text: TextCell,
  truncate: TruncateCell,
  badge: BadgeCell,
  'status-badge': StatusBadgeCell,
  date: DateCell,
  'relative-date': RelativeDateCell,
  image: ImageCell,
  link: LinkCell,
  email: EmailCell,
  phone: PhoneCell,
  number: NumberCell,
  // Money without an amount is empty in its own way ('Not provided').
  money: { component: MoneyCell, isEmpty: (value) => moneyOf(value) === null },
  relation: TextCell,
  presence: PresenceCell,
};

registerExtension({ cells });

/** The renderer of `kind`, plain text when unknown or absent. */
export function cellFor(kind: string | undefined): CellComponent {
  return registeredCell(kind)?.component ?? TextCell;
}

/** Whether `value` shows as empty ('Not provided') in a cell of `kind`. */
export function isEmptyFor(kind: string | undefined, value: unknown): boolean {
  const check = registeredCell(kind)?.isEmpty;
  return check ? check(value) : isEmptyValue(value);
}
