import { defineConfig } from 'vitest/config';
import { slowFirst } from './scripts/slow-first.ts';

/**
 * Server test files that replace a module (`vi.mock`) or the clock for the whole file: they run isolated,
 * since a module replaced in one file would stay replaced for the files after it in the same worker.
 */
const ISOLATED_SERVER = ['apps/server/src/modules/profile/password-hash.test.ts'];

export default defineConfig({
  test: {
    globalSetup: ['apps/server/test/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 2,
    // A hang's limit, not a measure: on a slow day of the shared two-core machine (the whole suite at 1,637 s,
    // twice the usual) tests that start databases and processes took 29 s of a 30 s limit, and one failed.
    testTimeout: 90_000,
    hookTimeout: 120_000,
    // The longest files first, wherever their size would put them (ADR 112).
    sequence: {
      sequencer: slowFirst([
        'apps/server/test/import-crash.test.ts',
        'apps/server/src/modules/broadcasts/crash.test.ts',
        'apps/server/src/modules/chats/inbound-media.test.ts',
        'apps/server/test/cli.test.ts',
        'apps/server/src/modules/telephony/reconcile.test.ts',
        'apps/server/src/modules/automations/restart.test.ts',
        'apps/server/test/capabilities.test.ts',
        'apps/server/test/start.test.ts',
      ]),
    },
    projects: [
      {
        // The API files import the whole app (about a second and a half of module loading each): a worker
        // loads it once and runs file after file on it (ADR 058). Each file still builds its own app on its
        // own database; module-level state of the server is keyed by that app's deps, never global.
        extends: true,
        test: {
          name: 'server',
          include: ['apps/server/src/**/*.test.ts', 'apps/server/test/**/*.test.ts'],
          exclude: ISOLATED_SERVER,
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'isolated',
          include: [
            ...ISOLATED_SERVER,
            'packages/*/src/**/*.test.ts',
            'apps/web/src/**/*.test.ts',
            'apps/widget/src/**/*.test.ts',
            // The fixture suites under scripts/fixtures/ run only inside this test of npm test itself.
            'scripts/*.test.ts',
          ],
        },
      },
    ],
  },
});
