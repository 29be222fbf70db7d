import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { widgets } from '../../src/engine/rjsf-radix/index.js';
import { knownExtensionNames, registeredHookNames } from '../../src/server/extensions.js';
import { DescriptorError } from '../../src/shared/descriptor/descriptor-error.js';
import { type EntitySource, loadEntities } from '../../src/shared/descriptor/load-entities.js';
import { WIDGET_NAMES } from '../../src/shared/descriptor/types.js';

const read = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8'));
const category = (): EntitySource => ({
  file: 'entities/category.json',
  descriptor: read('entities/category.json'),
  schemaFile: 'schemas/category.schema.json',
  schema: read(path.join('schemas', 'category.schema.json')),
});

function errorOf(source: EntitySource): DescriptorError | undefined {
  try {
    loadEntities([source], { knownHooks: registeredHookNames(), names: knownExtensionNames });
    return undefined;
  } catch (error) {
    if (error instanceof DescriptorError) return error;
    throw error;
  }
}

describe('widget names', () => {
  it('are one list: every name a descriptor may use is registered in the theme', () => {
    expect(WIDGET_NAMES.filter((name) => !Object.hasOwn(widgets, name))).toEqual([]);
  });

  it('are checked at start-up at any depth of a uiSchema', { timeout: 60_000 }, () => {
    expect(errorOf(category())).toBeUndefined();
    const nested = category();
    (nested.descriptor as any).forms.create.uiSchema.prize_money.amount['ui:widget'] = 'slider';
    const error = errorOf(nested);
    expect(error?.message).toContain('/forms/create/uiSchema/prize_money/amount/ui:widget');
    expect(error?.message).toContain('unknown widget "slider"');
  });
});
