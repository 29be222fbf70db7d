import { fieldKind } from '../../shared/descriptor/schema-fields.js';
import type { JsonSchema, ListFilter, LoadedEntity, SortDirection } from '../../shared/descriptor/types.js';
import { badRequest } from '../errors.js';
import { type EntityRegistry, readableFields } from './context.js';

/** One filter with its parsed value, ready for SQL. */
export interface AppliedFilter {
  filter: ListFilter;
  /** The relation crossed (`customer` of `customer.company`), if any. */
  relation?: { name: string; target: LoadedEntity; field: string };
  column: string;
  value: string | number | boolean;
}

/** A list request after checking every parameter against the descriptor. */
export interface ListQuery {
  page: number;
  perPage: number;
  sort: string;
  direction: SortDirection;
  search?: string;
  filters: AppliedFilter[];
  include: string[];
  /** The record's fields asked for (`fields=`), when not all; `id` is always among them. */
  fields?: string[];
  /** Per included relation, its fields asked for (`fields[customer]=`), when not all; `id` always. */
  includeFields: Record<string, string[]>;
}

/** A date, or a date and time with an optional zone, as ISO 8601 writes them. */
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,6})?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/;

const MAX_PER_PAGE = 100;
const MAX_TEXT = 200;
/** Longest `fields` value: every field name of a large entity, comma-separated. */
export const MAX_FIELDS_TEXT = 2000;
const RELATION_FIELDS = /^fields\[([A-Za-z0-9_]{1,64})\]$/;

/** The field names of a `fields` parameter, each one of `allowed`, `id` first; 400 otherwise. */
function fieldList(name: string, text: string, allowed: readonly string[]): string[] {
  if (text.length > MAX_FIELDS_TEXT) throw badRequest(`The query parameter ${name} must be at most ${MAX_FIELDS_TEXT} characters.`);
  const fields = ['id'];
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    if (!allowed.includes(part)) throw badRequest(`Unknown field "${part}" in ${name}. Allowed: ${allowed.join(', ')}.`);
    if (!fields.includes(part)) fields.push(part);
  }
  return fields;
}

function single(name: string, raw: unknown): string {
  if (Array.isArray(raw)) throw badRequest(`The query parameter ${name} is given more than once.`);
  return String(raw ?? '').trim();
}

function positiveInteger(name: string, text: string, max = Number.MAX_SAFE_INTEGER): number {
  if (!/^[1-9]\d*$/.test(text) || Number(text) > max) {
    throw badRequest(`The query parameter ${name} must be a whole number from 1${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : ''}.`);
  }
  return Number(text);
}

/** Parses a filter's text into the stored type of its field; 400 when it cannot be one. */
function filterValue(filter: ListFilter, property: JsonSchema, text: string): string | number | boolean {
  if (filter.values) {
    if (!Object.hasOwn(filter.values, text)) {
      throw badRequest(`The query parameter ${filter.param} must be one of ${Object.keys(filter.values).join(', ')}.`);
    }
    return filter.values[text]!;
  }
  const bad = (what: string) => badRequest(`The query parameter ${filter.param} must be ${what}.`);
  switch (fieldKind(property)) {
    case 'integer':
    case 'bigint':
      if (!/^-?\d{1,15}$/.test(text)) throw bad('a whole number');
      // A value the field can never hold (customer id 0 or -1) is a malformed filter, not an empty page.
      if (typeof property.minimum === 'number' && Number(text) < property.minimum) throw bad(`a whole number from ${property.minimum}`);
      return Number(text);
    case 'number':
      if (!/^-?\d+(\.\d+)?$/.test(text)) throw bad('a number');
      return Number(text);
    case 'boolean':
      if (['true', '1'].includes(text)) return true;
      if (['false', '0'].includes(text)) return false;
      throw bad('true or false');
    case 'enum':
      if (filter.operator === 'eq' && !(property.enum as unknown[]).includes(text)) throw bad(`one of ${(property.enum as unknown[]).join(', ')}`);
      return text;
    case 'date':
      if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || Number.isNaN(Date.parse(text))) throw bad('a date (YYYY-MM-DD)');
      return text;
    case 'date-time':
      // ISO 8601 only: Date.parse takes almost anything ('x-P^!0', '1', 'may 5'), which the database then refuses.
      if (text.length > 40 || !ISO_DATE_TIME.test(text) || Number.isNaN(Date.parse(text)))
        throw bad('a date (YYYY-MM-DD) or a date and time (YYYY-MM-DDTHH:MM:SSZ)');
      return text;
    default:
      if (text.length > MAX_TEXT) throw bad(`at most ${MAX_TEXT} characters`);
      return text;
  }
}

