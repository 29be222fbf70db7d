// The server: the features registered first, then the server's own entry. The main program
// (main.ts) imports it once it has started what starts before the server's modules load.
import '../server.js';

export { serve } from '../../server/main.js';
