import type { LoadedEntity } from '../../shared/descriptor/types.js';
import { AppError } from '../errors.js';

const MAX_ID = 2_147_483_647;

/**
 * Parses a record id from a path: a positive integer within the column's range, written plainly
 * (`7`, not `07`, `7.0` or `+7`). Anything else is a 400 'Invalid <entity> ID'.
 */
export function parseRecordId(entity: LoadedEntity, raw: unknown): number {
  const text = typeof raw === 'number' ? String(raw) : raw;
  if (typeof text === 'string' && /^[1-9]\d{0,9}$/.test(text) && Number(text) <= MAX_ID) return Number(text);
  throw new AppError(400, 'BAD_REQUEST', `Invalid ${entity.descriptor.label} ID`, [
    { path: 'id', keyword: 'invalidId', messageKey: entity.descriptor.texts.invalidId, params: {} },
  ]);
}
