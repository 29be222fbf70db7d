/**
 * A record's version as a weak ETag, the one format the server sends (`ETag`) and the browser
 * sends back (`If-Match`): `W/"<id>-<updated_at in ms>"`. Updates always move `updated_at` forward
 * by at least a millisecond, so two versions never share one. `undefined` without an id or a
 * readable `updated_at`.
 *
 * @example versionTag({ id: 7, updated_at: '2025-01-02T03:04:05.006Z' }) // 'W/"7-1735787045006"'
 */
export function versionTag(record: Record<string, unknown>): string | undefined {
  const updated = record.updated_at;
  const ms = updated instanceof Date ? updated.getTime() : typeof updated === 'string' || typeof updated === 'number' ? new Date(updated).getTime() : NaN;
  if (!Number.isFinite(ms) || record.id === undefined || record.id === null) return undefined;
  return `W/"${String(record.id)}-${ms}"`;
}

/** Whether an `If-Match` header (one or several ETags, or `*`) names the version `current`. */
export function ifMatchNames(header: string, current: string | undefined): boolean {
  const strip = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || (current !== undefined && strip(tag) === strip(current)));
}
