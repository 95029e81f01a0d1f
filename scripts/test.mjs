// `npm test`: every suite CI runs, then one closing line `N passed, N failed`. The run fails when a
// runner fails, when a file cannot load or set up, on an unhandled error, and in CI without Chromium
// (docs/decisions/017-honest-test-run.md).
//
//   node scripts/test.mjs [--unit <vitest config>|none] [--browser <vitest config>|none] [--build <command>|none]
//                         [--one-after-another]
//
// The unit-and-API suite and the browser suite run side by side (ADR 113): each leaves a share of the two
// cores idle while its tests wait on servers, browsers and timers, and the other fills it. The build the
// browser suite needs runs beside the first suite too. Each line a suite prints is prefixed with its name
// while both run. `--one-after-another` (or STN_TEST_SEQUENTIAL=1) runs them in turn, with their own output.
//
// The options (or STN_TEST_UNIT, STN_TEST_BROWSER, STN_TEST_BUILD) exist so scripts/test-script.test.ts
// can point the script at small fixture suites.
import { spawn } from 'node:child_process';
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
    'one-after-another': {
      type: 'boolean',
      default: ['1', 'true'].includes(process.env.STN_TEST_SEQUENTIAL ?? ''),
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

const together = opts.unit !== 'none' && opts.browser !== 'none' && !opts['one-after-another'];

/**
 * Runs a command; its output goes to ours as it comes, each line prefixed with `name` while the suites run
 * side by side. Resolves with its exit code (or the signal that ended it).
 */
function run(name, command, args, options) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root,
      ...options,
      stdio: together ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    if (together) {
      for (const [from, to] of [
        [child.stdout, process.stdout],
        [child.stderr, process.stderr],
      ]) {
        let rest = '';
        from.setEncoding('utf8');
        from.on('data', (chunk) => {
          const lines = (rest + chunk).split('\n');
          rest = lines.pop() ?? '';
          for (const line of lines) to.write(`[${name}] ${line}\n`);
        });
        from.on('end', () => {
          if (rest) to.write(`[${name}] ${rest}\n`);
        });
      }
    }
    child.on('error', (err) => {
      console.error(`[${name}] ${err.message}`);
      resolve({ status: 1, signal: null });
    });
    child.on('close', (status, signal) => resolve({ status, signal }));
  });
}

/** Runs one Vitest suite through scripts/test-reporter.mjs; `undefined` when it left no report. */
async function runVitest(name, config) {
  const reportFile = path.join(out, `${name}.json`);
  const r = await run(
    name,
    process.execPath,
    [vitestBin, 'run', '--config', config, '--reporter=default', `--reporter=${reporter}`],
    { env: { ...process.env, STN_TEST_REPORT: reportFile, FORCE_COLOR: ci || together ? '0' : '1' } },
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

async function unitSuite() {
  if (opts.unit === 'none') return;
  const report = await runVitest('unit-and-api', opts.unit);
  if (report) skipped += report.skipped;
}

async function browserSuite() {
  if (opts.browser === 'none') return;
  // Built with or without Chromium: the size budgets (e2e/size-budgets.spec.ts) read the builds (ADR 060).
  const build = opts.build === 'none' ? { status: 0 } : await run('build', opts.build, [], { shell: true });
  if (build.status !== 0) fail(`browser: building for the browser tests failed (${opts.build})`);
  else if (fs.existsSync(chromium)) {
    const report = await runVitest('browser', opts.browser);
    if (report) skipped += report.skipped;
  } else {
    // Without Chromium every spec still loads (a broken one fails here) and its tests skip themselves
    // (e2e/harness.ts `hasChromium`); the reporter counts them one by one.
    const report = await runVitest('browser', opts.browser);
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

if (together) await Promise.all([unitSuite(), browserSuite()]);
else {
  await unitSuite();
  await browserSuite();
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
