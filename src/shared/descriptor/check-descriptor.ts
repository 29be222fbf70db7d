import { type ExtensionNames, SHIPPED_NAMES } from './extension-names.js';
import { FIELD_NAME, fieldKind, isSortable, isTextual } from './schema-fields.js';
import type { EntityDescriptor, JsonSchema } from './types.js';

/** One problem found in a descriptor or its schema: which file, where, and why. */
export interface Problem {
  file: 'descriptor' | 'schema';
  path: string;
  reason: string;
}

/** Query parameters every list has; filters cannot take these names. */
export const RESERVED_PARAMS = ['page', 'per_page', 'sort', 'direction', 'search', 'include'];

/** Checks the entity's schema: every property storable, with a safe name, and an integer `id`. */
export function checkSchema(schema: JsonSchema): Problem[] {
  const problems: Problem[] = [];
  const add = (path: string, reason: string) => problems.push({ file: 'schema', path, reason });
  if (schema.type !== 'object') add('/type', 'an entity schema must have "type": "object"');
  const properties = schema.properties;
  if (!properties || typeof properties !== 'object') {
    add('/properties', 'an entity schema must list its fields under "properties"');
    return problems;
  }
  for (const [field, property] of Object.entries(properties)) {
    if (!FIELD_NAME.test(field)) add(`/properties/${field}`, `field names must be lower snake_case (a-z, 0-9, _), not "${field}"`);
    const kind = fieldKind(property);
    if (typeof kind === 'object') add(`/properties/${field}`, `cannot be stored: ${kind.unsupported}`);
  }
  const id = properties.id;
  if (id?.type !== 'integer' || !id.readOnly) add('/properties/id', 'every entity needs "id": {"type": "integer", "readOnly": true}');
  (schema.required ?? []).forEach((field, i) => {
    if (!properties[field]) add(`/required/${i}`, `"${field}" is required but is not a property`);
  });
  return problems;
}

/** What a descriptor's names are checked against. */
export interface CheckOptions {
  /** Names of the server's registered hooks; unchecked when absent. */
  knownHooks?: readonly string[] | undefined;
  /** Cells, widgets, filter inputs and row actions that are registered; default the engine's own. */
  names?: ExtensionNames | undefined;
  /** The declared roles (`roles.ts`) permissions may name; unchecked when absent. */
  knownRoles?: readonly string[] | undefined;
}

/**
 * Checks that every field a descriptor names exists in its schema and is used sensibly (sortable,
 * textual for substring filters, writable in forms...), and that every cell, widget, filter input
 * and row action it names is registered. Relations' targets are checked by `loadEntities`, which
 * knows every entity.
 */
