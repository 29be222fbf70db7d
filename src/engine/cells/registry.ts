/**
 * Cell renderers by name: the descriptor's `cell` (list column or detail field) picks one.
 * To add a kind, write the component and add one line here (and its name to `CELL_KINDS`).
 */
import type { CellKind } from '../../shared/descriptor/types.js';
import { BadgeCell, StatusBadgeCell } from './badge-cells.js';
import { isEmptyValue, type CellComponent } from './cell-types.js';
import { DateCell, RelativeDateCell } from './date-cells.js';
import { EmailCell, ImageCell, LinkCell, PhoneCell } from './link-cells.js';
import { MoneyCell, moneyOf } from './money-cell.js';
import { PresenceCell } from './presence-cell.js';
import { NumberCell, TextCell, TruncateCell } from './text-cells.js';

/** Every cell kind's renderer. `relation` renders the related field as text (see `FieldValue`). */
export const cells: Record<CellKind, CellComponent> = {
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
  money: MoneyCell,
  relation: TextCell,
  presence: PresenceCell,
};

/** The renderer of `kind`, plain text when unknown or absent. */
export function cellFor(kind: string | undefined): CellComponent {
  return (kind && Object.prototype.hasOwnProperty.call(cells, kind) ? cells[kind as CellKind] : undefined) ?? TextCell;
}

/** Kinds whose values can be empty in their own way (money without an amount). */
const emptyWhen: Partial<Record<CellKind, (value: unknown) => boolean>> = {
  money: (value) => moneyOf(value) === null,
};

/** Whether `value` shows as empty ('Not provided') in a cell of `kind`. */
export function isEmptyFor(kind: string | undefined, value: unknown): boolean {
  const check = kind && Object.prototype.hasOwnProperty.call(emptyWhen, kind) ? emptyWhen[kind as CellKind] : undefined;
  return check ? check(value) : isEmptyValue(value);
}
