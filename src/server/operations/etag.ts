/**
 * The record's version as a weak ETag: its id and the millisecond of its last update. Updates
 * always move `updated_at` forward by at least a millisecond, so two versions never share one.
 */
export function etagOf(record: Record<string, unknown>): string {
  const updated = record.updated_at;
  const ms = updated instanceof Date ? updated.getTime() : typeof updated === 'string' ? Date.parse(updated) : 0;
  return `W/"${String(record.id)}-${ms}"`;
}

/** Whether an `If-Match` header (one or several ETags, or `*`) matches the record's ETag. */
export function ifMatchSatisfied(header: string, record: Record<string, unknown>): boolean {
  const current = etagOf(record);
  const strip = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || strip(tag) === strip(current));
}
