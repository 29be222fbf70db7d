import { http } from '../../engine/data/http-client.js';
import type { AuthUser, LoginAnswer, LoginResponse, RefreshResponse, TwoFactorEnrolment } from '../../shared/api-contract.js';

/** The profile fields an admin may change (PUT /api/auth/me). */
export interface ProfileUpdate {
  name?: string;
  avatarUrl?: string | null;
  email?: string;
  currentPassword?: string;
  preferences?: Partial<AuthUser['preferences']>;
}

/** The auth endpoints of the contract, through the one network door. */
export const authApi = {
  /** A 401 here means wrong credentials, not an ended session: it is not handed to the 401 handler. */
  login(email: string, password: string): Promise<LoginAnswer> {
    return http.post<LoginAnswer>('/login', { email, password }, { handleUnauthorized: false });
  },
  /** The second step of a sign-in: a TOTP or recovery code with the challenge token. */
  loginTwoFactor(challengeToken: string, code: string): Promise<LoginResponse> {
    return http.post<LoginResponse>('/auth/login/2fa', { challengeToken, code }, { handleUnauthorized: false });
  },
  async loginEnrolSetup(challengeToken: string): Promise<TwoFactorEnrolment> {
    return (await http.post<{ data: TwoFactorEnrolment }>('/auth/login/2fa/setup', { challengeToken }, { handleUnauthorized: false })).data;
  },
  loginEnrolConfirm(challengeToken: string, code: string): Promise<LoginResponse & { recoveryCodes: string[] }> {
    return http.post<LoginResponse & { recoveryCodes: string[] }>('/auth/login/2fa/enable', { challengeToken, code }, { handleUnauthorized: false });
  },
  refresh(refreshToken: string): Promise<RefreshResponse> {
    return http.post<RefreshResponse>('/auth/refresh', { refreshToken }, { handleUnauthorized: false });
  },
  /** Ends the session on the server; the refresh token lets it do so even after the access token expired. */
  logout(refreshToken?: string): Promise<void> {
    return http.post<void>('/logout', refreshToken ? { refreshToken } : {}, { handleUnauthorized: false });
  },
  async me(): Promise<AuthUser> {
    return (await http.get<{ data: AuthUser }>('/auth/me')).data;
  },
  async updateMe(update: ProfileUpdate): Promise<AuthUser> {
    return (await http.put<{ data: AuthUser }>('/auth/me', update)).data;
  },
  changePassword(currentPassword: string, newPassword: string): Promise<void> {
    return http.post<void>('/auth/change-password', { currentPassword, newPassword });
  },
  /** Validates a token that is not stored yet (the token callback), with its own headers. */
  async check(token: string): Promise<AuthUser> {
    const headers = { authorization: `Bearer ${token}`, 'x-access-token': token };
    return (await http.get<{ data: AuthUser }>('/auth/check', { headers, handleUnauthorized: false })).data;
  },
};
