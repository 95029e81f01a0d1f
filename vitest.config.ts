import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'apps/server/src/**/*.test.ts',
      'apps/server/test/**/*.test.ts',
      'packages/*/src/**/*.test.ts',
      'apps/web/src/**/*.test.ts',
      'apps/widget/src/**/*.test.ts',
      // The fixture suites under scripts/fixtures/ run only inside this test of npm test itself.
      'scripts/*.test.ts',
    ],
    globalSetup: ['apps/server/test/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
