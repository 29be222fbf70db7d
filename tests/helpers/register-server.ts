// Every suite runs with the features the console ships registered, as the server's entry points do.
import '../../src/registry/server.js';
