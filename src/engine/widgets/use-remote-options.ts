import { useCallback, useEffect, useRef, useState } from 'react';
import type { SelectOption } from './select-option.js';

/** What a remote source answers for one page of a search. */
export interface LoadOptionsResult {
  options: SelectOption[];
  /** True when another page exists after this one. */
  hasMore?: boolean;
}

/**
 * Loads one page (1-based) of options matching `search`; must honour `signal` so a stale request
 * is cancelled when the user types on.
 */
export type LoadOptions = (search: string, signal: AbortSignal, page: number) => Promise<LoadOptionsResult>;

/** Delay between the last keystroke and the search request. */
export const SEARCH_DEBOUNCE_MS = 250;

/** State and actions of {@link useRemoteOptions}. */
export interface RemoteOptionsState {
  options: SelectOption[];
  loading: boolean;
  error: boolean;
  hasMore: boolean;
  loadMore: () => void;
  retry: () => void;
}

/**
 * Server-side search for a select: while `active`, loads page 1 for `search` (at once when the
 * list opens, then 250 ms after the last keystroke), aborts the previous request whenever a new
 * one starts or the list closes, and appends further pages on `loadMore`. Never loads the whole
 * table: only the pages the user scrolls to.
 */
export function useRemoteOptions(loadOptions: LoadOptions | undefined, search: string, active: boolean): RemoteOptionsState {
  const [options, setOptions] = useState<SelectOption[]>([]);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState(false);
  const [hasMore, setHasMore] = useState(false);
  const [page, setPage] = useState(1);
  const [attempt, setAttempt] = useState(0);
  const controllerRef = useRef<AbortController | null>(null);
  const firstLoadRef = useRef(true);
  // Held in a ref so that a caller passing a new function each render does not restart the search.
  const loadRef = useRef(loadOptions);
  loadRef.current = loadOptions;
  const remote = loadOptions !== undefined;

  useEffect(() => {
    if (!active) firstLoadRef.current = true;
  }, [active]);

  // Page 1 of a (new) search; immediate when the list has just opened, debounced while typing.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new search or a retry (`attempt`) is the trigger; fetchPage is made again on each render (it reads `search`, and the loader through a ref)
  useEffect(() => {
    if (!active || !remote) return undefined;
    const delay = firstLoadRef.current ? 0 : SEARCH_DEBOUNCE_MS;
    firstLoadRef.current = false;
    setLoading(true);
    const timer = setTimeout(() => fetchPage(1, false), delay);
    return () => {
      clearTimeout(timer);
      controllerRef.current?.abort();
    };
  }, [active, search, attempt, remote]);

  const fetchPage = (target: number, append: boolean) => {
    const load = loadRef.current;
    if (!load) return;
    controllerRef.current?.abort();
    const controller = new AbortController();
    controllerRef.current = controller;
    setLoading(true);
    setError(false);
    load(search.trim(), controller.signal, target).then(
      (result) => {
        if (controller.signal.aborted) return;
        setOptions((previous) => (append ? [...previous, ...result.options] : result.options));
        setHasMore(result.hasMore === true);
        setPage(target);
        setLoading(false);
      },
      () => {
        if (controller.signal.aborted) return;
        setError(true);
        setLoading(false);
      },
    );
  };

  const loadMore = () => {
    if (!loading && hasMore) fetchPage(page + 1, true);
  };

  const retry = useCallback(() => setAttempt((n) => n + 1), []);

  return { options, loading, error, hasMore, loadMore, retry };
}
