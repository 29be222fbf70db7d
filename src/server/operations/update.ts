import { sql } from 'kysely';
import { checkComparisons } from '../../shared/descriptor/comparisons.js';
import type { LoadedEntity } from '../../shared/descriptor/types.js';
import { AppError, notFound, validationFailed } from '../errors.js';
import { auditEntityWrite } from '../history/entity-audit.js';
import { labelOf, type OperationContext, selectionOf, storedFields } from './context.js';
import { ifMatchSatisfied } from './etag.js';
import { validateWriteBody } from './write-body.js';
import { runBeforeWrite, toColumnValues, uniqueConflict } from './write-helpers.js';

export interface UpdateInput {
  id: number;
  body: unknown;
  /** The request's `If-Match`; when given and stale, nothing is written. */
  ifMatch?: string;
}

/** A 409 for a stale `If-Match`, carrying the current record so the client can show or merge it. */
export class StaleRecordError extends AppError {
  constructor(
    readonly current: Record<string, unknown>,
    label: string,
  ) {
    super(409, 'CONFLICT', `This ${label} was changed by someone else; reload it and try again.`);
  }
}

/**
 * Updates a record: locks it, checks `If-Match`, validates the body against the update schema,
 * runs `beforeWrite` hooks, stores the fields sent, moves `updated_at` forward and audits the changed fields, in one transaction.
 *
 * @throws AppError 404 when absent, 409 ({@link StaleRecordError}) when `If-Match` is stale,
 *   422 for an invalid body, 409 for a unique clash.
 */
export async function update(entity: LoadedEntity, input: UpdateInput, ctx: OperationContext): Promise<Record<string, unknown>> {
  const data = validateWriteBody(entity, input.body, 'update');
  const table = entity.descriptor.table;
  try {
    return await ctx.db.transaction().execute(async (trx) => {
      const previous = (await trx.selectFrom(table).select(storedFields(entity)).where('id', '=', input.id).forUpdate().executeTakeFirst()) as
        | Record<string, unknown>
        | undefined;
      if (!previous) throw notFound(`${labelOf(entity)} not found.`);
      if (input.ifMatch && !ifMatchSatisfied(input.ifMatch, previous)) {
        const current = (await trx.selectFrom(table).select(selectionOf(entity, ctx.registry)).where('id', '=', input.id).executeTakeFirstOrThrow()) as Record<
          string,
          unknown
        >;
        throw new StaleRecordError(current, entity.descriptor.label);
      }
      // A body may leave one side of a comparison out: check it against the stored value then.
      const partial = entity.descriptor.comparisons.filter((rule) => !(rule.field in data && rule.other in data));
      const comparisonErrors = checkComparisons(partial, { ...previous, ...data });
      if (comparisonErrors.length > 0) throw validationFailed(comparisonErrors);
      await runBeforeWrite({ entity, operation: 'update', data, previous, id: input.id, db: trx, userId: ctx.actor?.userId ?? null });
      const values = toColumnValues(entity, data);
      if (entity.schema.properties?.updated_at) {
        values.updated_at = sql`greatest(now(), ${sql.ref('updated_at')} + interval '1 millisecond')`;
      }
      if (Object.keys(values).length === 0) values.id = input.id;
      const record = (await trx
        .updateTable(table)
        .set(values)
        .where('id', '=', input.id)
        .returning(selectionOf(entity, ctx.registry))
        .executeTakeFirstOrThrow()) as Record<string, unknown>;
      await auditEntityWrite(trx, ctx, entity, 'update', input.id, previous, record);
      return record;
    });
  } catch (error) {
    throw uniqueConflict(entity, error);
  }
}
