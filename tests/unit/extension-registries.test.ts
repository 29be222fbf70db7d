import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import '../../src/engine/cells/registry.js';
import '../../src/engine/list/filter-inputs.js';
import '../../src/engine/list/row-actions.js';
import '../../src/engine/rjsf-radix/index.js';
import '../../src/registry/client.js';
import {
  loadRegisteredExtensions,
  registerExtension,
  registeredDashboardPanels,
  registeredHeaderItems,
  registeredMenuEntries,
  registeredNames,
  registeredPlaceholders,
  registeredProfileCards,
  registeredScreens,
} from '../../src/engine/registry/index.js';
import { accountsClient } from '../../src/features/accounts/client.js';
import { dataioClient } from '../../src/features/dataio/client.js';
import { entrantsClient } from '../../src/features/entrants/client.js';
import { historyClient } from '../../src/features/history/client.js';
import { judgingClient } from '../../src/features/judging/client.js';
import { notificationsClient } from '../../src/features/notifications/client.js';
import { resultsClient } from '../../src/features/results/client.js';
import { hookFor, knownExtensionNames, registeredHookNames } from '../../src/server/extensions.js';
import { DescriptorError } from '../../src/shared/descriptor/descriptor-error.js';
import { SHIPPED_NAMES } from '../../src/shared/descriptor/extension-names.js';
import { type EntitySource, loadEntities } from '../../src/shared/descriptor/load-entities.js';
import { registerServerExtension } from '../../src/shared/extension/server-hooks.js';

const read = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8'));
const category = (edit: (descriptor: any) => void): EntitySource => {
  const descriptor = read('entities/category.json');
  edit(descriptor);
  return { file: 'entities/category.json', descriptor, schemaFile: 'schemas/category.schema.json', schema: read('schemas/category.schema.json') };
};
const sorted = (names: readonly string[]) => [...names].sort();

function problemOf(source: EntitySource, names = knownExtensionNames): string | undefined {
  try {
    loadEntities([source], { knownHooks: registeredHookNames(), names });
    return undefined;
  } catch (error) {
    if (error instanceof DescriptorError) return error.message;
    throw error;
  }
}

