import type { CompiledQuery } from 'kysely';
import type { LoadedEntity } from '../../shared/descriptor/types.js';
import { containsPattern } from '../../shared/sql-text.js';
import type { CountStrategy } from './count.js';
import type { ListQuery } from './list-query.js';

/**
 * The statements of list pages, built once per list shape and filled in with each request's values.
 *
 * Building a page's statement with Kysely (selection, filters, total subquery, joined includes,
 * then compiling) costs more of the server's time than running it, and a large share of a list request's
 * time. The statement's text depends only on the request's shape (sort, direction, page size,
 * includes, which filters with which operators, whether there is a search); the filter and search
 * values only fill its parameters. So the first request of a shape builds the statement twice: with
 * its own values, and with stand-ins for them (marked strings) whose positions in the parameters
 * say where each value goes, raw or as a `%contains%` pattern. The template is kept only when
 * filling it with the request's own values gives exactly the statement built with them; a shape
 * whose statement depends on the values in any other way is never templated.
 */

/** Where one parameter of a template comes from. */
type ParameterSource = { kind: 'fixed'; value: unknown } | { kind: 'value'; index: number; contains: boolean };

/** A page statement with its values left out, and what reading its rows needs. */
export interface ListTemplate<T> {
  sql: string;
  sources: readonly ParameterSource[];
  /** Built with the statement (how to nest joined includes...), valid for every filling. */
  extra: T;
}

/** A list request's values, in a fixed order: each filter's, then the search's. */
export function valuesOf(parsed: Pick<ListQuery, 'filters' | 'search'>): unknown[] {
  const values: unknown[] = parsed.filters.map((applied) => applied.value);
  if (parsed.search !== undefined) values.push(parsed.search);
  return values;
}

/** The key of a request's shape: everything of the parsed query but the values. */
export function shapeOf(parsed: ListQuery): string {
  return JSON.stringify([
    parsed.page,
    parsed.perPage,
    parsed.sort,
    parsed.direction,
    parsed.include,
    parsed.filters.map((applied) => [applied.filter.param, applied.filter.operator, applied.column, typeof applied.value]),
    parsed.search !== undefined,
    parsed.fields ?? null,
    parsed.includeFields,
  ]);
}

const MARK = '\u0001list-value-';
const standIn = (index: number) => `${MARK}${index}\u0001`;

/** `parsed` with each value replaced by its stand-in (see {@link valuesOf} for the order). */
export function withStandIns<Q extends Pick<ListQuery, 'filters' | 'search'>>(parsed: Q): Q {
  const filters = parsed.filters.map((applied, index) => ({ ...applied, value: standIn(index) }));
  return { ...parsed, filters, search: parsed.search === undefined ? undefined : standIn(filters.length) };
}

/** The template of `built` (compiled with stand-ins), or `undefined` when a parameter holds a stand-in in any other form. */
function templateOf<T>(built: CompiledQuery, extra: T, count: number): ListTemplate<T> | undefined {
  const sources: ParameterSource[] = [];
  for (const parameter of built.parameters) {
    let source: ParameterSource = { kind: 'fixed', value: parameter };
    if (typeof parameter === 'string' && parameter.includes(MARK)) {
      const index = Array.from({ length: count }, (_, i) => i).find((i) => parameter === standIn(i) || parameter === containsPattern(standIn(i)));
      if (index === undefined) return undefined;
      source = { kind: 'value', index, contains: parameter !== standIn(index) };
    }
    sources.push(source);
  }
  return { sql: built.sql, sources, extra };
}

/** The parameters of `template` for `values`. */
export function fill(template: ListTemplate<unknown>, values: readonly unknown[]): unknown[] {
  return template.sources.map((source) =>
    source.kind === 'fixed' ? source.value : source.contains ? containsPattern(String(values[source.index])) : values[source.index],
  );
}

/** Whether two parameters reach PostgreSQL as the same text (pg sends numbers and booleans as their text). */
function sameParameter(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const primitive = (value: unknown) => typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
  return primitive(a) && primitive(b) && String(a) === String(b);
}

/** Most shapes kept per entity and count strategy; then the oldest are forgotten. */
const MAX_SHAPES = 256;

/** Templates by count strategy, entity and shape; `null` marks a shape that cannot be templated. */
const templates = new WeakMap<CountStrategy, WeakMap<LoadedEntity, Map<string, ListTemplate<unknown> | null>>>();

function shapesOf(strategy: CountStrategy, entity: LoadedEntity): Map<string, ListTemplate<unknown> | null> {
  let byEntity = templates.get(strategy);
  if (!byEntity) templates.set(strategy, (byEntity = new WeakMap()));
  let shapes = byEntity.get(entity);
  if (!shapes) byEntity.set(entity, (shapes = new Map()));
  return shapes;
}

/**
 * The statement of a page of `parsed` (a shape's template filled in, or built by `build` with the
 * request's values, then checked and kept as the template); `undefined` when `build` gives none.
 * `build` must depend on nothing but the entity, the strategy and the parsed query.
 */
export function templatedStatement<T>(
  strategy: CountStrategy,
  entity: LoadedEntity,
  parsed: ListQuery,
  build: (parsed: ListQuery) => { compiled: CompiledQuery; extra: T } | undefined,
): { sql: string; parameters: unknown[]; extra: T } | undefined {
  const shapes = shapesOf(strategy, entity);
  const shape = shapeOf(parsed);
  const values = valuesOf(parsed);
  const known = shapes.get(shape);
  if (known) return { sql: known.sql, parameters: fill(known, values), extra: known.extra as T };
  const own = build(parsed);
  if (!own) return undefined;
  if (known === undefined) {
    const standIns = build(withStandIns(parsed));
    const template = standIns && templateOf(standIns.compiled, own.extra, values.length);
    const matches =
      !!template &&
      template.sql === own.compiled.sql &&
      fill(template, values).every((parameter, i) => sameParameter(parameter, own.compiled.parameters[i])) &&
      template.sources.length === own.compiled.parameters.length;
    if (shapes.size >= MAX_SHAPES) shapes.delete(shapes.keys().next().value!);
    shapes.set(shape, matches ? (template as ListTemplate<unknown>) : null);
  }
  return { sql: own.compiled.sql, parameters: [...own.compiled.parameters], extra: own.extra };
}
