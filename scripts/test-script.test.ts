// `npm test` (scripts/test.mjs) run on the small fixture suites under scripts/fixtures/: what a run
// that must fail looks like, and what a healthy one says.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..');
const fixture = (name: string) => `scripts/fixtures/${name}/vitest.config.ts`;

type Run = { code: number | null; output: string; lastLine: string };

function npmTest(args: string[], env: Record<string, string> = {}): Promise<Run> {
  // The outer run's Vitest and CI variables must not leak into the run under test.
  const base = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !k.startsWith('VITEST') && k !== 'CI' && k !== 'CHROMIUM_PATH',
    ),
  );
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['scripts/test.mjs', ...args], {
      cwd: root,
      env: { ...base, FORCE_COLOR: '0', NO_COLOR: '1', ...env },
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const lines = output.trimEnd().split('\n');
      resolve({ code, output, lastLine: lines[lines.length - 1] ?? '' });
    });
  });
}

const noBrowser = ['--browser', 'none'];
// The cases below that name a browser suite do not build the apps (a real build is the suite's, not these).
const noBuild = ['--build', 'none'];
const noChromium = { CHROMIUM_PATH: path.join(root, 'scripts/fixtures/no-chromium-here') };

// Each case starts two Node processes; on a busy two-core machine that can take longer than the default.
describe.concurrent('npm test', { timeout: 120_000 }, () => {
  it('exits 0 on a passing suite and ends with the closing line', async () => {
    const run = await npmTest(['--unit', fixture('pass'), ...noBrowser]);
    expect(run.code).toBe(0);
    expect(run.lastLine).toBe('2 passed, 0 failed');
    expect(run.output).toMatch(/^1 skipped$/m);
  });

  it('exits non-zero when a test fails', async () => {
    const run = await npmTest(['--unit', fixture('fail'), ...noBrowser]);
    expect(run.code).not.toBe(0);
    expect(run.lastLine).toBe('1 passed, 1 failed');
  });

  it('counts the tests of a suite whose beforeAll throws as failed, not skipped', async () => {
    const run = await npmTest(['--unit', fixture('before-all'), ...noBrowser]);
    expect(run.code).not.toBe(0);
    expect(run.lastLine).toBe('0 passed, 2 failed');
    // Only the script's own line counts: Vitest's summary above it says 'skipped' for these tests.
    expect(run.output).not.toMatch(/^\d+ skipped$/m);
  });

  it('exits non-zero on an unhandled rejection, even though every test passed', async () => {
    const run = await npmTest(['--unit', fixture('rejection'), ...noBrowser]);
    expect(run.code).not.toBe(0);
    expect(run.lastLine).toBe('1 passed, 1 failed');
    expect(run.output).toContain('unhandled error: nobody awaited me');
  });

  it('exits non-zero when a file fails to load', async () => {
    const run = await npmTest(['--unit', fixture('load-error'), ...noBrowser]);
    expect(run.code).not.toBe(0);
    expect(run.lastLine).toBe('0 passed, 1 failed');
    expect(run.output).toMatch(/load-error.fixture.ts \(failed to load: .*does-not-exist/);
  });

  it('names a retried test in the closing output', async () => {
    const run = await npmTest(['--unit', fixture('retry'), ...noBrowser]);
    expect(run.code).toBe(0);
    expect(run.lastLine).toBe('2 passed, 0 failed');
    const closing = run.output.slice(run.output.lastIndexOf('Retried'));
    expect(closing).toContain('retry.fixture.ts > passes on its second attempt: passed after 1 retry');
  });

  it('without Chromium, outside CI, counts the skipped browser tests by test', async () => {
    const run = await npmTest(['--unit', 'none', '--browser', fixture('browser'), ...noBuild], noChromium);
    expect(run.code).toBe(0);
    expect(run.output).toContain('Browser tests skipped');
    expect(run.output).toMatch(/^3 skipped$/m);
    expect(run.lastLine).toBe('0 passed, 0 failed');
  });

  it('without Chromium in CI, fails and says why', async () => {
    const run = await npmTest(['--unit', 'none', '--browser', fixture('browser'), ...noBuild], {
      ...noChromium,
      CI: 'true',
    });
    expect(run.code).not.toBe(0);
    expect(run.output).toContain('CI=true but there is no Chromium');
    expect(run.lastLine).toBe('0 passed, 3 failed');
  });

  it('fails when a build is past a size budget, and names the budget', async () => {
    // scripts/fixtures/budgets holds builds whose widget loader is past 3 KiB gzip; the other budgets pass.
    const run = await npmTest(['--unit', 'none', '--browser', fixture('budgets'), ...noBuild], noChromium);
    expect(run.code).not.toBe(0);
    expect(run.output).toMatch(
      /widget loader \(\/widget\.js\): \d+\.\d KiB gzip \(widget\.js\), over the budget of 3\.0 KiB/,
    );
    expect(run.lastLine).toBe('5 passed, 1 failed');
  });

  it('fails, not skips, the size budgets when there is no build', async () => {
    const run = await npmTest(['--unit', 'none', '--browser', fixture('budgets'), ...noBuild], {
      ...noChromium,
      STN_WIDGET_DIST: path.join(root, 'scripts/fixtures/budgets/no-build-here'),
    });
    expect(run.code).not.toBe(0);
    expect(run.output).toContain('no-build-here/manifest.json: build first');
    expect(run.lastLine).toBe('0 passed, 1 failed');
  });

  it('runs both suites side by side: each line carries its suite, and the counts are summed', async () => {
    const run = await npmTest(
      ['--unit', fixture('fail'), '--browser', fixture('browser'), '--build', 'echo built'],
      noChromium,
    );
    expect(run.code).not.toBe(0);
    expect(run.output).toMatch(/^\[unit-and-api\] .*fail\.fixture\.ts/m);
    expect(run.output).toMatch(/^\[browser\] .*browser\.fixture\.ts/m);
    expect(run.output).toMatch(/^\[build\] built$/m);
    expect(run.output).toMatch(/^3 skipped$/m);
    expect(run.lastLine).toBe('1 passed, 1 failed');
    // One after the other, the same counts and no prefixes.
    const inTurn = await npmTest(
      [
        '--unit',
        fixture('fail'),
        '--browser',
        fixture('browser'),
        '--build',
        'echo built',
        '--one-after-another',
      ],
      noChromium,
    );
    expect(inTurn.lastLine).toBe('1 passed, 1 failed');
    expect(inTurn.output).not.toMatch(/^\[(unit-and-api|browser)\] /m);
  });

  it('builds for the budgets even without Chromium', async () => {
    const run = await npmTest(
      ['--unit', 'none', '--browser', fixture('budgets'), '--build', 'exit 3'],
      noChromium,
    );
    expect(run.code).not.toBe(0);
    expect(run.output).toContain('building for the browser tests failed (exit 3)');
    expect(run.lastLine).toBe('0 passed, 1 failed');
  });
});
