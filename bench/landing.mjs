import fs from 'node:fs';
import { chromiumOrSkip, ensureWebBuild } from './lib/browser-bench.mjs';
import { startPlatform } from './lib/platform.mjs';

const GOALS = { performance: 95, accessibility: 95, 'best-practices': 95, seo: 90 };
const METRICS = [
  ['first-contentful-paint', 'FCP'],
  ['largest-contentful-paint', 'LCP'],
  ['total-blocking-time', 'TBT'],
  ['cumulative-layout-shift', 'CLS'],
  ['speed-index', 'Speed Index'],
];
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const HOST = 'acme.localhost';

const chromiumPath = chromiumOrSkip();
ensureWebBuild();

const { launch } = await import('chrome-launcher');
const { default: lighthouse } = await import('lighthouse');

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const { port, stop } = await startPlatform('stn-bench-');
let chrome;
try {
  chrome = await launch({
    chromePath: chromiumPath,
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    logLevel: 'silent',
  });
  // Node does not resolve *.localhost; Chromium does (to loopback), and Lighthouse loads the page in it.
  const url = `http://${HOST}:${port}/`;
  const flags = {
    port: chrome.port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: Object.keys(GOALS),
  };
  // The first run warms the server (first answers compile routes and read files) and measures the machine.
  const warm = await lighthouse(url, flags);
  const slowdown =
    process.env.BENCH_CPU_SLOWDOWN === 'auto'
      ? Math.max(1, Math.round(((warm?.lhr.environment.benchmarkIndex ?? 1000) / 264) * 10) / 10)
      : process.env.BENCH_CPU_SLOWDOWN
        ? Number(process.env.BENCH_CPU_SLOWDOWN)
        : undefined;
  const config = slowdown
    ? { extends: 'lighthouse:default', settings: { throttling: { cpuSlowdownMultiplier: slowdown } } }
    : undefined;
  const runs = [];
  for (let i = 0; i < RUNS; i++) {
    const result = await lighthouse(url, flags, config);
    if (!result) throw new Error('Lighthouse returned no result');
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    runs.push(lhr);
  }

  if (process.env.BENCH_LIGHTHOUSE_JSON) {
    const perf = runs.map((lhr) => lhr.categories.performance.score ?? 0);
    fs.writeFileSync(process.env.BENCH_LIGHTHOUSE_JSON, JSON.stringify(runs[perf.indexOf(median(perf))]));
  }
  const cpu = runs[0].configSettings.throttling.cpuSlowdownMultiplier;
  console.log(
    `Lighthouse ${runs[0].lighthouseVersion} on ${url} (mobile, ${slowdown ? `CPU slowdown ${cpu} (BENCH_CPU_SLOWDOWN)` : 'default config'}, median of ${RUNS})`,
  );
  const indexes = runs.map((lhr) => Math.round(lhr.environment.benchmarkIndex));
  console.log(
    `  this machine's benchmark index: ${indexes.join(', ')} (the default CPU slowdown of 4 means about 1000)`,
  );
  for (const warning of new Set(runs.flatMap((lhr) => lhr.runWarnings))) console.log(`  warning: ${warning}`);
  for (const [id, goal] of Object.entries(GOALS)) {
    const scores = runs.map((lhr) => Math.round((lhr.categories[id].score ?? 0) * 100));
    const score = median(scores);
    const met = score >= goal;
    console.log(
      `  ${id.padEnd(16)}${String(score).padStart(4)}   goal >= ${goal}   ${met ? 'PASS' : 'MISS'}   (runs: ${scores.join(', ')})`,
    );
    if (met) continue;
    // The audits of the median run that count for this category and do not pass.
    const lhr = runs[scores.indexOf(score)];
    for (const ref of lhr.categories[id].auditRefs) {
      const audit = lhr.audits[ref.id];
      if (ref.weight === 0 && id !== 'performance') continue;
      if (audit.score === null || audit.score >= 0.9) continue;
      if (audit.scoreDisplayMode === 'notApplicable' || audit.scoreDisplayMode === 'informative') continue;
      const value = audit.displayValue ? ` (${audit.displayValue})` : '';
      console.log(`      ${audit.id}: ${audit.title}${value}   score ${Math.round(audit.score * 100)}`);
    }
  }
  console.log('  metrics (median)');
  for (const [id, label] of METRICS) {
    const values = runs.map((lhr) => lhr.audits[id].numericValue);
    const v = median(values);
    const shown =
      id === 'cumulative-layout-shift'
        ? v.toFixed(3)
        : id === 'total-blocking-time'
          ? `${Math.round(v)} ms`
          : `${(v / 1000).toFixed(2)} s`;
    console.log(`    ${label.padEnd(14)}${shown}`);
  }
} finally {
  if (chrome) await chrome.kill();
  await stop();
}
