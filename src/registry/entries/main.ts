// The main program. The first-screen render thread starts first (src/server/early-start.ts), then
// the server loads (serve.ts, a file of its own in the build: its packages load only then) and starts.
import { startEarly } from '../../server/early-start.js';

const early = startEarly();
const { serve } = await import('./serve.js');
await serve(early);
