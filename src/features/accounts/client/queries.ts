import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { http } from '../../../engine/index.js';
import type { AccountSummary, SignInRecord, TwoFactorEnrolment } from '../../../shared/api-contract.js';

/** The roles an admin may invite an account with (declared by this feature). */
export type InviteRole = 'admin' | 'juror';

/** A caller's two-factor sign-in: whether it is on, and how many recovery codes are left. */
export interface TwoFactorStatus {
  enabled: boolean;
  recoveryCodesLeft: number;
}

/** Accounts' query keys, every one under `['accounts']`. */
const keys = {
  all: ['accounts'] as const,
  list: ['accounts', 'list'] as const,
  signIns: (id: number) => ['accounts', 'sign-ins', id] as const,
  twoFactor: ['accounts', 'two-factor'] as const,
  candidates: (role: string) => ['accounts', 'link-candidates', role] as const,
  record: (endpoint: string, id: number) => ['accounts', 'record', endpoint, id] as const,
  records: (endpoint: string) => ['accounts', 'records', endpoint] as const,
};

/** A record's portal account (`GET /api/<endpoint>/:id/account`). */
export interface RecordAccount {
  record_id: number;
  state: 'none' | 'invited' | 'active' | 'disabled';
  account_id: number | null;
  email: string | null;
  invited_at: string | null;
  last_login_at: string | null;
}

/** Why a record of a bulk invitation was skipped. */
export type SkipReason = 'not_found' | 'active' | 'invited' | 'disabled' | 'email_taken' | 'no_email';

/** A bulk invitation's answer. */
export interface BulkInviteResult {
  invited: number;
  skipped: Array<{ id: number; name: string | null; reason: SkipReason }>;
}

/** The records an account of `role` may be linked to that no account stands for yet. */
export const linkCandidatesOptions = (role: string) =>
  queryOptions({
    queryKey: keys.candidates(role),
    queryFn: ({ signal }) =>
      http
        .get<{ data: Array<{ id: number; name: string; email: string | null }> }>('/accounts/link-candidates', { signal, query: { role } })
        .then((answer) => answer.data),
  });

/** A record with its portal account's state (`GET /api/<endpoint>/accounts`). */
export interface RecordState {
  id: number;
  name: string;
  email: string | null;
  state: RecordAccount['state'];
}

/** Every record of the entity at `endpoint` with its portal account's state. */
export const recordStatesOptions = (endpoint: string) =>
  queryOptions({
    queryKey: keys.records(endpoint),
    queryFn: ({ signal }) => http.get<{ data: RecordState[] }>(`/${endpoint}/accounts`, { signal }).then((answer) => answer.data),
  });

/** The portal account of one record of the entity at `endpoint` (a juror's). */
export const recordAccountOptions = (endpoint: string, id: number) =>
  queryOptions({
    queryKey: keys.record(endpoint, id),
    queryFn: ({ signal }) => http.get<{ data: RecordAccount }>(`/${endpoint}/${id}/account`, { signal }).then((answer) => answer.data),
  });

/** Every admin and juror account (`GET /api/accounts`). */
export const accountsOptions = () =>
  queryOptions({ queryKey: keys.list, queryFn: ({ signal }) => http.get<{ data: AccountSummary[] }>('/accounts', { signal }).then((answer) => answer.data) });

/** One account's sign-ins. */
export const signInsOptions = (id: number) =>
  queryOptions({
    queryKey: keys.signIns(id),
    queryFn: ({ signal }) => http.get<{ data: SignInRecord[] }>(`/accounts/${id}/sessions`, { signal }).then((answer) => answer.data),
  });

/** The signed-in user's two-factor sign-in (`GET /api/auth/2fa`). */
export const twoFactorStatusOptions = () =>
  queryOptions({
    queryKey: keys.twoFactor,
    queryFn: ({ signal }) => http.get<{ data: TwoFactorStatus }>('/auth/2fa', { signal }).then((answer) => answer.data),
  });

/** Accounts' writes. */
export const accountsApi = {
  /** Invites an account; the server mails the set-password link. */
  invite: (body: { name: string; email: string; role: InviteRole; jury_id?: number | null }) =>
    http.post<{ data: AccountSummary }>('/accounts', body).then((answer) => answer.data),
  /** Invites a record to the portal (its account created and linked), or sends its pending invitation again. */
  inviteRecord: (endpoint: string, id: number) =>
    http.post<{ data: { outcome: 'invited' | 'linked' | 'resent'; account: RecordAccount } }>(`/${endpoint}/${id}/account`, {}).then((answer) => answer.data),
  /** Invites many records at once; answers how many were invited and which were skipped. */
  inviteRecords: (endpoint: string, ids: number[]) => http.post<{ data: BulkInviteResult }>(`/${endpoint}/accounts`, { ids }).then((answer) => answer.data),
  /** Disables, enables an account, sends its invitation again, or resets its two-factor. */
  act: (id: number, action: AccountAction) => http.post<{ data: AccountSummary }>(`/accounts/${id}/${action}`, {}).then((answer) => answer.data),
  /** Starts turning two-factor on: the secret and its QR code. */
  twoFactorSetup: () => http.post<{ data: TwoFactorEnrolment }>('/auth/2fa/setup', {}).then((answer) => answer.data),
  /** Turns two-factor on with a first code; answers the recovery codes (shown once). */
  twoFactorEnable: (code: string) => http.post<{ data: { recoveryCodes: string[] } }>('/auth/2fa/enable', { code }).then((answer) => answer.data.recoveryCodes),
  /** Turns two-factor off (password and a code). */
  twoFactorDisable: (password: string, code: string) => http.post<void>('/auth/2fa/disable', { password, code }),
};

/** Refreshes the accounts list, sign-ins and two-factor state. */
export function invalidateAccounts(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ queryKey: keys.all });
}

/** Refreshes the signed-in user's two-factor state. */
export function invalidateTwoFactor(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ queryKey: keys.twoFactor });
}

/** What the accounts screen's row buttons do (`POST /accounts/{id}/{action}`). */
export type AccountAction = 'disable' | 'enable' | 'resend' | 'reset-two-factor';
