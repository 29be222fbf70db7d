import type { ClientEntity } from '../../shared/descriptor/types.js';
import { type ListRequest, listPath, listQueryOf } from '../../shared/list-request.js';
import { buildUrl } from './http-client.js';

// How a list page is asked for lives in src/shared/list-request.ts (shared with the boot script and
// the server); this adds the URL as the HTTP client sends it (under its configured base).
export { includesOf, type ListRequest, listPath, listQueryOf, refetchesOnFocus, toListQuery, withIncludes } from '../../shared/list-request.js';

/** The whole URL of one list page (`/api/categories?page=1&per_page=15&include=...`), as the HTTP client sends it. */
export function listUrl(entity: ClientEntity, request: ListRequest): string {
  return buildUrl(listPath(entity), listQueryOf(entity, request));
}
