import { beforeEach, onTestFailed } from 'vitest';
import { diagnose } from './harness.ts';

// Every browser test: when one fails, print what its pages showed and the end of its server's log.
beforeEach(() => {
  onTestFailed(async () => {
    console.log(`What the browser showed when the test failed:\n${await diagnose()}`);
  });
});
