// `npm start`: build what needs building, then run the whole platform in one process.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { buildServer, DIST } from '../apps/server/build.mjs';

const root = path.resolve(import.meta.dirname, '..');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name === 'dist-test') continue;
    const full = path.join(dir, entry.name);
    const t = entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs;
    if (t > newest) newest = t;
  }
  return newest;
}

// The web app and the website widget are built when their sources (or the shared contracts) are newer
// than their last build.
const contracts = newestMtime(path.join(root, 'packages/contracts'));
for (const [name, dir, built] of [
  ['the web app', 'apps/web', 'dist/index.html'],
  ['the website widget', 'apps/widget', 'dist/widget.js'],
]) {
  const app = path.join(root, dir);
  if (!fs.existsSync(path.join(app, 'package.json'))) continue;
  const output = path.join(app, built);
  const sources = Math.max(newestMtime(app), contracts);
  if (!fs.existsSync(output) || fs.statSync(output).mtimeMs < sources) {
    console.log(`Building ${name}...`);
    const r = spawnSync('npm', ['run', 'build', '-w', dir], { cwd: root, stdio: 'inherit' });
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
}

// The server runs from its bundle (ADR 112), built again when its sources or the contracts are newer.
const bundle = path.join(DIST, 'main.mjs');
const serverSources = Math.max(newestMtime(path.join(root, 'apps/server')), contracts);
if (!fs.existsSync(bundle) || fs.statSync(bundle).mtimeMs < serverSources) {
  console.log('Building the server...');
  await buildServer();
}

const child = spawn(process.execPath, ['--enable-source-maps', bundle], {
  cwd: root,
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
