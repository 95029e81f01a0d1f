// `npm run bench`: every benchmark under bench/, one after the other; each prints its own figures.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const dir = import.meta.dirname;
/** The benches whose goals must also hold while another process keeps a core busy (issue 27). */
const BOTH_RUNS = new Set(['inbound.mjs', 'callback.mjs']);
for (const file of fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.mjs') && f !== 'run.mjs')
  .sort()) {
  console.log(`\n== ${file}`);
  const args = BOTH_RUNS.has(file) ? ['--busy'] : [];
  const r = spawnSync(process.execPath, [path.join(dir, file), ...args], { stdio: 'inherit' });
  if (r.status !== 0) process.exitCode = 1;
}
