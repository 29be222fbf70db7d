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

/** The signed-in admin as the API returns it. */
export interface AuthUser {
  id: string;
  name: string;
  email: string;
  /** `admin` or `juror` (see `roles.ts`). */
  role: string;
  /** A juror's jury record; null for admins (absent in tokens stored by older versions). */
  juryId?: number | null;
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

/** POST /api/auth/refresh. */
export interface RefreshResponse {
  accessToken: string;
  expiresIn: number;
  refreshToken: string;
}
