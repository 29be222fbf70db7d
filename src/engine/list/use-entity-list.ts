import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useContext, useEffect, useMemo } from 'react';
import { UNSAFE_DataRouterContext, useLocation, useSearchParams } from 'react-router-dom';
import type { ClientEntity, SortDirection } from '../../shared/descriptor/types.js';
import type { ApiError } from '../data/api-error.js';
import { type EntityRecord, entityListOptions, type ListRequest } from '../data/entity-queries.js';
import { effectiveSort, filterValueUsable, nextSortDirection, readListParams } from './list-params.js';

const NO_ROWS: EntityRecord[] = [];

let prefetchNext = false;

/**
 * Whether a list fetches the page after the one shown once it has arrived, so 'Next' shows it
 * from the cache at once. Off unless the app turns it on (it costs a request per page shown).
 */
export function setNextPagePrefetch(enabled: boolean): void {
  prefetchNext = enabled;
}

/**
 * Starts fetching the page after `request`'s when lists fetch ahead ({@link setNextPagePrefetch})
 * and the page shown (in `client` already) has one after it. The list does it once it shows a
 * page; the app's start does it for the first list too, before that list's first render, so a
 * 'Next' just after the app has taken over finds the page there (the two are one request).
 */
export function prefetchPageAfter(client: QueryClient, entity: ClientEntity, request: ListRequest): void {
  if (!prefetchNext) return;
  const shown = client.getQueryData(entityListOptions(entity, request).queryKey);
  if (!shown || request.page >= Math.max(1, shown.meta?.last_page ?? 1)) return;
  void client.prefetchQuery(entityListOptions(entity, { ...request, page: request.page + 1 }));
}

/** What {@link useEntityList} gives a list view. */
export interface EntityListController {
  entity: ClientEntity;
  rows: EntityRecord[];
  total: number;
  page: number;
  lastPage: number;
  perPage: number;
  sort: { field: string; direction: SortDirection };
  search: string;
  filters: Record<string, string>;
  /** True until the first page arrives. */
  isLoading: boolean;
  /** True while any page (also a refresh) is loading. */
  isFetching: boolean;
  error: ApiError | null;
  setPage(page: number): void;
  /**
   * The address of page `page` of this list, as `setPage` would make it: the pagination's `data-href`,
   * which the server's first screen follows before the app has loaded (src/app/boot.ts).
   */
  pageHref(page: number): string;
  /** The address of this list sorted by `field` as `toggleSort` would sort it (see {@link pageHref}). */
  sortHref(field: string): string;
  setPerPage(perPage: number): void;
  /** Sorts by `field`: ascending first, flipping on the next call. Only allowed sorts take effect. */
  toggleSort(field: string): void;
  setSearch(search: string): void;
  setFilter(param: string, value: string): void;
  /**
   * Applies a set of filter values at once (blank or unusable ones removed) and, when given, a
   * sort; back to page 1. A sort equal to the default leaves the URL without one.
   */
  applyFilters(values: Record<string, string>, sort?: { field: string; direction: SortDirection }): void;
  /** Clears every filter, the search, the sort and the page size: page 1 with the defaults. */
  resetFilters(): void;
  /** Whether a filter or a search is applied (the empty state then offers 'Clear all filters'). */
  hasFilters: boolean;
  refetch(): void;
}

/** The list's query after `changes` (a blank value removes its parameter); any change but the page returns to page 1. */
function changedQuery(current: URLSearchParams, changes: Record<string, string | number | undefined>, keepPage: boolean): URLSearchParams {
  const next = new URLSearchParams(current);
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined || value === '') next.delete(key);
    else next.set(key, String(value));
  }
  if (!keepPage) next.delete('page');
  if (next.get('page') === '1') next.delete('page');
  return next;
}

/**
 * The headless list controller (ra-core's `useListController`): state lives in the URL query
 * (`page`, the descriptor's size parameter, `sort`, `direction`, `search`, filters), so the back
 * button, reloads and shared links keep the page; any change but the page returns to page 1.
 */
