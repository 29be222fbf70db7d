import type { ClientEntity, EntityTexts, FieldDisplay } from '../../shared/descriptor/types.js';

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
  // A number names a record only with its sign: 'Category #12', never a bare '12' as a heading.
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

/** A translate function as `useTranslation` gives it (keys tried in order, values interpolated). */
export type Translate = (key: string | string[], options?: Record<string, unknown>) => string;

const snakeCase = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * The keys of one of an entity's texts, first found wins: the descriptor's own (`texts.<key>`, by
 * default `entities.<name>.<key in snake_case>`), then the generic text `common.entity.<key>`
 * ('{{label}} created successfully!'), so an entity needs no text of its own.
 */
export function entityTextKeys(entity: ClientEntity, key: keyof EntityTexts): string[] {
  return [entity.texts[key], `common.entity.${snakeCase(key)}`];
}

/**
 * The entity's names the generic texts use: `label` ('Partner') and `labelPlural` ('Partners') from
 * `entities.<name>.label` and `entities.<name>.label_plural`, else the descriptor's `label` as
 * words, and their lower-case forms for the middle of a sentence.
 */
export function entityTextValues(entity: ClientEntity, t: Translate): Record<string, string> {
  const fallback = humanizeField(entity.label);
  const label = t(`entities.${entity.name}.label`, { defaultValue: fallback });
  const labelPlural = t(`entities.${entity.name}.label_plural`, { defaultValue: label });
  return { label, labelPlural, labelLower: label.toLowerCase(), labelPluralLower: labelPlural.toLowerCase() };
}

/** One of an entity's texts in the current language: its own, else the generic one (see {@link entityTextKeys}). */
export function entityText(entity: ClientEntity, key: keyof EntityTexts, t: Translate, values?: Record<string, unknown>): string {
  return t(entityTextKeys(entity, key), { ...entityTextValues(entity, t), ...values });
}
