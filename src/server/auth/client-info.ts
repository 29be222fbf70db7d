/** Where a request came from, for throttling, sessions and the audit log. */
export interface ClientInfo {
  ip: string;
  userAgent: string | null;
  /** The browser's device cookie (`Lockout`), when it sent one. */
  deviceCookie?: string;
}
