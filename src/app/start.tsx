// The app itself, which the entry script (main.tsx) loads once the server's first screen is shown
// (or there is none).
// The features' screens and parts, registered before the app's modules read the registry.
import '../registry/client.js';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app.js';
import { connectHttpClient } from './auth/session.js';
import { replayFirstScreenIntents, takeOverFirstScreen } from './first-screen.js';
import { i18n, i18nReady } from './i18n.js';
import { loadProductName } from './product-name.js';
import { createAppRouter, preloadFirstScreen } from './router.js';

performance.mark('main-start');
connectHttpClient();
// The programme's own name for titles, the brand and the footer; the default shows until it is in.
void loadProductName(i18n);
// The first screen's chunks before the first render: no Suspense fallback holds it back.
let preloadedFor = location.href;
await Promise.all([i18nReady, preloadFirstScreen()]);
// The server's first screen is live meanwhile: a page opened there is the one to load ahead.
for (let again = 0; again < 3 && preloadedFor !== location.href; again++) {
  preloadedFor = location.href;
  await preloadFirstScreen();
}

performance.mark('preloaded');
// The boot script's server-rendered first screen, if shown, stays until this render replaces it;
// from now on it only notes what is done there, and this screen does it again once it is in.
const firstScreen = takeOverFirstScreen();
const root = document.getElementById('root')!;
createRoot(root).render(
  <StrictMode>
    <App router={createAppRouter()} />
  </StrictMode>,
);
void replayFirstScreenIntents(root, firstScreen).finally(() => root.removeAttribute('aria-busy'));
