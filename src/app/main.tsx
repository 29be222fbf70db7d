import '@radix-ui/themes/styles.css';
import './app.css';
import { firstScreenSettled } from './first-screen.js';

// The entry script. When the boot script is asking the server for this page's first screen, the
// app's own code (start.tsx, which the boot script asks for then) runs once that screen is shown or
// there is none, never more than a second later: the browser's main thread is then free to show it
// the moment it arrives, instead of evaluating the app's modules.
await firstScreenSettled(1000);
await import('./start.js');
