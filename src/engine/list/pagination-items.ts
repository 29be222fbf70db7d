/** One slot of a pagination bar: a page number or an ellipsis standing for hidden pages. */
export type PageItem = { kind: 'page'; page: number } | { kind: 'ellipsis'; key: 'start' | 'end' };

/** The most page numbers a pagination bar shows. */
export const MAX_PAGE_NUMBERS = 5;

/**
 * The page numbers and ellipses to show for `current` of `last` pages: every page when there are at
 * most five, otherwise the first and last page, the current one and its neighbours, and an ellipsis
 * wherever pages are hidden, never more than five numbers.
 *
 * @example pageItems(1, 10)  // 1 2 3 4 … 10
 * @example pageItems(5, 10)  // 1 … 4 5 6 … 10
 * @example pageItems(10, 10) // 1 … 7 8 9 10
 */
export function pageItems(current: number, last: number): PageItem[] {
  const total = Math.max(0, Math.floor(last));
  if (total === 0) return [];
  const page = Math.min(Math.max(1, Math.floor(current) || 1), total);
  const numbers = (from: number, to: number): PageItem[] => Array.from({ length: to - from + 1 }, (_, i) => ({ kind: 'page', page: from + i }));

  if (total <= MAX_PAGE_NUMBERS) return numbers(1, total);
  const first: PageItem = { kind: 'page', page: 1 };
  const lastItem: PageItem = { kind: 'page', page: total };
  if (page <= 3) return [...numbers(1, 4), { kind: 'ellipsis', key: 'end' }, lastItem];
  if (page >= total - 2) return [first, { kind: 'ellipsis', key: 'start' }, ...numbers(total - 3, total)];
  return [first, { kind: 'ellipsis', key: 'start' }, ...numbers(page - 1, page + 1), { kind: 'ellipsis', key: 'end' }, lastItem];
}

/** The 1-based range of records a page shows, for 'Showing X to Y of N'; X is 0 when there are none. */
export function pageRange(page: number, perPage: number, total: number): { from: number; to: number } {
  if (total <= 0 || perPage <= 0) return { from: 0, to: 0 };
  const from = Math.min((Math.max(1, page) - 1) * perPage + 1, total);
  return { from, to: Math.min(from + perPage - 1, total) };
}
