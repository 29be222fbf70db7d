/**
 * Which statements go to PostgreSQL as named (prepared) statements. A statement sent without a
 * name is parsed and planned again on every execution: for a list page with its includes and total
 * that is most of the database's work, planning costing more than executing. A named one is
 * parsed once per connection, and PostgreSQL plans it once for all executions when the generic
 * plan costs no more than the custom ones (its `plan_cache_mode = auto`). See docs/architecture.md,
 * "Prepared statements".
 *
 * Only `select` statements are named, once the same text has been seen {@link HOT_AFTER} times:
 * the list pages, totals, version checks and session reads every request repeats. Each connection
 * holds the statements it has executed, so their number is capped ({@link MAX_NAMED}); after that,
 * further texts go unnamed as before. Statement texts are built with the page size and a zero offset
 * written in (see `count/page-rows.ts`), so one list shape is one text whatever its filter values.
 */
export class PreparedStatements {
  readonly #named = new Map<string, string>();
  readonly #seen = new Map<string, number>();
  readonly #refused = new Set<string>();
  /** Names are never reused: a connection may still hold a refused text under its name. */
  #lastName = 0;

  constructor(
    private readonly maxNamed = MAX_NAMED,
    private readonly hotAfter = HOT_AFTER,
  ) {}

  /** The name to send `text` under, or `undefined` to send it unnamed. */
  nameOf(text: string): string | undefined {
    const named = this.#named.get(text);
    if (named !== undefined) return named;
    // A text with `;` may hold several statements, which a prepared statement cannot.
    if (this.#named.size >= this.maxNamed || !SELECT.test(text) || text.includes(';') || this.#refused.has(text)) return undefined;
    const seen = (this.#seen.get(text) ?? 0) + 1;
    if (seen < this.hotAfter) {
      // Texts seen once are forgotten in bulk, so a spread of one-off statements costs no memory.
      if (this.#seen.size >= MAX_SEEN) this.#seen.clear();
      this.#seen.set(text, seen);
      return undefined;
    }
    this.#seen.delete(text);
    const name = `ac_${++this.#lastName}`;
    this.#named.set(text, name);
    return name;
  }

  /**
   * Stops naming `text` (PostgreSQL refused to run its prepared form again: a table it reads
   * changed its columns while the server ran, SQLSTATE 0A000 'cached plan must not change result
   * type'). The caller runs it again unnamed.
   */
  refuse(text: string): void {
    this.#named.delete(text);
    this.#refused.add(text);
  }

  get size(): number {
    return this.#named.size;
  }
}

/** Most statement texts named per process (so per connection). */
export const MAX_NAMED = 200;
/** How often a text is seen before it is named: one-off statements stay unnamed. */
export const HOT_AFTER = 2;
/** Most texts remembered as seen once before the memory is cleared. */
const MAX_SEEN = 1000;
const SELECT = /^\s*(select|with)\b/i;

/** Whether `error` is PostgreSQL refusing a prepared statement whose result columns changed. */
export function isStalePreparedStatement(error: unknown): boolean {
  return (
    !!error &&
    typeof error === 'object' &&
    (error as { code?: unknown }).code === '0A000' &&
    /cached plan must not change result type/i.test(String((error as { message?: unknown }).message))
  );
}
