import { QueryClient } from '@tanstack/react-query';
import { ApiError } from '../engine/data/api-error.js';
import { tokenStore } from './auth/session.js';

/** At most 3 retries, never for a 4xx answer (retrying cannot change it). */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.isClientError) return false;
  return failureCount < 3;
}

/** The backoff between retries: min(1000 · 2^n, 30000) ms. */
export function retryDelay(attempt: number): number {
  return Math.min(1000 * 2 ** attempt, 30_000);
}

/** The app's query client: the spec's retry policy and a 5-minute cache. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, retryDelay, staleTime: 5 * 60_000, gcTime: 5 * 60_000 },
      mutations: { retry: false },
    },
  });
}

let shared: QueryClient | null = null;

/**
 * The app's one query client, created on first use (inside the authenticated layout, so the
 * sign-in page does not load TanStack Query). Its cache is dropped whenever the session ends.
 */
export function getQueryClient(): QueryClient {
  if (!shared) {
    const client = createQueryClient();
    tokenStore.subscribe((event) => {
      if (event.type === 'cleared') client.clear();
    });
    shared = client;
  }
  return shared;
}
