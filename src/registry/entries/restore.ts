// The restore program: the features registered first, then the server's own entry.
import '../server.js';
import '../../server/backup/restore-cli.js';