describe('the registries', () => {
  it('register in the browser exactly the cells, filter inputs and row actions the server accepts, and every widget it accepts', async () => {
    // The features' cells, widgets and row actions come with their `lazy` parts, which the sign-in page never loads.
    expect(registeredNames().cells).not.toContain('rating-stars');
    await loadRegisteredExtensions();
    const client = registeredNames();
    expect(sorted(client.cells)).toEqual(sorted(knownExtensionNames.cells));
    expect(sorted(client.filterInputs)).toEqual(sorted(knownExtensionNames.filterInputs));
    expect(sorted(client.rowActions)).toEqual(sorted(knownExtensionNames.rowActions));
    // RJSF's own PascalCase names (TextWidget) are registered too, for the widget it picks by type.
    expect(knownExtensionNames.widgets.filter((name) => !client.widgets.includes(name))).toEqual([]);
    expect(knownExtensionNames.cells).toEqual(expect.arrayContaining([...SHIPPED_NAMES.cells, 'rating-stars']));
  });

  it("registers the features' screens by path, and the parts the app shows in its places", () => {
    const features = [accountsClient, judgingClient, resultsClient, dataioClient, historyClient, notificationsClient, entrantsClient];
    expect(registeredScreens().map((screen) => screen.path)).toEqual(features.flatMap((feature) => feature.screens ?? []).map((screen) => screen.path));
    expect(registeredPlaceholders()).toEqual(features.flatMap((feature) => feature.placeholders ?? []));
    expect(registeredMenuEntries()).toEqual(features.flatMap((feature) => feature.menuEntries ?? []));
    expect(registeredDashboardPanels().map((panel) => panel.id)).toEqual(['judging-figures', 'judging-rounds', 'judging-latest-contests', 'results-charts']);
    expect(registeredHeaderItems().map((item) => item.id)).toEqual(['edition-switcher', 'notifications']);
    expect(registeredProfileCards().map((card) => card.id)).toEqual(['two-factor']);
  });

  it('refuses a second screen, placeholder, part or menu group placement under a taken name', () => {
    const load = async () => ({ default: () => null });
    expect(() => registerExtension({ screens: [{ path: '/jury', roles: ['admin'], load }] })).toThrow('The screen "/jury" is registered twice.');
    expect(() => registerExtension({ placeholders: [{ path: '/manage-jury', titleKey: 'x', descriptionKey: 'y' }] })).toThrow(
      'The placeholder "/manage-jury" is registered twice.',
    );
    expect(() => registerExtension({ dashboardPanels: [{ id: 'results-charts', order: 1, load }] })).toThrow(
      'The dashboard panel "results-charts" is registered twice.',
    );
    expect(() => registerExtension({ headerItems: [{ id: 'notifications', order: 1, load }] })).toThrow('The header item "notifications" is registered twice.');
    expect(() => registerExtension({ menuGroups: [{ id: 'jury', order: 99 }] })).toThrow('The menu group "jury" is placed twice.');
    // The same registration again (a module evaluated twice) changes nothing.
    expect(() => registerExtension(judgingClient)).not.toThrow();
    expect(registeredDashboardPanels()).toHaveLength(4);
  });

  it('checks cells, widgets, filter inputs and row actions by name at start-up', { timeout: 60_000 }, () => {
    expect(problemOf(category(() => {}))).toBeUndefined();
    const rated = category((d) => d.list.columns.push({ field: 'id', cell: 'rating-stars' }));
    expect(problemOf(rated)).toBeUndefined();
    expect(problemOf(rated, SHIPPED_NAMES)).toContain('/list/columns/6/cell: unknown cell "rating-stars"');
    expect(problemOf(category((d) => (d.list.columns[0].cell = 'sparkline')))).toContain('/list/columns/0/cell: unknown cell "sparkline"');
    expect(problemOf(category((d) => d.list.actions.push('archive')))).toContain('/list/actions/2: unknown row action "archive"');
    expect(problemOf(category((d) => (d.forms.edit.uiSchema.status['ui:widget'] = 'slider')))).toContain('unknown widget "slider"');
    const filtered = category((d) => (d.list.filters = [{ param: 'status', field: 'status', operator: 'eq', input: 'slider' }]));
    expect(problemOf(filtered)).toContain('/list/filters/0/input: unknown filter input "slider"');
  });

  it('loads a lazy part once, and again on the next call after its chunk failed to load', async () => {
    let calls = 0;
    const lazy = async () => {
      calls += 1;
      if (calls === 1) throw new Error('chunk not loaded');
      return { default: { cells: { 'lazy-test': () => null } } };
    };
    registerExtension({ lazy });
    await expect(loadRegisteredExtensions()).rejects.toThrow('chunk not loaded');
    expect(registeredNames().cells).not.toContain('lazy-test');
    await loadRegisteredExtensions();
    expect(registeredNames().cells).toContain('lazy-test');
    // Registered again (a module evaluated twice): not loaded again.
    registerExtension({ lazy });
    await loadRegisteredExtensions();
    expect(calls).toBe(2);
  });
});

describe('server hooks', () => {
  it('are registered by name through one call, the row-local ones marked', () => {
    expect(sorted(registeredHookNames())).toEqual([
      'assignment-rules',
      'current-edition',
      'exam-duplicate-round',
      'exam-not-final',
      'exam-rules',
      'hash-password',
      'lowercase-email',
      'slug-from-name',
    ]);
    expect(hookFor('hash-password')?.rowLocal).toBe(true);
    expect(hookFor('slug-from-name')?.rowLocal).toBeUndefined();
  });

  it('cannot be replaced by another hook under the same name', () => {
    const same = hookFor('slug-from-name')!.beforeWrite;
    expect(() => registerServerExtension({ hooks: { 'slug-from-name': same } })).not.toThrow();
    expect(() => registerServerExtension({ hooks: { 'slug-from-name': () => undefined } })).toThrow('The server hook "slug-from-name" is registered twice.');
  });
});
