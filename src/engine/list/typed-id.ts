/** Longest typed ID accepted: a PostgreSQL `integer` has at most 10 digits. */
export const MAX_TYPED_ID_LENGTH = 10;
/** Largest ID a record can have (PostgreSQL `integer`). */
export const MAX_TYPED_ID = 2_147_483_647;

/** Why a typed ID is refused; each has its message among the filter texts of the locale files. */
export type TypedIdProblem = 'tooLong' | 'notDigits' | 'notPositive' | 'tooLarge';

/**
 * Checks an ID typed in a reference filter (an ID is used only if it is a positive integer):
 * its length first, then its form. Empty text is no filter. Gives the ID as the URL carries it.
 */
export function checkTypedId(text: string): { value: string } | { problem: TypedIdProblem } {
  const trimmed = text.trim();
  if (trimmed === '') return { value: '' };
  if (trimmed.length > MAX_TYPED_ID_LENGTH) return { problem: 'tooLong' };
  if (/^[-−]\d+$/.test(trimmed) || /^[+-]?0+$/.test(trimmed)) return { problem: 'notPositive' };
  if (!/^\d+$/.test(trimmed)) return { problem: 'notDigits' };
  const id = Number(trimmed);
  if (id > MAX_TYPED_ID) return { problem: 'tooLarge' };
  return { value: String(id) };
}
