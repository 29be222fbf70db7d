import { CompiledQuery, type SelectQueryBuilder } from 'kysely';
import type { PageLinks, PageMeta } from '../../shared/api-contract.js';
import type { LoadedEntity } from '../../shared/descriptor/types.js';
import { containsPattern } from '../../shared/sql-text.js';
import { type OperationContext, readableFields, selectionOf } from './context.js';
import { groupedCounts } from './count/group-counts.js';
import { keepTotal, keptTotal } from './count/kept-totals.js';
import { type PageSeek, pageMarks } from './count/page-marks.js';
import { planPage } from './count/page-rows.js';
import type { CountRequest, CountStrategy } from './count.js';
import { attachIncludes, type JoinedIncludes, joinIncludes } from './includes.js';
import { checkedStatement, DataVersionSnapshot, FRESH_COLUMN, StaleDataVersions } from './list-cache.js';
import { type AppliedFilter, type ListQuery, parseListQuery } from './list-query.js';
import { applyListScope, type ListScopeConditions } from './list-scope.js';
import { templatedStatement } from './list-templates.js';

/** A list request: the raw query (checked here) and, for links, the path it was asked at. */
export interface ListInput {
  query: Record<string, unknown>;
  /** The list's URL path (`/api/categories`); links repeat the query with another page. */
  path?: string;
  countStrategy?: CountStrategy;
  /** The registered list scopes' conditions for the caller (`list-scope.ts`), added as filters. */
  scope?: ListScopeConditions;
}

export interface ListResult {
  data: Record<string, unknown>[];
  meta: PageMeta;
  links: PageLinks;
}

const OPERATORS = { eq: '=', ilike: 'ilike', gte: '>=', lte: '<=' } as const;

/** The column a first page's rows carry the total in (removed before the rows are returned). */
const TOTAL_COLUMN = '__total';

function applyFilter(query: SelectQueryBuilder<any, any, any>, applied: AppliedFilter, ctx: OperationContext) {
  const operator = OPERATORS[applied.filter.operator];
  const value = applied.filter.operator === 'ilike' ? containsPattern(String(applied.value)) : applied.value;
  if (!applied.relation) return query.where(applied.column, operator, value);
  const subquery = ctx.db.selectFrom(applied.relation.target.descriptor.table).select('id').where(applied.relation.field, operator, value);
  return query.where(applied.column, 'in', subquery);
}

/** A copy of `row` without `keys` (a loop: rest-spreading a computed key is slow on V8). */
function withoutKeys(row: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const name in row) if (!keys.includes(name)) copy[name] = row[name];
  return copy;
}

/**
 * Runs a page's statement, checking in it the data versions the page was planned with when they
 * were presumed (`DataVersionSnapshot`): the rows then come with {@link FRESH_COLUMN}, taken out
 * by `readRows`. A statement that answers no row cannot carry the check: the versions are read.
 *
 * @throws StaleDataVersions when the presumed versions moved (the caller runs the list again).
 */
async function runPage(ctx: OperationContext, statement: { sql: string; parameters: readonly unknown[] }, versions: DataVersionSnapshot) {
  const checked = checkedStatement(statement, versions);
  const result = await ctx.db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(checked.sql, [...checked.parameters]));
  const rows = result.rows as Record<string, unknown>[];
  if (checked.checked && rows.length > 0) {
    if (rows[0]![FRESH_COLUMN] !== true) throw new StaleDataVersions();
  } else await versions.confirm();
  return rows;
}

function linksFor(path: string, query: Record<string, unknown>, page: number, lastPage: number): PageLinks {
  // The query without its page is encoded once; each link appends its page (as `set` would: last).
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (key !== 'page') params.append(key, String(value));
  const rest = params.toString();
  const at = (target: number) => `${path}?${rest}${rest ? '&' : ''}page=${target}`;
  return {
    first: at(1),
    last: at(lastPage),
    prev: page > 1 ? at(Math.min(page - 1, lastPage)) : null,
    next: page < lastPage ? at(page + 1) : null,
  };
}

/**
 * The columns a page with `fields` reads: those asked for, the sort's (the page is ordered by it
 * after the includes are joined) and the foreign key of each include (joined or attached by it).
 */
function pageFields(entity: LoadedEntity, parsed: ListQuery): string[] {
  const fields = new Set(parsed.fields);
  fields.add(parsed.sort);
  for (const name of parsed.include) fields.add(entity.descriptor.relations[name]!.field);
  return [...fields];
}

/**
 * `select from <table> where <filters and search>` of a parsed list query, without selection,
 * order or paging: shared by the list, the export and the bulk actions ("all N matching").
 */
export function filteredQuery(entity: LoadedEntity, parsed: Pick<ListQuery, 'filters' | 'search'>, ctx: OperationContext): SelectQueryBuilder<any, any, any> {
  let filtered: SelectQueryBuilder<any, any, any> = ctx.db.selectFrom(entity.descriptor.table);
  for (const applied of parsed.filters) filtered = applyFilter(filtered, applied, ctx);
  if (parsed.search) {
    const pattern = containsPattern(parsed.search);
    filtered = filtered.where((eb) => eb.or(entity.descriptor.list.search.map((field) => eb(field, 'ilike', pattern))));
  }
  return filtered;
}

/**
 * Lists an entity's records: checks the query against the descriptor's allow-lists, filters,
 * searches, sorts (with `id` as the tie-break so pages never overlap), pages, counts the exact
 * total with the count strategy, and attaches includes.
 *
 * @throws AppError 400 naming an unknown or malformed parameter.
 */
