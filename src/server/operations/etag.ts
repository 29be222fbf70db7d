import { ifMatchNames, versionTag } from '../../shared/record-version.js';

/** The record's version as a weak ETag (the shared format, `W/"<id>-<updated_at in ms>"`). */
export function etagOf(record: Record<string, unknown>): string {
  return versionTag(record) ?? `W/"${String(record.id)}-0"`;
}

/** Whether an `If-Match` header (one or several ETags, or `*`) matches the record's ETag. */
export function ifMatchSatisfied(header: string, record: Record<string, unknown>): boolean {
  return ifMatchNames(header, etagOf(record));
}
