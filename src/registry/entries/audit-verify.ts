// The audit-verify program: the features registered first, then the server's own entry.
import '../server.js';
import '../../server/history/audit-verify-cli.js';
