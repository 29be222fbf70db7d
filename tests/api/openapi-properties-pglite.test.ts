import { describeOperationProperties } from './openapi-properties.js';

// Generated requests over every operation of GET /api/openapi.json on PGlite: see openapi-properties.ts.
describeOperationProperties('pglite');