export function checkDescriptor(d: EntityDescriptor, schema: JsonSchema, options: CheckOptions = {}): Problem[] {
  const { knownHooks, knownRoles, names = SHIPPED_NAMES } = options;
  const problems: Problem[] = [];
  const add = (path: string, reason: string) => problems.push({ file: 'descriptor', path, reason });
  const registered = (slot: Exclude<keyof ExtensionNames, 'fieldOnlyCells'>, what: string, path: string, name: unknown) => {
    if (!names[slot].includes(name as string)) add(path, `unknown ${what} "${String(name)}"; known: ${names[slot].join(', ')}`);
  };
  const checkCells = (display: { cell?: string; relationCell?: string }, at: string) => {
    if (display.cell !== undefined) registered('cells', 'cell', `${at}/cell`, display.cell);
    if (display.relationCell === 'relation') add(`${at}/relationCell`, 'a relation cell cannot render its value as another relation');
    else if (display.relationCell !== undefined) registered('cells', 'cell', `${at}/relationCell`, display.relationCell);
  };
  d.list.actions.forEach((action, i) => {
    registered('rowActions', 'row action', `/list/actions/${i}`, action);
  });
  const props = schema.properties ?? {};
  const has = (field: string) => Object.hasOwn(props, field);
  const field = (path: string, name: string) => {
    if (!has(name)) add(path, `"${name}" is not a field of the schema "${d.schema}"`);
    return has(name);
  };

  field('/titleField', d.titleField);

  d.list.columns.forEach((column, i) => {
    const at = `/list/columns/${i}`;
    checkCells(column, at);
    if (!field(`${at}/field`, column.field)) return;
    if (column.cell === 'relation') {
      if (!column.relation || !d.relations[column.relation]) add(`${at}/relation`, 'a relation cell needs "relation" naming one of "relations"');
      if (!column.display) add(`${at}/display`, 'a relation cell needs "display", the related field shown');
    }
    if (column.sortable && !d.list.sorts.includes(column.field)) add(`${at}/sortable`, `"${column.field}" is sortable but not in list.sorts`);
    if (column.cell === 'badge' && !column.badges) add(`${at}/badges`, 'a badge cell needs "badges"');
  });
  d.list.sorts.forEach((sort, i) => {
    if (field(`/list/sorts/${i}`, sort) && !isSortable(props[sort]!)) add(`/list/sorts/${i}`, `"${sort}" holds JSON and cannot be sorted`);
  });
  if (field('/list/defaultSort/field', d.list.defaultSort.field) && !isSortable(props[d.list.defaultSort.field]!)) {
    add('/list/defaultSort/field', 'the default sort field cannot be sorted');
  }
  const params = new Set<string>();
  d.list.filters.forEach((filter, i) => {
    const at = `/list/filters/${i}`;
    registered('filterInputs', 'filter input', `${at}/input`, filter.input);
    if (RESERVED_PARAMS.includes(filter.param)) add(`${at}/param`, `"${filter.param}" is a reserved list parameter`);
    if (params.has(filter.param)) add(`${at}/param`, `"${filter.param}" is used by two filters`);
    params.add(filter.param);
    if (filter.optionFields && filter.input !== 'reference') add(`${at}/optionFields`, 'optionFields is only for input "reference"');
    if (filter.typedId && filter.input !== 'reference') add(`${at}/typedId`, 'typedId is only for input "reference"');
    if (filter.input === 'reference') {
      if (filter.operator !== 'eq') add(`${at}/operator`, 'a reference filter matches an id: its operator must be eq');
      if (!Object.values(d.relations).some((relation) => relation.kind === 'belongsTo' && relation.field === filter.field)) {
        add(`${at}/field`, `a reference filter needs a belongsTo relation whose field is "${filter.field}"`);
      }
    }
    const [first, second] = filter.field.split('.') as [string, string | undefined];
    if (second !== undefined) {
      if (!d.relations[first]) add(`${at}/field`, `"${first}" is not one of "relations"`);
      return;
    }
    if (!field(`${at}/field`, first)) return;
    if (filter.operator === 'ilike' && !isTextual(props[first]!)) add(`${at}/operator`, `ilike needs a text field; "${first}" is not`);
    if (fieldKind(props[first]!) === 'json') add(`${at}/field`, `"${first}" holds JSON and cannot be filtered`);
  });
  d.list.filterPanel?.filters?.forEach((param, i) => {
    if (!params.has(param)) add(`/list/filterPanel/filters/${i}`, `"${param}" is not the param of one of list.filters`);
  });
  d.list.search.forEach((name, i) => {
    if (field(`/list/search/${i}`, name) && !isTextual(props[name]!)) add(`/list/search/${i}`, `search needs text fields; "${name}" is not`);
  });

  d.detail.sections.forEach((section, i) => {
    section.fields.forEach((display, j) => {
      const at = `/detail/sections/${i}/fields/${j}`;
      checkCells(display, at);
      if (display.cell === 'relation' && (!display.relation || !d.relations[display.relation])) {
        add(`${at}/relation`, 'a relation cell needs "relation" naming one of "relations"');
      }
      if (field(`${at}/field`, display.field) && props[display.field]?.writeOnly) add(`${at}/field`, `"${display.field}" is write-only and never shown`);
    });
  });

  (['create', 'edit', 'portal'] as const).forEach((which) => {
    const form = d.forms[which];
    if (!form) return;
    form.fields.forEach((name, i) => {
      if (field(`/forms/${which}/fields/${i}`, name) && props[name]!.readOnly) {
        add(`/forms/${which}/fields/${i}`, `"${name}" is read-only in the schema and cannot be in a form`);
      }
    });
    for (const name of Object.keys(form.uiSchema)) {
      if (name.startsWith('ui:')) continue;
      if (!form.fields.includes(name)) add(`/forms/${which}/uiSchema/${name}`, `"${name}" is not a field of this form`);
    }
    // Every `ui:widget`, however deep (an object's or an array's inner fields too).
    const checkWidgets = (node: unknown, at: string): void => {
      if (!node || typeof node !== 'object') return;
      for (const [key, value] of Object.entries(node)) {
        if (key === 'ui:widget') registered('widgets', 'widget', `${at}/ui:widget`, value);
        else if (!key.startsWith('ui:')) checkWidgets(value, `${at}/${key}`);
      }
    };
    checkWidgets(form.uiSchema, `/forms/${which}/uiSchema`);
    for (const name of Object.keys(form.defaults)) {
      if (!form.fields.includes(name)) add(`/forms/${which}/defaults/${name}`, `"${name}" is not a field of this form`);
    }
  });
  const portal = d.forms.portal;
  for (const list of ['required', 'jurorFields'] as const) {
    portal?.[list].forEach((name, i) => {
      if (!portal.fields.includes(name)) add(`/forms/portal/${list}/${i}`, `"${name}" is not a field of the portal form`);
    });
  }
  if (d.permissions.create.length > 0) {
    for (const name of schema.required ?? []) {
      const property = props[name];
      if (!property || property.readOnly || d.forms.create.fields.includes(name) || property.default !== undefined) continue;
      add('/forms/create/fields', `"${name}" is required, has no default and is not in the create form`);
    }
  }

  for (const name of Object.keys(d.messages)) field(`/messages/${name}`, name);
  for (const [name, relation] of Object.entries(d.relations)) {
    const at = `/relations/${name}`;
    if (has(name)) add(at, `a relation cannot share its name with the field "${name}"`);
    if (field(`${at}/field`, relation.field) && fieldKind(props[relation.field]!) !== 'integer') {
      add(`${at}/field`, `"${relation.field}" must be an integer field to hold an id`);
    }
  }
  d.includes.forEach((name, i) => {
    if (!d.relations[name]) add(`/includes/${i}`, `"${name}" is not one of "relations"`);
  });
  d.unique.forEach((entry, i) => {
    for (const name of Array.isArray(entry) ? entry : [entry]) field(`/unique/${i}`, name);
  });
  d.virtual.forEach((name, i) => {
    field(`/virtual/${i}`, name);
    if (!d.forms.create.fields.includes(name) && !d.forms.edit.fields.includes(name)) add(`/virtual/${i}`, `"${name}" is in no form`);
  });
  d.comparisons.forEach((rule, i) => {
    field(`/comparisons/${i}/field`, rule.field);
    field(`/comparisons/${i}/other`, rule.other);
    if (rule.field === rule.other) add(`/comparisons/${i}/other`, 'a field cannot be compared with itself');
  });
  for (const [name, computed] of Object.entries(d.computed)) {
    const at = `/computed/${name}`;
    if (!field(at, name)) continue;
    if (!props[name]!.readOnly || fieldKind(props[name]!) !== 'integer') add(at, `"${name}" must be a read-only integer field to hold a ${computed.kind}`);
    if (d.list.sorts.includes(name) || d.list.defaultSort.field === name) add(at, `"${name}" is computed and cannot be sorted`);
    if (d.list.filters.some((filter) => filter.field === name) || d.list.search.includes(name)) add(at, `"${name}" is computed and cannot be filtered`);
    if (d.unique.some((entry) => (Array.isArray(entry) ? entry : [entry]).includes(name))) add(at, `"${name}" is computed and cannot be unique`);
  }
  d.counts.groupBy.forEach((entry, i) => {
    const at = `/counts/groupBy/${i}`;
    const parts = entry.split('+');
    if (new Set(parts).size !== parts.length) add(at, `"${entry}" names a field twice`);
    for (const name of parts) {
      if (!field(at, name)) continue;
      const kind = fieldKind(props[name]!);
      if (kind === 'json' || Object.hasOwn(d.computed, name)) add(at, `"${name}" cannot be counted by value (a JSON or computed field)`);
      // A combination's value joins its parts' texts: only values that cannot hold the separator.
      else if (parts.length > 1 && !['integer', 'bigint', 'boolean', 'enum', 'date'].includes(kind as string)) {
        add(at, `"${name}" cannot be part of a combination (only integer, boolean, enum and date fields)`);
      }
    }
  });
  if (knownRoles) {
    for (const [action, roles] of Object.entries(d.permissions)) {
      roles.forEach((role, i) => {
        if (!knownRoles.includes(role)) add(`/permissions/${action}/${i}`, `unknown role "${role}"; declared: ${knownRoles.join(', ') || 'none'}`);
      });
    }
  }
  if (knownHooks) {
    d.hooks.beforeWrite.forEach((hook, i) => {
      if (!knownHooks.includes(hook)) add(`/hooks/beforeWrite/${i}`, `unknown hook "${hook}"; known: ${knownHooks.join(', ') || 'none'}`);
    });
  }
  return problems;
}
