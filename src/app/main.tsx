import '@radix-ui/themes/styles.css';
import './app.css';
import { firstScreenSettled } from './first-screen.js';
import { entryPreloadList, preloadModules } from './module-preload.js';

// The entry script. A page load of the sign-in page runs that page by itself (sign-in-start.tsx:
// without the app's router and registry, a third of the app's first load), which starts the app
// once it has signed in. Any other page: when the boot script is asking the server for this page's
// first screen, the app's own code (start.tsx) runs once that screen is shown or there is none,
// never more than a second later: the browser's main thread is then free to show it the moment it
// arrives, instead of evaluating the app's modules. The chunks each one needs besides those the
// boot script asks for on every page are asked for together here (the build's `signIn` and `start`
// lists), not found one import level at a time.
if (window.location.pathname === '/login') {
  preloadModules(entryPreloadList('signIn'));
  await import('./sign-in-start.js');
} else {
  await firstScreenSettled(1000);
  preloadModules(entryPreloadList('start'));
  await import('./start.js');
}
