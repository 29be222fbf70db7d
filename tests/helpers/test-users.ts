import type { AuthUser } from '../../src/shared/api-contract.js';

/** The signed-in admin the component suites render the shell and its pages for. */
export const TEST_ADMIN: AuthUser = {
  id: '1',
  name: 'Ada Admin',
  email: 'admin@example.com',
  role: 'admin',
  avatarUrl: null,
  lastLoginTimestamp: null,
  preferences: { theme: 'light', language: 'en', notifications: true },
};
