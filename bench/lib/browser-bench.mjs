// What the browser benches (login-fast3g.mjs, landing.mjs) do before measuring: find the system Chromium
// (none: say so and stop, as a skipped bench) and build the web app unless `--no-build` finds it built.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '../..');

/** The Chromium to drive; exits the bench as skipped when there is none. */
export function chromiumOrSkip() {
  const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!fs.existsSync(chromiumPath)) {
    console.log(`skipped: no Chromium at ${chromiumPath}`);
    process.exit(0);
  }
  return chromiumPath;
}

/** Builds the web app, unless `--no-build` is given and a build is there. */
export function ensureWebBuild() {
  if (!process.argv.includes('--no-build') || !fs.existsSync(path.join(root, 'apps/web/dist/index.html'))) {
    const r = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'ignore' });
    if (r.status !== 0) throw new Error('web build failed');
  }
}
