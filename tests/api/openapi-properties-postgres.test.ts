import { describeOperationProperties } from './openapi-properties.js';

// Generated requests over every operation of GET /api/openapi.json on PostgreSQL (when TEST_DATABASE_URL is set): see openapi-properties.ts.
describeOperationProperties('postgres');
