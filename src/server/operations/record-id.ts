import type { LoadedEntity } from '../../shared/descriptor/types.js';
import { parseRecordId as parseId } from '../../shared/record-id.js';
import { AppError } from '../errors.js';

/**
 * Parses a record id from a path with the shared rule (`7`, not `07`, `7.0` or `+7`); anything
 * else is a 400 'Invalid <entity> ID'.
 */
export function parseRecordId(entity: LoadedEntity, raw: unknown): number {
  const id = parseId(raw);
  if (id !== null) return id;
  throw new AppError(400, 'BAD_REQUEST', `Invalid ${entity.descriptor.label} ID`, [
    { path: 'id', keyword: 'invalidId', messageKey: entity.descriptor.texts.invalidId, params: {} },
  ]);
}
