import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { stringify } from 'csv-stringify/sync';
import { createQueryId, PostgresQueryCompiler, type SelectQueryBuilder, sql } from 'kysely';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { ListQuery, OperationContext } from '../../../server/index.js';
import { unavailable } from '../../../server/index.js';
import { fieldKind } from '../../../shared/descriptor/schema-fields.js';
import type { JsonSchema, LoadedEntity, SortDirection } from '../../../shared/descriptor/types.js';
import { csvSafe, csvSafeSql } from './csv-safe.js';
import type { ExportColumn } from './export-rows.js';

/**
 * Compiles a query with every value written into the SQL as a literal (Kysely's own `sql.lit`
 * rules: strings quoted with `'` doubled, numbers and booleans as written, dates as ISO text),
 * because `COPY (query) TO STDOUT` takes no bind parameters. The values are the list query's
 * already-checked filter values; the COPY runs with `standard_conforming_strings` on, so a
 * backslash in a value is just a backslash.
 */
class InlineValuesCompiler extends PostgresQueryCompiler {
  protected override appendValue(value: unknown): void {
    this.appendImmediateValue(value);
  }
}

/** A record's value as the text {@link cellText} gives for it, computed by PostgreSQL. */
function textExpression(ref: string, property: JsonSchema | undefined) {
  const column = sql.ref(ref);
  const kind = property ? fieldKind(property) : 'string';
  if (kind === 'date-time') return sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  if (kind === 'json') return sql`to_json(${column})::text`;
  return sql`${column}::text`;
}

/** The SQL text of a CSV export: the export query's rows with each cell as text, in its order. */
export function copyStatement(
  entity: LoadedEntity,
  parsed: Pick<ListQuery, 'sort' | 'direction'>,
  columns: readonly ExportColumn[],
  query: SelectQueryBuilder<any, any, any>,
  ctx: OperationContext,
): string {
  const props = entity.schema.properties ?? {};
  const cells = columns.map((column) => {
    let property: JsonSchema | undefined = props[column.key];
    if (column.relation) {
      const target = ctx.registry.byName.get(entity.descriptor.relations[column.relation.name]!.entity)!;
      property = target.schema.properties?.[column.relation.display];
    }
    // Text PostgreSQL writes is neutralised there: a cell a spreadsheet would run as a formula gets a leading quote.
    return csvSafeSql(textExpression(`e.${column.key}`, property)).as(column.key);
  });
  const sortKey = columns.some((c) => c.key === parsed.sort) ? parsed.sort : '__sort';
  let outer = ctx.db
    .selectFrom(query.as('e'))
    .select(cells)
    .orderBy(sql.ref(`e.${sortKey}`), parsed.direction as SortDirection);
  if (sortKey !== 'id') outer = outer.orderBy(sql.ref('e.id'), parsed.direction as SortDirection);
  const node = ctx.db.getExecutor().transformQuery(outer.toOperationNode(), createQueryId());
  const compiled = new InlineValuesCompiler().compileQuery(node, createQueryId());
  return `copy (${compiled.sql}) to stdout with (format csv)`;
}

/** Exports running through COPY in this process; each holds a PostgreSQL connection of its own. */
let running = 0;
/** The most at once: each is one connection outside the API's pool, so the API keeps its own. */
export const MAX_COPY_EXPORTS = 4;

/**
 * A CSV export straight from PostgreSQL: `COPY (export query) TO STDOUT WITH (FORMAT csv)` on a
 * connection of its own (not the API's pool, which a slow download would otherwise hold), in a
 * read-only repeatable-read transaction, streamed as PostgreSQL sends it: the rows are formatted
 * (and quoted by PostgreSQL's CSV writer) in the database, none is parsed in Node, and the socket's
 * backpressure pauses the copy. The UTF-8 BOM and the header row (csv-stringify) come first.
 * When the client leaves, the connection is closed, which ends the COPY.
 *
 * @throws AppError 503 when {@link MAX_COPY_EXPORTS} are already running here.
 */
export async function copyCsvStream(databaseUrl: string, statement: string, headers: readonly string[]): Promise<Readable> {
  if (running >= MAX_COPY_EXPORTS) throw unavailable(10);
  running++;
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'awards-console export' });
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    running--;
    client.end().catch(() => undefined);
  };
  client.on('error', () => close());
  try {
    await client.connect();
    await client.query('begin isolation level repeatable read read only');
    await client.query('set local standard_conforming_strings = on');
    // A large export to a slow client runs long, but not for ever: a client that stops reading
    // holds one of the MAX_COPY_EXPORTS for an hour at most.
    await client.query("set local statement_timeout = '1h'");
    await client.query('set local jit = off');
  } catch (error) {
    close();
    throw error;
  }
  const out = new PassThrough({ highWaterMark: 256 * 1024 });
  out.write(`\ufeff${stringify([headers.map(csvSafe)])}`);
  const copy = client.query(copyTo(statement));
  pipeline(copy, out)
    .then(() => client.query('commit'))
    .catch(() => {
      // The client went away (or the copy failed): drop the connection, which ends the COPY.
      (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
    })
    .finally(close);
  return out;
}
