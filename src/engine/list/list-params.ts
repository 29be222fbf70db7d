// The list request's rules live in src/shared/list-request.ts (the server names the same requests).
export { effectiveSort, filterParamName, filterValueUsable, MAX_PAGE_SIZE, nextSortDirection, readListParams } from '../../shared/list-request.js';
