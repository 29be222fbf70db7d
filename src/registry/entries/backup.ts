// The backup program: the features registered first, then the server's own entry.
import '../server.js';
import '../../server/backup/backup-cli.js';
