// `npm test`: every suite CI runs, then one closing line `N passed, N failed`. The run fails when a
// runner fails, when a file cannot load or set up, on an unhandled error, and in CI without Chromium
// (docs/decisions/017-honest-test-run.md).
//
//   node scripts/test.mjs [--unit <vitest config>|none] [--browser <vitest config>|none] [--build <command>|none]
//
// The options (or STN_TEST_UNIT, STN_TEST_BROWSER, STN_TEST_BUILD) exist so scripts/test-script.test.ts
// can point the script at small fixture suites.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const root = path.resolve(import.meta.dirname, '..');
const { values: opts } = parseArgs({
  options: {
    unit: { type: 'string', default: process.env.STN_TEST_UNIT ?? 'vitest.config.ts' },
    browser: { type: 'string', default: process.env.STN_TEST_BROWSER ?? 'e2e/vitest.config.ts' },
    build: {
      type: 'string',
      default: process.env.STN_TEST_BUILD ?? 'npm run build -w apps/web && npm run build -w apps/widget',
    },
  },
});
const vitestBin = path.join(root, 'node_modules/vitest/vitest.mjs');
const reporter = path.join(import.meta.dirname, 'test-reporter.mjs');
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ci = !!process.env.CI && !['0', 'false'].includes(process.env.CI.toLowerCase());
const out = fs.mkdtempSync(path.join(os.tmpdir(), 'stn-test-report-'));

let passed = 0;
let failed = 0;
let skipped = 0;
/** Every failure by name, repeated at the end so it is not lost in a long log. */
const failures = [];
const retried = [];

function fail(what, count = 1) {
  failed += count;
  failures.push(what);
  console.error(`\n${what}`);
}

/** Runs one Vitest suite through scripts/test-reporter.mjs; `undefined` when it left no report. */
function runVitest(name, config) {
  const reportFile = path.join(out, `${name}.json`);
  const r = spawnSync(
    process.execPath,
    [vitestBin, 'run', '--config', config, '--reporter=default', `--reporter=${reporter}`],
    {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, STN_TEST_REPORT: reportFile, FORCE_COLOR: ci ? '0' : '1' },
    },
  );
  if (!fs.existsSync(reportFile)) {
    // A global setup that threw, a config that did not load, a crash: no report, so nothing passed.
    fail(`${name}: the runner ended (code ${r.status ?? r.signal}) without a report`);
    return undefined;
  }
  const report = JSON.parse(fs.readFileSync(reportFile, 'utf8'));
  passed += report.passed;
  failed += report.failed;
  failures.push(...report.failures.map((f) => `${name}: ${f}`));
  retried.push(...report.retried.map((t) => ({ ...t, name: `${name}: ${t.name}` })));
  // Vitest knows of failures its reporters may not see (e.g. an error while tearing down).
  if (r.status !== 0 && report.failed === 0) {
    fail(`${name}: vitest exited with code ${r.status ?? r.signal} although every test passed`);
  }
  return report;
}

if (opts.unit !== 'none') {
  const report = runVitest('unit-and-api', opts.unit);
  if (report) skipped += report.skipped;
}

if (opts.browser !== 'none') {
  // Built with or without Chromium: the size budgets (e2e/size-budgets.spec.ts) read the builds (ADR 060).
  const build =
    opts.build === 'none'
      ? { status: 0 }
      : spawnSync(opts.build, { cwd: root, stdio: 'inherit', shell: true });
  if (build.status !== 0) fail(`browser: building for the browser tests failed (${opts.build})`);
  else if (fs.existsSync(chromium)) {
    const report = runVitest('browser', opts.browser);
    if (report) skipped += report.skipped;
  } else {
    // Without Chromium every spec still loads (a broken one fails here) and its tests skip themselves
    // (e2e/harness.ts `hasChromium`); the reporter counts them one by one.
    const report = runVitest('browser', opts.browser);
    if (report && ci) {
      // CI must prove the product in a browser: a missing Chromium is a broken CI, not a skip.
      fail(
        `browser: CI=true but there is no Chromium at ${chromium} (apt-get install chromium, or set CHROMIUM_PATH): ${report.skipped} browser tests did not run`,
        Math.max(1, report.skipped),
      );
    } else if (report) {
      skipped += report.skipped;
      console.log(
        `\nBrowser tests skipped: no Chromium at ${chromium} (apt-get install chromium). ${report.skipped} tests not run.`,
      );
    }
  }
}

fs.rmSync(out, { recursive: true, force: true });
if (retried.length) {
  console.log(`\nRetried (the config allows a retry; a test that needs one is flaky):`);
  for (const t of retried) {
    console.log(`  ${t.name}: ${t.state} after ${t.retries} ${t.retries === 1 ? 'retry' : 'retries'}`);
  }
}
if (failures.length) {
  console.log('\nFailed:');
  for (const f of failures) console.log(`  ${f}`);
}
if (skipped) console.log(`\n${skipped} skipped`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
