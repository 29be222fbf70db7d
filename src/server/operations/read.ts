import type { LoadedEntity } from '../../shared/descriptor/types.js';
import { badRequest, notFound } from '../errors.js';
import { labelOf, type OperationContext, selectionOf } from './context.js';
import { attachIncludes } from './includes.js';

/** A read: the record's id and the relations to include. */
export interface ReadInput {
  id: number;
  /** Relation names, or the raw `include` parameter (`category,customer`). */
  include?: readonly string[] | string;
}

/** Parses an `include` parameter against the descriptor's allowed includes; 400 for others. */
export function parseInclude(entity: LoadedEntity, include: ReadInput['include']): string[] {
  if (include === undefined) return [];
  if (Array.isArray(include) && include.some((part) => typeof part !== 'string')) throw badRequest('Invalid include.');
  const parts = (typeof include === 'string' ? include.split(',') : [...include]).map((p) => p.trim()).filter(Boolean);
  for (const part of parts) {
    if (!entity.descriptor.includes.includes(part)) throw badRequest(`Unknown include "${part}".`);
  }
  return [...new Set(parts)];
}

/**
 * Reads one record (without write-only fields), with its includes.
 *
 * @throws AppError 404 '<Entity> not found.' when there is no such record.
 */
export async function read(entity: LoadedEntity, input: ReadInput, ctx: OperationContext): Promise<Record<string, unknown>> {
  const include = parseInclude(entity, input.include);
  const record = (await ctx.db.selectFrom(entity.descriptor.table).select(selectionOf(entity, ctx.registry)).where('id', '=', input.id).executeTakeFirst()) as
    | Record<string, unknown>
    | undefined;
  if (!record) throw notFound(`${labelOf(entity)} not found.`);
  if (include.length > 0) await attachIncludes(entity, [record], include, ctx);
  return record;
}
