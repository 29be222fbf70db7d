import { CompiledQuery, type Kysely, type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import { filteredQuery, type ListQuery, type OperationContext, parseListQuery, readableFields, selectionOf, translate } from '../../../server/index.js';
import type { LoadedEntity, SortDirection } from '../../../shared/descriptor/types.js';

/** The languages export headers (and import header guesses) come in. */
export const LANGUAGES = ['en', 'id', 'ms'] as const;
export type Language = (typeof LANGUAGES)[number];

/** One exported column: its header in the chosen language and how a record gives its value. */
export interface ExportColumn {
  field: string;
  header: string;
  /** The value in a record as the list API answers it (relations nested). */
  value(record: Record<string, unknown>): unknown;
  /** The column's name in the rows {@link exportBatches} reads (relations flattened). */
  key: string;
  /** For a relation column: the relation and the related record's field it shows. */
  relation?: { name: string; display: string };
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
export const fieldLabelKey = (entity: LoadedEntity, field: string, label?: string) => label ?? `entities.${entity.descriptor.name}.fields.${field}`;

/**
 * The export's columns: the record's id, then the list's columns in order (a relation column gives
 * the related record's displayed field). Write-only fields are never readable, so never exported.
 */
export function exportColumns(entity: LoadedEntity, language: Language): ExportColumn[] {
  const readable = new Set([...readableFields(entity), ...Object.keys(entity.descriptor.computed)]);
  const columns: ExportColumn[] = [{ field: 'id', header: translate(language, fieldLabelKey(entity, 'id')), value: (r) => r.id, key: 'id' }];
  const seen = new Set(['id']);
  for (const column of entity.descriptor.list.columns) {
    const header = translate(language, fieldLabelKey(entity, column.field, column.label));
    if (column.cell === 'relation' && column.relation && column.display) {
      const key = `${column.relation}.${column.display}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const { relation, display } = column;
      columns.push({
        field: key,
        header,
        value: (r) => (r[relation] as Record<string, unknown> | null | undefined)?.[display] ?? null,
        key: `__r${columns.length}`,
        relation: { name: relation, display },
      });
    } else if (readable.has(column.field) && !seen.has(column.field)) {
      seen.add(column.field);
      columns.push({ field: column.field, header, value: (r) => r[column.field], key: column.field });
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

/** Rows fetched per round trip: one batch is all an export holds in memory. */
export const EXPORT_BATCH = 2000;

/** The column of a keyset batch's row holding its sort value as text (exportBatches). */
const EXPORT_KEY = '__key';

/**
 * The one statement of an export: the list's filtered query (its filters and search, as the list
 * applies them) wrapped as `page` with only the fields the export needs, each relation column's
 * displayed field joined in (`left join`: a record without the relation keeps its row), in the
 * list's order with `id` as the tie-break (PostgreSQL's NULL placement: last ascending, first
 * descending). `where` narrows it further (the keyset conditions), given `page.<sort>` and `page.id`.
 */
export function exportQuery(
  entity: LoadedEntity,
  parsed: ListQuery,
  columns: readonly ExportColumn[],
  ctx: OperationContext,
  where?: (sort: RawBuilder<unknown>, id: RawBuilder<unknown>) => RawBuilder<boolean>,
): SelectQueryBuilder<any, any, any> {
  const { sort, direction } = parsed;
  const d = entity.descriptor;
  const fields = new Set(['id', sort]);
  for (const column of columns) fields.add(column.relation ? d.relations[column.relation.name]!.field : column.key);
  const page = filteredQuery(entity, parsed, ctx).select(selectionOf(entity, ctx.registry, [...fields]));
  let query: SelectQueryBuilder<any, any, any> = ctx.db.selectFrom(page.as('page'));
  columns.forEach((column, index) => {
    if (!column.relation) {
      query = query.select(sql.ref(`page.${column.key}`).as(column.key));
      return;
    }
    const relation = d.relations[column.relation.name]!;
    const target = ctx.registry.byName.get(relation.entity)!;
    const alias = `__x${index}`;
    query = query
      .leftJoin(`${target.descriptor.table} as ${alias}`, `${alias}.id`, `page.${relation.field}`)
      .select(sql.ref(`${alias}.${column.relation.display}`).as(column.key));
  });
  if (!columns.some((c) => c.key === sort)) query = query.select(sql.ref(`page.${sort}`).as('__sort'));
  const sortRef = sql.ref(`page.${sort}`);
  const idRef = sql.ref('page.id');
  if (where) {
    // The keyset's sort value as the database writes it: a timestamp read into JavaScript loses its
    // microseconds, and the next batch then skipped rows created in the same millisecond.
    query = query.select(sql<string | null>`${sortRef}::text`.as(EXPORT_KEY)).where(where(sortRef, idRef));
  }
  query = query.orderBy(sortRef, direction as SortDirection);
  if (sort !== 'id') query = query.orderBy(idRef, direction as SortDirection);
  return query;
}

/**
 * Reads every record matching a list query in the list's order, `batch` rows at a time, as flat
 * rows keyed by each column's `key`; memory holds one batch.
 * - `cursor` (PostgreSQL): ONE statement through a server-side cursor (`DECLARE ... NO SCROLL
 *   CURSOR` in a read-only repeatable-read transaction on a connection of its own, then `FETCH`
 *   `batch` rows at a time as the consumer asks): one plan, one snapshot, no re-scan per batch.
 * - otherwise (PGlite, one backend shared by every request): keyset paging on `(sort, id)`, each
 *   batch its own short statement starting after the last row's key (no offset), so other
 *   requests run between batches. Rows whose sort value is NULL come as their own phase (last
 *   ascending, first descending), keyed on id, so each phase's condition can use an index.
 * A consumer that stops early (the client went away) ends the transaction and frees the connection.
 */
export async function* exportBatches(
  entity: LoadedEntity,
  parsed: ListQuery,
  columns: readonly ExportColumn[],
  ctx: OperationContext,
  options: { cursor?: boolean; batch?: number } = {},
): AsyncGenerator<Record<string, unknown>[]> {
  const batch = options.batch ?? EXPORT_BATCH;
  if (options.cursor) {
    yield* cursorBatches(ctx.db, exportQuery(entity, parsed, columns, ctx).compile(), batch);
    return;
  }
  const { sort, direction } = parsed;
  const compare = sql.raw(direction === 'asc' ? '>' : '<');
  const phases: Array<'values' | 'nulls'> = sort === 'id' ? ['values'] : direction === 'asc' ? ['values', 'nulls'] : ['nulls', 'values'];
  for (const phase of phases) {
    let last: Record<string, unknown> | undefined;
    for (;;) {
      const after = last;
      const where = (sortRef: RawBuilder<unknown>, idRef: RawBuilder<unknown>) => {
        if (phase === 'nulls') return after ? sql<boolean>`${sortRef} is null and ${idRef} ${compare} ${after.id}` : sql<boolean>`${sortRef} is null`;
        if (sort === 'id') return after ? sql<boolean>`${idRef} ${compare} ${after.id}` : sql<boolean>`true`;
        return after ? sql<boolean>`(${sortRef}, ${idRef}) ${compare} (${after[EXPORT_KEY]}, ${after.id})` : sql<boolean>`${sortRef} is not null`;
      };
      const rows = (await exportQuery(entity, parsed, columns, ctx, where).limit(batch).execute()) as Record<string, unknown>[];
      if (rows.length > 0) yield rows;
      if (rows.length < batch) break;
      last = rows[rows.length - 1];
    }
  }
}

/** Reads a compiled query through a server-side cursor on a connection held for the whole read. */
async function* cursorBatches<DB>(db: Kysely<DB>, compiled: CompiledQuery, batch: number): AsyncGenerator<Record<string, unknown>[]> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let held: Promise<void> | undefined;
  const connection = await new Promise<Kysely<DB>>((resolve, reject) => {
    held = db.connection().execute(async (conn) => {
      resolve(conn);
      await released;
    });
    held.catch(reject);
  });
  let open = false;
  try {
    await connection.executeQuery(CompiledQuery.raw('begin isolation level repeatable read read only'));
    open = true;
    await connection.executeQuery(CompiledQuery.raw(`declare dataio_export no scroll cursor for ${compiled.sql}`, [...compiled.parameters]));
    for (;;) {
      const { rows } = await connection.executeQuery<Record<string, unknown>>(CompiledQuery.raw(`fetch ${batch} from dataio_export`));
      if (rows.length > 0) yield rows;
      if (rows.length < batch) break;
    }
    await connection.executeQuery(CompiledQuery.raw('commit'));
    open = false;
  } finally {
    if (open) await connection.executeQuery(CompiledQuery.raw('rollback')).catch(() => undefined);
    release();
    await held;
  }
}
