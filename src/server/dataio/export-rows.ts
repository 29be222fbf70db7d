import { type SelectQueryBuilder, sql } from 'kysely';
import type { LoadedEntity, SortDirection } from '../../shared/descriptor/types.js';
import { translate } from '../auth/mailer.js';
import { type OperationContext, readableFields, selectionOf } from '../operations/context.js';
import { attachIncludes, joinIncludes } from '../operations/includes.js';
import { filteredQuery } from '../operations/list.js';
import { type ListQuery, parseListQuery } from '../operations/list-query.js';

/** The languages export headers (and import header guesses) come in. */
export const LANGUAGES = ['en', 'id', 'ms'] as const;
export type Language = (typeof LANGUAGES)[number];

/** One exported column: its header in the chosen language and how a record gives its value. */
export interface ExportColumn {
  field: string;
  header: string;
  value(record: Record<string, unknown>): unknown;
}

/** Query parameters of the export itself, not of the list. */
const OWN_PARAMS = new Set(['format', 'lang', 'page', 'per_page']);

/** The language of `lang`, else the first of Accept-Language the console speaks, else English. */
export function exportLanguage(lang: unknown, acceptLanguage: string | undefined): Language {
  const wanted = [typeof lang === 'string' ? lang : '', ...(acceptLanguage ?? '').split(',').map((part) => part.split(';')[0]!.trim())];
  for (const tag of wanted) {
    const base = tag.toLowerCase().slice(0, 2);
    if ((LANGUAGES as readonly string[]).includes(base)) return base as Language;
  }
  return 'en';
}

/** The i18n key of a field's label: the column's own, else `entities.<name>.fields.<field>`. */
export const fieldLabelKey = (entity: LoadedEntity, field: string, label?: string) =>
  label ?? `entities.${entity.descriptor.name}.fields.${field}`;

/**
 * The export's columns: the record's id, then the list's columns in order (a relation column gives
 * the related record's displayed field). Write-only fields are never readable, so never exported.
 */
export function exportColumns(entity: LoadedEntity, language: Language): ExportColumn[] {
  const readable = new Set([...readableFields(entity), ...Object.keys(entity.descriptor.computed)]);
  const columns: ExportColumn[] = [{ field: 'id', header: translate(language, fieldLabelKey(entity, 'id')), value: (r) => r.id }];
  const seen = new Set(['id']);
  for (const column of entity.descriptor.list.columns) {
    const header = translate(language, fieldLabelKey(entity, column.field, column.label));
    if (column.cell === 'relation' && column.relation && column.display) {
      const key = `${column.relation}.${column.display}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const { relation, display } = column;
      columns.push({ field: key, header, value: (r) => (r[relation] as Record<string, unknown> | null | undefined)?.[display] ?? null });
    } else if (readable.has(column.field) && !seen.has(column.field)) {
      seen.add(column.field);
      columns.push({ field: column.field, header, value: (r) => r[column.field] });
    }
  }
  return columns;
}

/** A cell as text in a file: dates ISO 8601, objects as JSON, empty for null. */
export function cellText(value: unknown): string | number | boolean | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') return JSON.stringify(value);
  return value as string | number | boolean;
}

/** The parsed list query of an export: the list's own parameters, without paging. */
export function parseExportQuery(entity: LoadedEntity, query: Record<string, unknown>, ctx: OperationContext): ListQuery {
  const listQuery: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(query)) if (!OWN_PARAMS.has(name)) listQuery[name] = value;
  return parseListQuery(entity, ctx.registry, listQuery);
}

/** The relations the list's columns show, to include in an export. */
export function exportIncludes(entity: LoadedEntity): string[] {
  const names = new Set(entity.descriptor.list.columns.filter((c) => c.cell === 'relation' && c.relation).map((c) => c.relation!));
  return entity.descriptor.includes.filter((name) => names.has(name));
}

/**
 * Reads every record matching a list query in the list's order, `batch` at a time, by keyset
 * paging on `(sort, id)`: each batch starts after the last one's key, so no batch scans the rows
 * before it (no offset) and memory holds one batch. Rows whose sort value is NULL come as their
 * own phase (last when ascending, first when descending, as PostgreSQL orders them), keyed on id.
 */
export async function* exportBatches(
  entity: LoadedEntity,
  parsed: ListQuery,
  ctx: OperationContext,
  batch = 2000,
): AsyncGenerator<Record<string, unknown>[]> {
  const { sort, direction } = parsed;
  const include = exportIncludes(entity);
  const selection = selectionOf(entity, ctx.registry);
  const sortSelected = readableFields(entity).includes(sort);
  const compare = direction === 'asc' ? '>' : '<';
  const phases: Array<'values' | 'nulls'> = sort === 'id' ? ['values'] : direction === 'asc' ? ['values', 'nulls'] : ['nulls', 'values'];
  for (const phase of phases) {
    let last: { sort: unknown; id: unknown } | undefined;
    for (;;) {
      let query: SelectQueryBuilder<any, any, any> = filteredQuery(entity, parsed, ctx).select(selection);
      if (!sortSelected) query = query.select(sql.ref(sort).as('__sort'));
      if (phase === 'nulls') {
        query = query.where(sort, 'is', null);
        if (last) query = query.where('id', compare, last.id);
        query = query.orderBy('id', direction);
      } else {
        if (sort !== 'id') query = query.where(sort, 'is not', null);
        if (last) {
          query =
            sort === 'id'
              ? query.where('id', compare, last.id)
              : query.where(sql<boolean>`(${sql.ref(sort)}, ${sql.ref('id')}) ${sql.raw(compare)} (${last.sort}, ${last.id})`);
        }
        query = query.orderBy(sort, direction as SortDirection);
        if (sort !== 'id') query = query.orderBy('id', direction);
      }
      query = query.limit(batch);
      const keyOf = (row: Record<string, unknown>) => ({ sort: sortSelected ? row[sort] : row.__sort, id: row.id });
      let rows: Record<string, unknown>[];
      if (include.length > 0) {
        const order = phase === 'nulls' ? { sort: 'id', direction } : { sort, direction };
        const joined = joinIncludes(entity, query, order, include, ctx);
        rows = (await joined.query.execute()) as Record<string, unknown>[];
        if (rows.length > 0) last = keyOf(rows[rows.length - 1]!);
        joined.nest(rows);
        if (joined.rest.length > 0) await attachIncludes(entity, rows, joined.rest, ctx);
      } else {
        rows = (await query.execute()) as Record<string, unknown>[];
        if (rows.length > 0) last = keyOf(rows[rows.length - 1]!);
      }
      if (rows.length > 0) yield rows;
      if (rows.length < batch) break;
    }
  }
}
