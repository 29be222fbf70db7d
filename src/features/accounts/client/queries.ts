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
};

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
  invite: (body: { name: string; email: string; role: InviteRole }) => http.post<{ data: AccountSummary }>('/accounts', body).then((answer) => answer.data),
  /** Disables, enables an account, or sends its invitation again. */
  act: (id: number, action: 'disable' | 'enable' | 'resend') =>
    http.post<{ data: AccountSummary }>(`/accounts/${id}/${action}`, {}).then((answer) => answer.data),
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