/**
 * Checks a list request's query against the entity's allow-lists: `page`, `per_page` (≤ 100),
 * `sort` and `direction`, `search`, `include`, `fields` (the record's readable fields) and
 * `fields[<include>]` (that relation's fields), and the descriptor's filters. Anything else is a
 * 400 naming the parameter. Blank filter values count as absent.
 */
export function parseListQuery(entity: LoadedEntity, registry: EntityRegistry, query: Record<string, unknown>): ListQuery {
  const d = entity.descriptor;
  const props = entity.schema.properties ?? {};
  const filtersByParam = new Map(d.list.filters.map((filter) => [filter.param, filter]));
  const result: ListQuery = {
    page: 1,
    perPage: d.list.pageSize,
    sort: d.list.defaultSort.field,
    direction: d.list.defaultSort.direction,
    filters: [],
    include: [],
    includeFields: {},
  };
  let sortGiven = false;
  let directionGiven = false;
  for (const [name, raw] of Object.entries(query)) {
    const text = single(name, raw);
    switch (name) {
      case 'page':
        result.page = positiveInteger(name, text);
        continue;
      case 'per_page':
        result.perPage = positiveInteger(name, text, MAX_PER_PAGE);
        continue;
      case 'sort':
        if (!d.list.sorts.includes(text) && text !== d.list.defaultSort.field) {
          throw badRequest(`Unknown sort "${text}". Allowed: ${[...new Set([...d.list.sorts, d.list.defaultSort.field])].join(', ')}.`);
        }
        result.sort = text;
        sortGiven = true;
        continue;
      case 'direction': {
        const direction = text.toLowerCase();
        if (direction !== 'asc' && direction !== 'desc') throw badRequest('The query parameter direction must be asc or desc.');
        result.direction = direction;
        directionGiven = true;
        continue;
      }
      case 'search':
        if (d.list.search.length === 0) throw badRequest(`Unknown query parameter: search. ${d.endpoint} cannot be searched.`);
        if (text.length > MAX_TEXT) throw badRequest(`The query parameter search must be at most ${MAX_TEXT} characters.`);
        if (text) result.search = text;
        continue;
      case 'include':
        for (const part of text
          .split(',')
          .map((p) => p.trim())
          .filter(Boolean)) {
          if (!d.includes.includes(part)) {
            throw badRequest(`Unknown include "${part}".${d.includes.length ? ` Allowed: ${d.includes.join(', ')}.` : ''}`);
          }
          if (!result.include.includes(part)) result.include.push(part);
        }
        continue;
      case 'fields':
        // Blank, like a blank filter, counts as absent: every field.
        if (text === '') continue;
        result.fields = fieldList(name, text, [...new Set(['id', ...readableFields(entity), ...Object.keys(d.computed)])]);
        continue;
    }
    const relationFields = name.length <= 80 ? RELATION_FIELDS.exec(name) : null;
    if (relationFields && !filtersByParam.has(name)) {
      const relation = relationFields[1]!;
      if (!d.includes.includes(relation)) {
        throw badRequest(`Unknown include "${relation}" in ${name}.${d.includes.length ? ` Allowed: ${d.includes.join(', ')}.` : ''}`);
      }
      if (text !== '') result.includeFields[relation] = fieldList(name, text, ['id', ...d.relations[relation]!.fields]);
      continue;
    }
    const filter = filtersByParam.get(name);
    if (!filter) throw badRequest(`Unknown query parameter: ${name}.`);
    if (text === '') continue;
    const [first, second] = filter.field.split('.') as [string, string | undefined];
    if (second === undefined) {
      result.filters.push({ filter, column: first, value: filterValue(filter, props[first]!, text) });
    } else {
      const target = registry.byName.get(d.relations[first]!.entity)!;
      const value = filterValue(filter, target.schema.properties![second]!, text);
      result.filters.push({ filter, relation: { name: first, target, field: second }, column: d.relations[first]!.field, value });
    }
  }
  // Clients send `direction` only when it is not asc, so an explicit sort alone means asc.
  if (sortGiven && !directionGiven) result.direction = 'asc';
  return result;
}
