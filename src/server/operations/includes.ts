import type { LoadedEntity } from '../../shared/descriptor/types.js';
import { type OperationContext, selectionOf } from './context.js';

/**
 * Attaches the requested belongsTo relations to each row (`row.category = {id, name, ...}` or
 * `null`), one query per relation whatever the number of rows, the relations' queries at once.
 */
export async function attachIncludes(
  entity: LoadedEntity,
  rows: Record<string, unknown>[],
  include: readonly string[],
  ctx: OperationContext,
): Promise<void> {
  await Promise.all(
    include.map(async (name) => {
      const relation = entity.descriptor.relations[name]!;
      const target = ctx.registry.byName.get(relation.entity)!;
      const ids = [...new Set(rows.map((row) => row[relation.field]).filter((id): id is number => typeof id === 'number'))];
      const related = ids.length
        ? await ctx.db
            .selectFrom(target.descriptor.table)
            .select(selectionOf(target, ctx.registry, ['id', ...relation.fields]))
            .where('id', 'in', ids)
            .execute()
        : [];
      const byId = new Map(related.map((record) => [record.id as number, record]));
      for (const row of rows) {
        const id = row[relation.field];
        row[name] = typeof id === 'number' ? (byId.get(id) ?? null) : null;
      }
    }),
  );
}