export async function list(entity: LoadedEntity, input: ListInput, ctx: OperationContext): Promise<ListResult> {
  const parsed: ListQuery = applyListScope(entity, parseListQuery(entity, ctx.registry, input.query), input.scope ?? {});
  const d = entity.descriptor;
  const isFiltered = parsed.filters.length > 0 || parsed.search !== undefined;

  const strategy = input.countStrategy ?? groupedCounts;
  const versions = ctx.versions ?? new DataVersionSnapshot(ctx.db);
  const countRequestOf = (of: ListQuery, filtered: SelectQueryBuilder<any, any, any>): CountRequest => ({
    entity,
    filtered: isFiltered,
    query: filtered.select('id'),
    db: ctx.db,
    filters: of.filters,
    search: of.search,
    versions,
  });
  const selection = selectionOf(entity, ctx.registry, parsed.fields && pageFields(entity, parsed));
  // Includes are joined into the page's statement (one round trip) when the page's sort column is
  // one of its selected columns; otherwise, and for relations with computed fields, attached after.
  const joinable = parsed.include.length > 0 && (readableFields(entity).includes(parsed.sort) || Object.hasOwn(d.computed, parsed.sort));
  let attach: readonly string[] = parsed.include;
  /** The page's statement (with the total as a column when `totalQuery` is given) and how to read its rows. */
  const pageStatement = (
    of: ListQuery,
    filtered: SelectQueryBuilder<any, any, any>,
    total: number,
    totalQuery?: SelectQueryBuilder<any, any, any>,
    seek?: PageSeek,
  ) => {
    const page = planPage(entity, filtered, selection, of, total, ctx, seek);
    const pageQuery = totalQuery ? page.query.select(totalQuery.as(TOTAL_COLUMN)) : page.query;
    if (!joinable) return { query: pageQuery, reversed: page.reversed, nest: undefined, rest: of.include };
    const joined = joinIncludes(entity, pageQuery, { sort: of.sort, direction: page.direction }, of.include, ctx, of.includeFields);
    return { query: joined.query, reversed: page.reversed, nest: joined.nest, rest: joined.rest };
  };
  /** The records of a page's rows: includes nested, the total column taken out (its value returned). */
  const readRows = (
    rows: Record<string, unknown>[],
    read: { reversed: boolean; nest?: JoinedIncludes['nest']; rest: readonly string[] },
    withTotal: boolean,
  ) => {
    const omit = withTotal ? [TOTAL_COLUMN] : [];
    if (rows.length > 0 && Object.hasOwn(rows[0]!, FRESH_COLUMN)) omit.push(FRESH_COLUMN);
    const counted = rows[0]?.[TOTAL_COLUMN];
    if (read.nest) read.nest(rows, omit);
    else if (omit.length > 0) rows = rows.map((row) => withoutKeys(row, omit));
    attach = read.rest;
    if (read.reversed) rows.reverse();
    return { rows, total: !withTotal || counted === null || counted === undefined ? undefined : Number(counted) };
  };
  let total: number;
  let data: Record<string, unknown>[] = [];
  if (parsed.page === 1) {
    // The first page never needs the total to be planned: when the strategy can say it as a
    // subquery, rows and total come in one statement, built once per list shape (list-templates.ts;
    // an empty page asks the strategy after); otherwise the rows are read while counting.
    const statement = templatedStatement(strategy, entity, parsed, (of) => {
      const filtered = filteredQuery(entity, of, ctx);
      const totalQuery = strategy.totalQuery?.(countRequestOf(of, filtered));
      if (!totalQuery) return undefined;
      const { query, reversed, nest, rest } = pageStatement(of, filtered, 0, totalQuery);
      return { compiled: query.compile(), extra: { reversed, nest, rest } };
    });
    if (statement) {
      const first = readRows(await runPage(ctx, statement, versions), statement.extra, true);
      data = first.rows;
      if (first.total === undefined) total = await strategy.count(countRequestOf(parsed, filteredQuery(entity, parsed, ctx)));
      else {
        total = first.total;
        // Kept for the list's later pages (which need it before their rows, to plan them), when the
        // request has read its data versions anyway (a route's list; not every internal read).
        if (ctx.versions) await keepTotal(strategy, { entity, db: ctx.db, filters: parsed.filters, search: parsed.search, versions }, total);
      }
    } else {
      const filtered = filteredQuery(entity, parsed, ctx);
      const read = pageStatement(parsed, filtered, 0);
      const [counted, rows] = await Promise.all([strategy.count(countRequestOf(parsed, filtered)), runPage(ctx, read.query.compile(), versions)]);
      data = readRows(rows, read, false).rows;
      total = counted;
    }
  } else {
    const filtered = filteredQuery(entity, parsed, ctx);
    total = await keptTotal(strategy, countRequestOf(parsed, filtered));
    const offset = (parsed.page - 1) * parsed.perPage;
    if (total > 0 && offset < total) {
      const marks = pageMarks(ctx.db);
      const seek = await marks.seek({
        entity,
        filtered,
        filters: parsed.filters,
        search: parsed.search,
        sort: parsed.sort,
        direction: parsed.direction,
        offset,
        limit: parsed.perPage,
        total,
        versions,
      });
      const read = pageStatement(parsed, filtered, total, undefined, seek);
      data = readRows(await runPage(ctx, read.query.compile(), versions), read, false).rows;
      if (seek) marks.served(seek);
    } else await versions.confirm();
  }
  if (attach.length > 0) await attachIncludes(entity, data, attach, ctx, parsed.includeFields);

  const lastPage = Math.max(1, Math.ceil(total / parsed.perPage));
  return {
    data,
    meta: { current_page: parsed.page, last_page: lastPage, total, per_page: parsed.perPage },
    links: linksFor(input.path ?? `/api/${d.endpoint}`, input.query, parsed.page, lastPage),
  };
}
