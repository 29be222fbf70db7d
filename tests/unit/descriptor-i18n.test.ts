import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { knownExtensionNames, registeredHookNames } from '../../src/server/extensions.js';
import { loadEntities } from '../../src/shared/descriptor/load-entities.js';
import type { EntityDescriptor, FieldDisplay } from '../../src/shared/descriptor/types.js';

const read = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8'));
const entities = loadEntities(
  fs.readdirSync('entities').map((name) => {
    const descriptor = read(path.join('entities', name));
    const schemaFile = path.join('schemas', `${descriptor.schema ?? descriptor.name}.schema.json`);
    return { file: path.join('entities', name), descriptor, schemaFile, schema: read(schemaFile) };
  }),
  { knownHooks: registeredHookNames(), names: knownExtensionNames },
);
const locales = Object.fromEntries(['en', 'id', 'ms'].map((lang) => [lang, read(`locales/${lang}/common.json`)]));
const lookup = (tree: unknown, key: string) => key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], tree);

/** Every translation key a descriptor shows, with its defaults filled as the client fills them. */
function keysOf(d: EntityDescriptor): string[] {
  // Texts of an action nobody may perform are never shown (a read-only entity has no create button).
  const needs: Partial<Record<keyof EntityDescriptor['texts'], 'create' | 'update' | 'delete'>> = {
    createTitle: 'create',
    createButton: 'create',
    submitCreate: 'create',
    created: 'create',
    createFailed: 'create',
    editTitle: 'update',
    submitUpdate: 'update',
    updated: 'update',
    updateFailed: 'update',
    deleteTitle: 'delete',
    deleteConfirm: 'delete',
    deleted: 'delete',
    deleteFailed: 'delete',
  };
  const texts = Object.entries(d.texts).filter(([name]) => {
    const action = needs[name as keyof EntityDescriptor['texts']];
    return !action || d.permissions[action].length > 0;
  });
  const keys = new Set<string>([...texts.map(([, key]) => key), d.menu.label, d.detail.empty]);
  const display = (f: FieldDisplay) => {
    keys.add(f.label ?? `entities.${d.name}.fields.${f.field}`);
    for (const key of [f.empty, f.linkLabel, f.fallbackBadge?.label, ...Object.values(f.badges ?? {}).map((b) => b.label)]) if (key) keys.add(key);
  };
  d.list.columns.forEach(display);
  for (const section of d.detail.sections) {
    keys.add(section.title);
    section.fields.forEach(display);
  }
  for (const filter of d.list.filters) keys.add(filter.label ?? `entities.${d.name}.filters.${filter.param.replace(/^q\[(.*)\]$/, '$1')}`);
  for (const form of [d.forms.create, d.forms.edit]) {
    for (const field of form.fields) {
      const ui = form.uiSchema[field] ?? {};
      keys.add(typeof ui['ui:title'] === 'string' ? ui['ui:title'] : `entities.${d.name}.fields.${field}`);
      for (const option of ['ui:placeholder', 'ui:description'] as const) if (typeof ui[option] === 'string') keys.add(ui[option] as string);
    }
  }
  for (const byKeyword of Object.values(d.messages)) for (const key of Object.values(byKeyword)) keys.add(key);
  return [...keys];
}

describe.each(entities.map((e) => [e.descriptor.name, e.descriptor] as const))('translations of %s', (_name, descriptor) => {
  it.each(['en', 'id', 'ms'])('has every key the descriptor uses in %s', (lang) => {
    const missing = keysOf(descriptor).filter((key) => typeof lookup(locales[lang], key) !== 'string');
    expect(missing).toEqual([]);
  });
});
