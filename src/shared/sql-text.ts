/**
 * `text` with LIKE's own wildcards and its escape character escaped (`a_b%c\d` → `a\_b\%c\\d`), so
 * a `like` / `ilike` matches it literally.
 */
export function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, '\\$&');
}

/** `%text%` with the text matched literally: a user's `%` or `_` in a search matches itself. */
export function containsPattern(text: string): string {
  return `%${likeLiteral(text)}%`;
}

/**
 * The field a PostgreSQL unique violation (`23505`) names, from its detail
 * `Key (email)=(x) already exists.`: the first column, `lower(email)` or `lower(email::text)` read as
 * `email`; '' when the detail names none.
 */
export function uniqueViolationField(detail: unknown): string {
  const match = typeof detail === 'string' ? /Key \((.+?)\)=\(/.exec(detail) : null;
  return (
    match?.[1]
      ?.split(',')[0]
      ?.trim()
      .replace(/^lower\((.*)\)$/, '$1')
      .replace(/::\w+$/, '') ?? ''
  );
}
