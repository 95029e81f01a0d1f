// `npm run bench`: every benchmark under bench/, one after the other; each prints its own figures.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const dir = import.meta.dirname;
/** The benches whose goals must also hold while another process keeps a core busy (issue 27). */
const BOTH_RUNS = new Set(['inbound.mjs', 'callback.mjs']);
/** Benches as long as the whole test suite: run on their own (ADR 127). */
const ON_THEIR_OWN = new Set(['suite.mjs']);
for (const file of fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.mjs') && f !== 'run.mjs')
  .sort()) {
  if (ON_THEIR_OWN.has(file)) {
    console.log(`\n== ${file}: left out (it runs the whole suite); run it on its own: node bench/${file}`);
    continue;
  }
  console.log(`\n== ${file}`);
  const args = BOTH_RUNS.has(file) ? ['--busy'] : [];
  const r = spawnSync(process.execPath, [path.join(dir, file), ...args], { stdio: 'inherit' });
  if (r.status !== 0) process.exitCode = 1;
}
