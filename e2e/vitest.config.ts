import { defineConfig } from 'vitest/config';
import { slowFirst } from '../scripts/slow-first.ts';

// Browser tests: the real server (built web app, embedded PostgreSQL, demo data) driven in the system
// Chromium. Two files at a time: each starts its own server and browser, on a copy of the run's one demo
// database (e2e/global-setup.ts, ADR 058); much of a file's time is waiting on its server and browser, so a
// second file uses it (on two cores: 456 s instead of 640 s for the whole suite, ADR 066).
export default defineConfig({
  test: {
    include: ['e2e/**/*.spec.ts'],
    globalSetup: ['e2e/global-setup.ts'],
    setupFiles: ['e2e/setup.ts'],
    fileParallelism: true,
    maxWorkers: 2,
    // A worker keeps the harness (Playwright, pg) loaded from one file to the next instead of importing it
    // again for each (about 1.8 s a file). The files share no state through it: each starts and stops its
    // own platform and browser, and nothing in e2e/ replaces a module or the clock.
    isolate: false,
    // A browser on a shared two-core machine can miss a beat; a real failure fails twice.
    retry: 1,
    // The longest files first, wherever their size would put them (ADR 112).
    sequence: {
      sequencer: slowFirst(['e2e/navigation.spec.ts', 'e2e/agency.spec.ts', 'e2e/inbox-reach.spec.ts']),
    },
    // `expect.poll` waits for a state: up to 5 s, not vitest's 1 s, which a screen's refetch on a busy
    // machine can outlast (a task deleted, its list and badge answered 1.2 s later, seen in CI).
    expect: { poll: { timeout: 5_000, interval: 50 } },
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
