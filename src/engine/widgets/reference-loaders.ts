import type { ListResponse } from '../../shared/api-contract.js';
import type { ClientEntity } from '../../shared/descriptor/types.js';
import { http } from '../data/http-client.js';
import type { LoadOptions, SelectOption } from './searchable-select.js';

/** Rows fetched per page of a reference search (the API allows up to 100). */
export const REFERENCE_PAGE_SIZE = 20;

type Row = Record<string, unknown>;

/**
 * Option loaders for records of `entity` (a reference field's select, a reference filter): pages of
 * its list endpoint searched on the server (`search`, never the whole table), and one record by id
 * for a value already chosen. `toOption` turns a record into what the select shows.
 */
export function referenceLoaders(entity: ClientEntity, toOption: (row: Row) => SelectOption) {
  const loadOptions: LoadOptions = async (search, signal, page) => {
    const body = await http.get<ListResponse<Row>>(`/${entity.endpoint}`, { query: { search, page, per_page: REFERENCE_PAGE_SIZE }, signal });
    return { options: body.data.map(toOption), hasMore: body.meta.current_page < body.meta.last_page };
  };
  const resolveOption = async (value: string | number, signal: AbortSignal) => {
    const body = await http.get<{ data: Row }>(`/${entity.endpoint}/${encodeURIComponent(String(value))}`, { signal });
    return toOption(body.data);
  };
  return { loadOptions, resolveOption };
}
