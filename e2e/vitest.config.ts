import { defineConfig } from 'vitest/config';

// Browser tests: the real server (built web app, embedded PostgreSQL, demo data) driven in the system
// Chromium. One file at a time: each starts its own server and browser.
export default defineConfig({
  test: {
    include: ['e2e/**/*.spec.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
