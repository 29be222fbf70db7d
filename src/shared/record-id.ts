/** The largest id a record may have (PostgreSQL `integer`). */
export const MAX_RECORD_ID = 2_147_483_647;

/**
 * A record id from a path or a route parameter: a positive whole number within the column's range,
 * written plainly (`7`, not `07`, `7.0`, `+7` or ` 7`), else `null`. The server answers 400
 * 'Invalid <entity> ID' for `null`; the browser shows that text without asking.
 */
export function parseRecordId(raw: unknown): number | null {
  const text = typeof raw === 'number' ? String(raw) : raw;
  if (typeof text !== 'string' || !/^[1-9]\d{0,9}$/.test(text)) return null;
  const id = Number(text);
  return id <= MAX_RECORD_ID ? id : null;
}
