import type { ClientEntity, FieldDisplay } from '../../shared/descriptor/types.js';

/** The i18n key of a field's label: the display's own, else `entities.<name>.fields.<field>`. */
export function fieldLabelKey(entity: ClientEntity, display: Pick<FieldDisplay, 'field' | 'label'>): string {
  return display.label ?? `entities.${entity.name}.fields.${display.field}`;
}

/** A field name as words ('job_title' → 'Job title'), the label of a field nobody translated yet. */
export function humanizeField(field: string): string {
  const words = field.replace(/_/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * A field's translated label: the display's own key, else (in a list) the column heading
 * `entities.<name>.columns.<field>` ('Category Name'), else `entities.<name>.fields.<field>`,
 * else the field's name as words.
 */
export function fieldLabel(
  entity: ClientEntity,
  display: Pick<FieldDisplay, 'field' | 'label'>,
  t: (key: string | string[], options: { defaultValue: string }) => string,
  place: 'list' | 'detail' = 'detail',
): string {
  const keys = display.label
    ? [display.label]
    : [...(place === 'list' ? [`entities.${entity.name}.columns.${display.field}`] : []), fieldLabelKey(entity, display)];
  return t(keys, { defaultValue: humanizeField(display.field) });
}

/** A record's title for headings and confirmations (its `titleField`, else `#id`). */
export function recordTitle(entity: ClientEntity, record: Record<string, unknown> | undefined): string {
  const value = record?.[entity.titleField];
  if (typeof value === 'string' && value.trim() !== '') return value;
  // A number names a record only with its sign: 'Contest #12', never a bare '12' as a heading.
  if (typeof value === 'number') return `#${String(value)}`;
  return record?.id !== undefined ? `#${String(record.id)}` : '';
}

/** In-app paths of an entity's screens. */
export function entityPaths(entity: ClientEntity) {
  const fill = (pattern: string, id: number | string) => `/${pattern.replace(':id', encodeURIComponent(String(id)))}`;
  return {
    list: `/${entity.routes.list}`,
    create: `/${entity.routes.create}`,
    detail: (id: number | string) => fill(entity.routes.detail, id),
    edit: (id: number | string) => fill(entity.routes.edit, id),
  };
}
