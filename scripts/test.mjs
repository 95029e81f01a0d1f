// `npm test`: every suite CI runs, then one closing line `N passed, N failed`.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const out = fs.mkdtempSync(path.join(os.tmpdir(), 'stn-test-report-'));
let passed = 0;
let failed = 0;
let skipped = 0;

function vitest(name, args) {
  const report = path.join(out, `${name}.json`);
  const r = spawnSync(
    'npx',
    ['vitest', 'run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
    {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, FORCE_COLOR: process.env.CI ? '0' : '1' },
    },
  );
  if (!fs.existsSync(report)) {
    console.error(`${name}: the runner ended (code ${r.status}) without a report`);
    failed += 1;
    return;
  }
  const j = JSON.parse(fs.readFileSync(report, 'utf8'));
  passed += j.numPassedTests;
  failed += j.numFailedTests;
  skipped += j.numPendingTests + (j.numTodoTests ?? 0);
  // A file that failed to load has no tests in the counts: count it as a failure.
  failed += j.testResults.filter((f) => f.status === 'failed' && f.assertionResults.length === 0).length;
}

vitest('unit-and-api', []);

// Browser tests need the built web app and the system Chromium (.ci/run installs it).
if (fs.existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium')) {
  const build = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) {
    console.error('building the web app failed');
    failed += 1;
  } else {
    vitest('browser', ['--config', 'e2e/vitest.config.ts']);
  }
} else {
  const specs = fs.readdirSync(path.join(root, 'e2e')).filter((f) => f.endsWith('.spec.ts'));
  console.log(
    `\nBrowser tests skipped: no Chromium at /usr/bin/chromium (apt-get install chromium). ${specs.length} spec files not run.`,
  );
  skipped += specs.length;
}

fs.rmSync(out, { recursive: true, force: true });
if (skipped) console.log(`\n${skipped} skipped`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
