import type { ClientEntity, JsonSchema } from '../../shared/descriptor/types.js';

/** How many rows a warm-up page has: a list page's (15), so the row and cell code runs as often as for a visitor. */
const WARM_UP_ROWS = 15;

/** Made-up words, longer than a list cell shows. */
const LONG_TEXT = 'a made-up value long enough to be cut short in its list cell, as the text of an entry often is, never shown to anyone';

/** A value of the shape `schema` describes, for a warm-up row only: never shown, never stored. */
function sampleValue(schema: JsonSchema, index: number): unknown {
  if (schema.enum?.length) return schema.enum[index % schema.enum.length];
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'string':
      if (schema.format === 'date-time') return new Date(Date.UTC(2026, 0, 1 + index)).toISOString();
      if (schema.format === 'date') return `2026-01-${String(1 + (index % 28)).padStart(2, '0')}`;
      if (schema.format === 'uri') return `https://example.com/${index}`;
      if (schema.format === 'email') return `warm-up-${index}@example.com`;
      // Long ones too (every other row): a long text is cut short with its whole in a title, as a visitor's often is.
      return index % 2 === 0 ? `Warm-up ${index}` : `Warm-up ${index}: ${LONG_TEXT}`;
    case 'integer':
    case 'number':
      return index + 1;
    case 'boolean':
      return index % 2 === 0;
    default:
      return null;
  }
}

/** A made-up value of a related record's field (`name`, `email`, `id`). */
function relatedValue(field: string, index: number): unknown {
  if (field === 'id') return index + 1;
  if (field.includes('email')) return `warm-up-${index}@example.com`;
  return `Warm-up ${field} ${index}`;
}

/**
 * The related records a list page includes for its relation columns (`record.customer`: the fields
 * the column shows, its main one and the muted ones under it), made up: without them the warm-up
 * draws a relation cell's empty placeholder, not the cell a visitor's page shows.
 */
function relatedRecords(entity: ClientEntity, index: number): Record<string, unknown> {
  const related: Record<string, Record<string, unknown>> = {};
  for (const column of entity.list.columns) {
    if (column.cell !== 'relation' || !column.relation) continue;
    const record = (related[column.relation] ??= { id: index + 1 });
    for (const field of [column.display ?? 'name', ...(column.secondary ?? [])]) record[field] ??= relatedValue(field, index);
  }
  return related;
}

/**
 * A list page (the list route's answer) of made-up rows for `entity`, one value per field of its
 * schema and the related records its relation columns show: what the render thread draws while it
 * warms up, so that the row and cell code a visitor's page runs is compiled before the first
 * visitor comes (an empty page compiles the frame only). A cell that does not take a made-up value
 * fails that warm-up render, and nothing else.
 */
export function warmUpPage(entity: ClientEntity): unknown {
  const properties = Object.entries(entity.jsonSchema.properties ?? {});
  const data = Array.from({ length: WARM_UP_ROWS }, (_, index) => ({
    ...Object.fromEntries(properties.map(([name, schema]) => [name, sampleValue(schema, index)])),
    ...relatedRecords(entity, index),
    id: String(index + 1),
  }));
  return {
    data,
    meta: { current_page: 1, last_page: 2, total: WARM_UP_ROWS * 2, per_page: WARM_UP_ROWS },
    links: { first: '', last: '', prev: null, next: '' },
  };
}
