// The seed program: the features registered first, then the server's own entry.
import '../server.js';
import '../../features/demo/server/seed-cli.js';
