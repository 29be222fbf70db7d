/** One choice of a searchable select: its value, its label and an optional description. */
export interface SelectOption {
  value: string | number;
  label: string;
  description?: string | undefined;
}

/** True when two option values are the same choice (ids may arrive as numbers or strings). */
export function sameValue(a: unknown, b: unknown): boolean {
  return a !== undefined && a !== null && b !== undefined && b !== null && String(a) === String(b);
}

/** Local search: options whose label, description or value contains `search`, ignoring case. */
export function filterOptions(options: readonly SelectOption[], search: string): SelectOption[] {
  const needle = search.trim().toLocaleLowerCase();
  if (!needle) return [...options];
  return options.filter((option) => [option.label, option.description ?? '', String(option.value)].some((text) => text.toLocaleLowerCase().includes(needle)));
}
