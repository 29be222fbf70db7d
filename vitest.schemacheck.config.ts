// TEMPORARY (helper verification, not to commit).
import { defineConfig } from 'vitest/config';
export default defineConfig({
  test: {
    projects: [{ test: { name: 'api', include: ['tests/api/**/*.test.ts'], environment: 'node', setupFiles: ['tests/helpers/register-server.ts', 'tests/helpers/_schema-check.ts'], testTimeout: 60_000, hookTimeout: 120_000, maxWorkers: 2 } }],
  },
});
