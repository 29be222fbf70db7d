import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router-dom';
import type { ClientEntity } from '../../shared/descriptor/types.js';
import { parseRecordId } from '../../shared/record-id.js';
import type { ApiError } from './api-error.js';
import { type EntityRecord, entityRecordOptions } from './entity-queries.js';

/** Where loading the route's record stands: a bad id (never asked for), loading, absent, failed, or here. */
export type RecordStatus = 'invalid-id' | 'loading' | 'not-found' | 'error' | 'ready';

/** What {@link useRecordQuery} gives: the route's id and record and where loading them stands. */
export interface RecordQuery {
  /** The route's `:id`, `null` when it is not a record id ('07', 'abc', 0). */
  id: number | null;
  status: RecordStatus;
  /** The loaded record (also while a background refresh failed: then `status` is `error`). */
  record: EntityRecord | undefined;
  /** The load's failure, for `error` and `not-found`. */
  error: ApiError | null;
  /** Loads the record again; resolves with it (undefined when that failed). */
  refetch(): Promise<EntityRecord | undefined>;
}

/**
 * The record of the route's `:id`, for the detail and edit controllers: a malformed id is never
 * sent (the server would refuse '07' too, see `parseRecordId`), a 404 is `not-found`, any other
 * failure `error`.
 */
export function useRecordQuery(entity: ClientEntity): RecordQuery {
  const id = parseRecordId(useParams().id);
  const query = useQuery({ ...entityRecordOptions(entity, id ?? 0), enabled: id !== null });
  let status: RecordStatus;
  if (id === null) status = 'invalid-id';
  else if (query.isPending) status = 'loading';
  else if (query.error?.status === 404) status = 'not-found';
  else if (query.error || !query.data) status = 'error';
  else status = 'ready';
  return { id, status, record: query.data, error: query.error, refetch: async () => (await query.refetch()).data };
}
