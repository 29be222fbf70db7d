/** The largest id the API accepts (PostgreSQL `integer`). */
const MAX_ID = 2_147_483_647;

/**
 * A record id from a route parameter: a positive whole number, else `null` (the screen then shows
 * 'Invalid category ID' without asking the server).
 */
export function parseRecordId(raw: string | undefined): number | null {
  if (!raw || !/^\d+$/.test(raw)) return null;
  const id = Number(raw);
  return id >= 1 && id <= MAX_ID ? id : null;
}
