import { type SelectQueryBuilder, sql } from 'kysely';
import type { LoadedEntity, SortDirection } from '../../shared/descriptor/types.js';
import { type OperationContext, readableFields, selectionOf } from './context.js';

/**
 * Attaches the requested belongsTo relations to each row (`row.category = {id, name, ...}` or
 * `null`), one query per relation whatever the number of rows, the relations' queries at once.
 * `fieldsOf` names the fields of a relation when not all of its descriptor's (a list's `fields[customer]`).
 */
export async function attachIncludes(
  entity: LoadedEntity,
  rows: Record<string, unknown>[],
  include: readonly string[],
  ctx: OperationContext,
  fieldsOf: Readonly<Record<string, readonly string[]>> = {},
): Promise<void> {
  await Promise.all(
    include.map(async (name) => {
      const relation = entity.descriptor.relations[name]!;
      const target = ctx.registry.byName.get(relation.entity)!;
      const ids = [...new Set(rows.map((row) => row[relation.field]).filter((id): id is number => typeof id === 'number'))];
      const related = ids.length
        ? await ctx.db
            .selectFrom(target.descriptor.table)
            .select(selectionOf(target, ctx.registry, ['id', ...(fieldsOf[name] ?? relation.fields)]))
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

/** A page query with its belongsTo includes joined in, and how to turn its rows back into records. */
export interface JoinedIncludes {
  query: SelectQueryBuilder<any, any, any>;
  /** Replaces each row by the record with each joined relation's columns in `record[relation]` (or `null`), dropping `omit`. */
  nest(rows: Record<string, unknown>[], omit?: readonly string[]): void;
  /** Requested relations that could not be joined (computed fields): attach them with {@link attachIncludes}. */
  rest: string[];
}

/**
 * Joins the requested belongsTo relations to a page's rows in the same statement, so a list page
 * with includes costs one round trip instead of one per relation. The page query is wrapped
 * (`select page.*, r.col as __i0_1 ... from (<page>) page left join <target> r on r.id = page.<fk>`)
 * and re-ordered by `order` (the page's own order, ties by id). The result is what
 * {@link attachIncludes} gives: the same fields in the same order, `null` when the foreign key is
 * not a number or names no record. Relations whose fields include computed ones are left in `rest`.
 */
export function joinIncludes(
  entity: LoadedEntity,
  page: SelectQueryBuilder<any, any, any>,
  order: { sort: string; direction: SortDirection },
  include: readonly string[],
  ctx: OperationContext,
  fieldsOf: Readonly<Record<string, readonly string[]>> = {},
): JoinedIncludes {
  let query = ctx.db.selectFrom(page.as('page')).selectAll('page');
  const joined: Array<{ name: string; fk: string; idAlias: string; fields: Array<[field: string, alias: string]> }> = [];
  const rest: string[] = [];
  include.forEach((name, index) => {
    const relation = entity.descriptor.relations[name]!;
    const target = ctx.registry.byName.get(relation.entity)!;
    const wanted = ['id', ...(fieldsOf[name] ?? relation.fields)];
    if (Object.keys(target.descriptor.computed).some((field) => wanted.includes(field))) {
      rest.push(name);
      return;
    }
    const table = `__i${index}`;
    const fields = readableFields(target)
      .filter((field) => wanted.includes(field))
      .map((field, n): [string, string] => [field, `${table}_${n}`]);
    if (!fields.some(([field]) => field === 'id')) {
      rest.push(name);
      return;
    }
    query = query
      .leftJoin(`${target.descriptor.table} as ${table}`, `${table}.id`, `page.${relation.field}`)
      .select(fields.map(([field, alias]) => sql.ref(`${table}.${field}`).as(alias)));
    joined.push({ name, fk: relation.field, idAlias: fields.find(([field]) => field === 'id')![1], fields });
  });
  query = query.orderBy(sql.ref(`page.${order.sort}`), order.direction);
  if (order.sort !== 'id') query = query.orderBy(sql.ref('page.id'), order.direction);
  const aliases = new Set(joined.flatMap(({ fields }) => fields.map(([, alias]) => alias)));
  return {
    query,
    rest,
    nest(rows, omit = []) {
      const dropped = omit.length === 0 ? aliases : new Set([...aliases, ...omit]);
      // New objects rather than `delete`: deleting keys turns rows into slow dictionary objects.
      rows.forEach((row, index) => {
        const record: Record<string, unknown> = {};
        for (const key in row) if (!dropped.has(key)) record[key] = row[key];
        for (const { name, fk, idAlias, fields } of joined) {
          const id = row[idAlias];
          if (typeof row[fk] !== 'number' || id === null || id === undefined) {
            record[name] = null;
            continue;
          }
          const related: Record<string, unknown> = {};
          for (const [field, alias] of fields) related[field] = row[alias];
          record[name] = related;
        }
        rows[index] = record;
      });
    },
  };
}
