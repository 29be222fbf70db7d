import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { http } from '../../../engine/index.js';
import type { EntryOptions, MyEntry, PortalForm } from '../index.js';

/** The portal's query keys, all under `['entrants']`. */
export const entrantKeys = {
  all: ['entrants'] as const,
  list: ['entrants', 'list'] as const,
  one: (id: number) => ['entrants', 'entry', id] as const,
  form: ['entrants', 'form'] as const,
  options: ['entrants', 'options'] as const,
};

export const myEntriesOptions = () =>
  queryOptions({ queryKey: entrantKeys.list, queryFn: ({ signal }) => http.get<{ data: MyEntry[] }>('/my/contests', { signal }).then((a) => a.data) });

export const myEntryOptions = (id: number) =>
  queryOptions({ queryKey: entrantKeys.one(id), queryFn: ({ signal }) => http.get<{ data: MyEntry }>(`/my/contests/${id}`, { signal }).then((a) => a.data) });

/** The portal form changes only with the descriptor: kept for the session. */
export const portalFormOptions = () =>
  queryOptions({
    queryKey: entrantKeys.form,
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: ({ signal }) => http.get<{ data: PortalForm }>('/my/contests/form', { signal }).then((a) => a.data),
  });

export const entryChoicesOptions = () =>
  queryOptions({
    queryKey: entrantKeys.options,
    queryFn: ({ signal }) => http.get<{ data: EntryOptions }>('/my/contests/options', { signal }).then((a) => a.data),
  });

/** The portal's writes. */
export const entrantsApi = {
  create: (body: Record<string, unknown>) => http.post<{ data: MyEntry }>('/my/contests', body).then((a) => a.data),
  update: (id: number, body: Record<string, unknown>) => http.put<{ data: MyEntry }>(`/my/contests/${id}`, body).then((a) => a.data),
  submit: (id: number) => http.post<{ data: MyEntry }>(`/my/contests/${id}/submit`).then((a) => a.data),
  review: (body: { ids: number[]; decision: 'approve' | 'reject'; reason?: string }) =>
    http.post<{ data: { reviewed: number; skipped: Array<{ id: number; reason: string }> } }>('/contests/review', body).then((a) => a.data),
};

export const invalidateEntries = (client: QueryClient) => client.invalidateQueries({ queryKey: entrantKeys.all });
