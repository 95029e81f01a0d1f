// `bench/analytics` (issue 24): 10 million messages and 1 million calls over 1,000 businesses, loaded with
// COPY into a database of its own, the rollups built once through the module's code, then the business and
// agency dashboards timed (p50/p95/max), and the time from an event to its rollup row (see
// bench/analytics/bench.ts). BENCH_ANALYTICS_SCALE=0.01 for a quick run. Runs it with tsx.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const r = spawnSync(
  process.execPath,
  ['--import', 'tsx', 'bench/analytics/bench.ts', ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit', env: { ...process.env, DATABASE_URL: '' } },
);
process.exitCode = r.status ?? 1;
