import type { ComponentType } from 'react';
import type { FieldDisplay } from '../../shared/descriptor/types.js';

/** Where a cell renders: a list row (compact) or a detail page (roomier, full text). */
export type CellPlace = 'list' | 'detail';

/** What every cell receives. `value` is `record[display.field]`; empty values never reach a cell. */
export interface CellProps {
  value: unknown;
  record: Record<string, unknown>;
  display: FieldDisplay;
  place: CellPlace;
}

/** A cell renderer, registered by name in `./index.ts`. */
export type CellComponent = ComponentType<CellProps>;

/** Whether a value counts as empty ('Not provided'): null, undefined, blank text or an empty list. */
export function isEmptyValue(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

/** A value as display text: arrays joined, objects never shown raw. */
export function toText(value: unknown): string {
  if (Array.isArray(value)) return value.map(toText).join(', ');
  if (value !== null && typeof value === 'object') return '';
  return String(value ?? '');
}