export function useEntityList(entity: ClientEntity): EntityListController {
  const [query, setQuery] = useSearchParams();
  const request: ListRequest = useMemo(() => readListParams(entity, query), [entity, query]);
  const result = useQuery(entityListOptions(entity, request));
  const meta = result.data?.meta;
  const lastPage = Math.max(1, meta?.last_page ?? 1);

  // A list lives inside descendant <Routes> (entity-routes.tsx), where React Router's setSearchParams
  // goes through its navigator, which drops `flushSync`: the page then rendered as a transition,
  // sliced across frames. Asked of the data router itself, the update renders in the click's task.
  const dataRouter = useContext(UNSAFE_DataRouterContext)?.router;
  const update = useCallback(
    (changes: Record<string, string | number | undefined>, keepPage = false, flushSync = false) => {
      if (flushSync && dataRouter) {
        const current = new URLSearchParams(dataRouter.state.location.search);
        void dataRouter.navigate(`?${changedQuery(current, changes, keepPage)}`, { flushSync: true });
        return;
      }
      setQuery((current) => changedQuery(current, changes, keepPage), { replace: false, flushSync });
    },
    [setQuery, dataRouter],
  );
  const { pathname } = useLocation();
  const href = (changes: Record<string, string | number | undefined>, keepPage = false) => {
    const next = changedQuery(query, changes, keepPage).toString();
    return next ? `${pathname}?${next}` : pathname;
  };

  // A page beyond the last (after deleting the last row of the last page) moves to the last page.
  const serverLast = meta?.last_page;
  useEffect(() => {
    if (serverLast !== undefined && !result.isPlaceholderData && request.page > Math.max(1, serverLast)) {
      update({ page: Math.max(1, serverLast) }, true);
    }
  }, [serverLast, request.page, result.isPlaceholderData, update]);

  // The next page is where a user most often goes from a list: fetched once this page has
  // arrived, so 'Next' shows it from the cache at once (and the server's list cache has it too).
  const queryClient = useQueryClient();
  const shownPage = meta?.current_page;
  const hasNext = prefetchNext && !result.isPlaceholderData && shownPage === request.page && request.page < lastPage;
  useEffect(() => {
    if (hasNext) prefetchPageAfter(queryClient, entity, request);
  }, [hasNext, queryClient, entity, request]);

  const sort = effectiveSort(entity, request);
  return {
    entity,
    rows: result.data?.data ?? NO_ROWS,
    total: meta?.total ?? 0,
    // While the next page loads the previous rows stay on screen: the range must describe them.
    page: result.isPlaceholderData && meta ? meta.current_page : request.page,
    lastPage,
    perPage: meta?.per_page ?? request.perPage ?? entity.list.pageSize,
    sort,
    search: request.search ?? '',
    filters: request.filters,
    isLoading: result.isPending,
    isFetching: result.isFetching,
    error: result.error,
    // A page the list has fetched ahead renders at once, in the click's own task, rather than as
    // a transition the scheduler slices across frames.
    setPage: (page) =>
      update(
        { page: Math.max(1, Math.floor(page)) },
        true,
        queryClient.getQueryData(entityListOptions(entity, { ...request, page: Math.max(1, Math.floor(page)) }).queryKey) !== undefined,
      ),
    pageHref: (page) => href({ page: Math.max(1, Math.floor(page)) }, true),
    sortHref: (field) => href({ sort: field, direction: nextSortDirection(sort, field) }),
    setPerPage: (perPage) => entity.list.pageSizeParam && update({ [entity.list.pageSizeParam]: perPage }),
    toggleSort: (field) => {
      if (!entity.list.sorts.includes(field)) return;
      update({ sort: field, direction: nextSortDirection(sort, field) });
    },
    setSearch: (search) => update({ search: search.trim() || undefined }),
    setFilter: (param, value) => update({ [param]: value || undefined }),
    applyFilters: (values, nextSort) => {
      const changes: Record<string, string | undefined> = {};
      for (const filter of entity.list.filters) {
        const value = values[filter.param]?.trim();
        changes[filter.param] = value && filterValueUsable(entity, filter, value) ? value : undefined;
      }
      if (nextSort) {
        const isDefault = nextSort.field === entity.list.defaultSort.field && nextSort.direction === entity.list.defaultSort.direction;
        changes.sort = isDefault ? undefined : nextSort.field;
        changes.direction = isDefault ? undefined : nextSort.direction;
      }
      update(changes);
    },
    resetFilters: () => {
      const changes: Record<string, undefined> = { sort: undefined, direction: undefined, search: undefined };
      for (const filter of entity.list.filters) changes[filter.param] = undefined;
      if (entity.list.pageSizeParam) changes[entity.list.pageSizeParam] = undefined;
      update(changes);
    },
    hasFilters: Object.keys(request.filters).length > 0 || Boolean(request.search),
    refetch: () => void result.refetch(),
  };
}
