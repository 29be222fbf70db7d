// The server's render of a signed-in list screen (GET /api/meta/first-screen): build.mjs bundles this
// file with the browser's own components for Node, and src/server/first-screen runs it on a thread.

// The features' screens and parts, registered before the routes are built.
import '../../registry/client.js';
import { renderToString } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { createStaticHandler, createStaticRouter, matchRoutes, StaticRouterProvider } from 'react-router-dom';
import { entityListOptions } from '../../engine/data/entity-queries.js';
import { metaEntitiesOptions } from '../../engine/data/use-meta.js';
import { listenForServerTitle } from '../../engine/ui/server-title.js';
import type { FirstScreen, FirstScreenInput } from '../../shared/first-screen.js';
import { readListParams } from '../../shared/list-request.js';
import { ThemeRoot } from '../app.js';
import { AuthProvider } from '../auth/auth-context.js';
import { tokenStore } from '../auth/session.js';
import i18n, { i18nReady, toLanguage } from '../i18n.js';
import { SIDEBAR_COLLAPSED_KEY } from '../layout/sidebar-state.js';
import { applyProductName } from '../product-name.js';
import { getQueryClient } from '../query-client.js';
import { routes } from '../router.js';
import { MemoryStorage } from './session.server.js';

let queue: Promise<unknown> = Promise.resolve();

/**
 * The HTML of the signed-in list screen at `path` + `search` for `user`, with the list page in it:
 * the very components the browser renders, with the data it would fetch. One render at a time (the
 * token store, the query cache and the language are the module's own).
 */
export function renderFirstScreen(input: FirstScreenInput): Promise<FirstScreen> {
  const run = queue.then(() => render(input));
  queue = run.catch(() => undefined);
  return run;
}

/** The browser's localStorage as far as the render reads it (the sidebar's state). */
const storage = new MemoryStorage();
(globalThis as { localStorage?: Storage }).localStorage = storage;

async function render({
  path,
  search,
  language,
  user,
  entities,
  entity,
  list,
  extraTranslations,
  sidebarCollapsed,
  product,
}: FirstScreenInput): Promise<FirstScreen> {
  storage.clear();
  if (sidebarCollapsed) storage.setItem(SIDEBAR_COLLAPSED_KEY, 'true');
  await i18nReady;
  applyProductName(i18n, product, false);
  // Only when it changes: a change makes every text be resolved again (use-translation.ts keeps them).
  if (i18n.language !== toLanguage(language)) await i18n.changeLanguage(toLanguage(language));
  if (extraTranslations && Object.keys(extraTranslations).length > 0) i18n.addResourceBundle(toLanguage(language), 'common', extraTranslations, true, true);
  const handler = createStaticHandler(routes);
  // The lazy screens the path shows, in before the render (else their Suspense fallback renders).
  for (const match of matchRoutes(routes, path) ?? []) {
    const handle = match.route.handle as { preload?: () => Promise<unknown> } | undefined;
    await handle?.preload?.();
  }
  const context = await handler.query(new Request(`http://localhost${path}${search}`));
  if (context instanceof Response) throw new Error('The first screen redirects.');
  const client = getQueryClient();
  tokenStore.setSession({ token: 'server-render', refreshToken: '', expiresIn: 3600 }, user);
  client.setQueryData(metaEntitiesOptions.queryKey, entities);
  client.setQueryData(entityListOptions(entity, readListParams(entity, new URLSearchParams(search))).queryKey, list as never);
  // The last title a screen's hook sets while it renders (the frame's, then the screen's).
  let title = '';
  listenForServerTitle((next) => (title = next));
  try {
    const router = createStaticRouter(handler.dataRoutes, context);
    const html = renderToString(
      <I18nextProvider i18n={i18n}>
        <AuthProvider>
          <ThemeRoot>
            <StaticRouterProvider router={router} context={context} hydrate={false} />
          </ThemeRoot>
        </AuthProvider>
      </I18nextProvider>,
    );
    return { html, title };
  } finally {
    listenForServerTitle(null);
    client.clear();
    tokenStore.clear('LOGOUT');
  }
}
