/** The stable error codes of the API; the client switches on these, never on message text. */
export const ERROR_CODES = [
  'VALIDATION',
  'BAD_REQUEST',
  'NOT_FOUND',
  'CONFLICT',
  'UNAUTHENTICATED',
  'SESSION_REPLACED',
  'FORBIDDEN',
  'RATE_LIMITED',
  'UNAVAILABLE',
  'INTERNAL',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** One field's problem: `path` is dotted (`name`, `links.0.url`), `messageKey` an i18n key. */
export interface FieldError {
  path: string;
  keyword: string;
  messageKey: string;
  params: Record<string, unknown>;
}

/** Every error response has this shape; `message` is English, for logs and API users. */
export interface ApiErrorBody {
  statusCode: number;
  code: ErrorCode;
  message: string;
  errors?: FieldError[];
}

/** Paged list responses. */
export interface PageMeta {
  current_page: number;
  last_page: number;
  total: number;
  per_page: number;
}

export interface PageLinks {
  first: string;
  last: string;
  prev: string | null;
  next: string | null;
}

export interface ListResponse<T> {
  data: T[];
  meta: PageMeta;
  links: PageLinks;
}

/**
 * The signed-in account as the API returns it. Each role link declared (`roles.ts`) adds its
 * `userField`: the linked record's id, null when the account has none (absent in sessions stored by
 * older versions).
 */
export interface AuthUser {
  id: string;
  name: string;
  email: string;
  /** A registered role's name (see `roles.ts`). */
  role: string;
  /** Whether two-factor sign-in is on. */
  twoFactor?: boolean;
  avatarUrl: string | null;
  lastLoginTimestamp: string | null;
  preferences: { theme: 'light' | 'dark'; language: 'en' | 'id' | 'ms'; notifications: boolean };
}

/** POST /api/login and /api/auth/login. */
export interface LoginResponse {
  token: string;
  expiresIn: number;
  refreshToken: string;
  data: AuthUser;
}

/**
 * POST /api/login when the password was right but a second step is due: `verify` (enter a TOTP or
 * recovery code at /api/auth/login/2fa) or `enrol` (set two-factor up first, REQUIRE_2FA_FOR_ADMINS).
 * The challenge token only carries the sign-in to that step; it is no access token.
 */
export interface TwoFactorChallenge {
  twoFactor: 'verify' | 'enrol';
  challengeToken: string;
  expiresIn: number;
}

/** What POST /api/login answers. */
export type LoginAnswer = LoginResponse | TwoFactorChallenge;

/** Setting two-factor up: the secret, its otpauth:// URI and that URI as a QR code (an SVG data URI). */
export interface TwoFactorEnrolment {
  secret: string;
  otpauthUrl: string;
  qrCode: string;
}

/**
 * GET /api/accounts: one account as the accounts screen lists it. Each role link declared
 * (`roles.ts`) adds its `column`: the linked record's id, null when none.
 */
export interface AccountSummary {
  id: number;
  name: string;
  email: string;
  role: string;
  /** `invited` until the account sets its password; `disabled` while disabled. */
  status: 'active' | 'invited' | 'disabled';
  last_login_at: string | null;
  two_factor: boolean;
  invited_at: string | null;
  disabled_at: string | null;
  created_at: string;
}

/** GET /api/accounts/{id}/sessions: one sign-in and how its session ended. */
export interface SignInRecord {
  started_at: string;
  ip: string | null;
  user_agent: string | null;
  /** `active`, `expired`, or why it was ended: logout, replaced, reuse, password_changed, password_reset, disabled, role_changed. */
  ended: string;
  ended_at: string | null;
}

/** POST /api/auth/refresh. */
export interface RefreshResponse {
  accessToken: string;
  expiresIn: number;
  refreshToken: string;
}
