import type { EntityDescriptor, EntityTexts, FormConfig, JsonSchema, Relation } from './types.js';
import { ENTITY_TEXT_KEYS } from './types.js';

/** A descriptor as written in its file, already checked against `descriptor.schema.json`. */
export type RawDescriptor = Record<string, any>;

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

function form(raw: Record<string, any> | undefined): FormConfig {
  return { fields: [...(raw?.fields ?? [])], uiSchema: { ...(raw?.uiSchema ?? {}) }, defaults: { ...(raw?.defaults ?? {}) } };
}

/**
 * Fills every default of `descriptor.schema.json` so the engines never test for a missing key.
 * Relations' `fields` default to the related entity's title field, filled once all entities are
 * known (`loadEntities`).
 */
export function applyDefaults(raw: RawDescriptor, schema: JsonSchema): EntityDescriptor {
  const name: string = raw.name;
  const texts = Object.fromEntries(ENTITY_TEXT_KEYS.map((key) => [key, raw.texts?.[key] ?? `entities.${name}.${snake(key)}`])) as unknown as EntityTexts;
  const columns = (raw.list.columns as any[]).map((column) => ({ ...column }));
  const sorts: string[] = raw.list.sorts ?? columns.filter((c) => c.sortable).map((c) => c.field);
  const relations: Record<string, Relation> = {};
  for (const [key, relation] of Object.entries<any>(raw.relations ?? {})) {
    relations[key] = {
      kind: relation.kind,
      field: relation.field,
      entity: relation.entity,
      fields: [...(relation.fields ?? [])],
      onDelete: relation.onDelete ?? 'restrict',
    };
  }
  const virtual: string[] = [...(raw.virtual ?? [])];
  const shown = Object.keys(schema.properties ?? {}).filter((field) => !schema.properties?.[field]?.writeOnly && !virtual.includes(field));
  return {
    name,
    schema: raw.schema ?? name,
    endpoint: raw.endpoint,
    table: raw.table ?? String(raw.endpoint).replace(/-/g, '_'),
    routes: {
      list: raw.routes.list,
      create: raw.routes.create,
      detail: raw.routes.detail ?? `${raw.routes.list}/:id`,
      edit: raw.routes.edit ?? `${raw.routes.list}/edit/:id`,
    },
    titleField: raw.titleField,
    label: raw.label ?? name.replace(/_/g, ' '),
    texts,
    menu: {
      show: raw.menu?.show ?? true,
      order: raw.menu?.order ?? 100,
      ...(raw.menu?.icon ? { icon: raw.menu.icon } : {}),
      label: raw.menu?.label ?? texts.title,
      group: raw.menu?.group ?? 'setup',
    },
    permissions: {
      list: [...raw.permissions.list],
      read: [...raw.permissions.read],
      create: [...raw.permissions.create],
      update: [...raw.permissions.update],
      delete: [...raw.permissions.delete],
    },
    list: {
      columns,
      actions: [...(raw.list.actions ?? ['view', 'edit', 'delete'])],
      sorts: [...sorts],
      defaultSort: {
        field: raw.list.defaultSort?.field ?? 'id',
        direction: raw.list.defaultSort?.direction ?? 'asc',
      },
      pageSize: raw.list.pageSize ?? 10,
      pageSizeParam: raw.list.pageSizeParam === undefined ? 'per_page' : raw.list.pageSizeParam,
      sendPageSize: raw.list.sendPageSize ?? false,
      filters: (raw.list.filters ?? []).map((filter: any) => ({ ...filter })),
      search: [...(raw.list.search ?? [])],
      refetchOnFocus: raw.list.refetchOnFocus ?? true,
      ...(raw.list.filterPanel
        ? { filterPanel: { ...raw.list.filterPanel, ...(raw.list.filterPanel.filters ? { filters: [...raw.list.filterPanel.filters] } : {}) } }
        : {}),
      texts: { ...(raw.list.texts ?? {}) },
    },
    detail: {
      sections: raw.detail?.sections?.map((section: any) => ({ ...section, fields: section.fields.map((f: any) => ({ ...f })) })) ?? [
        { title: 'common.entity.details', fields: shown.map((field) => ({ field })) },
      ],
      empty: raw.detail?.empty ?? 'common.not_provided',
      links: (raw.detail?.links ?? []).map((link: any) => ({ ...link })),
    },
    forms: {
      create: form(raw.forms.create),
      edit: form(raw.forms.edit),
      ...(raw.forms.portal
        ? { portal: { ...form(raw.forms.portal), required: [...(raw.forms.portal.required ?? [])], jurorFields: [...(raw.forms.portal.jurorFields ?? [])] } }
        : {}),
    },
    messages: Object.fromEntries(Object.entries<any>(raw.messages ?? {}).map(([field, keys]) => [field, { ...keys }])),
    relations,
    includes: [...(raw.includes ?? Object.keys(relations))],
    hooks: { beforeWrite: [...(raw.hooks?.beforeWrite ?? [])] },
    unique: (raw.unique ?? []).map((entry: string | string[]) => (Array.isArray(entry) ? [...entry] : entry)),
    virtual,
    comparisons: (raw.comparisons ?? []).map((rule: any) => ({ ...rule })),
    computed: Object.fromEntries(Object.entries<any>(raw.computed ?? {}).map(([field, spec]) => [field, { ...spec }])),
    counts: { groupBy: [...(raw.counts?.groupBy ?? [])] },
    ...(raw.import
      ? {
          import: {
            fields: [...raw.import.fields],
            ...(raw.import.key ? { key: raw.import.key } : {}),
            sample: (raw.import.sample ?? []).map((row: any) => ({ ...row })),
          },
        }
      : {}),
    ...(raw.bulk ? { bulk: { set: [...(raw.bulk.set ?? [])] } } : {}),
  };
}
