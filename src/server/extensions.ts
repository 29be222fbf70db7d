import { type ExtensionNames, mergeExtensionNames, SHIPPED_NAMES } from '../shared/descriptor/extension-names.js';

export { type HookServices, hookFor, registeredHookNames, type WriteHookInput } from '../shared/extension/server-hooks.js';

/**
 * The cells, widgets, filter inputs and row actions descriptors may name: the engine's and those the
 * registered features and extensions add in the browser ({@link registerExtensionNames}). The server
 * never loads the browser's registry, so it checks names against these lists, which the client's
 * registration calls are typed by. Updated in place as names are registered.
 */
export const knownExtensionNames: ExtensionNames = { ...SHIPPED_NAMES };

/** Adds the names of client parts (registered in the browser) that descriptors may use. */
export function registerExtensionNames(names: ExtensionNames): void {
  Object.assign(knownExtensionNames, mergeExtensionNames(knownExtensionNames, names));
}
