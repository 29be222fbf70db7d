// The application's extensions, registered before anything of the server reads a registry.
import '../extensions/server/index.js';
import { SHIPPED_NAMES, mergeExtensionNames, type ExtensionNames } from '../shared/descriptor/extension-names.js';
import { applicationNames } from '../extensions/extension-names.js';

export { hookFor, registeredHookNames, type HookServices, type WriteHookInput } from '../shared/extension/server-hooks.js';

/**
 * The cells, widgets, filter inputs and row actions descriptors may name: the engine's and the
 * application's. The server never loads the browser's registry, so it checks names against these
 * lists, which the client's registration call is typed by.
 */
export const knownExtensionNames: ExtensionNames = mergeExtensionNames(SHIPPED_NAMES, applicationNames);
