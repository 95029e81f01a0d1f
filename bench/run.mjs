// `npm run bench`: every benchmark under bench/, one after the other; each prints its own figures.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const dir = import.meta.dirname;
for (const file of fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.mjs') && f !== 'run.mjs')
  .sort()) {
  console.log(`\n== ${file}`);
  const r = spawnSync(process.execPath, [path.join(dir, file)], { stdio: 'inherit' });
  if (r.status !== 0) process.exitCode = 1;
}
