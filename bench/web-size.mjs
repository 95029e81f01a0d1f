// Size of the web app as a browser downloads it: gzipped JavaScript of the initial load, of the light
// sign-in page (login.html, ADR 025), of the app's public pages (forgot and reset password) and of the app
// shell, read from Vite's build manifest, beside the budgets npm test enforces (scripts/size-budgets.mjs,
// e2e/size-budgets.spec.ts). Prints figures; asserts nothing.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { BUDGETS, gzipSize, kib as kb, measureWeb, staticClosure } from '../scripts/size-budgets.mjs';

const root = path.resolve(import.meta.dirname, '..');
const dist = path.join(root, 'apps/web/dist');
if (!process.argv.includes('--no-build')) {
  const r = spawnSync('npm', ['run', 'build', '-w', 'apps/web'], { cwd: root, stdio: 'ignore' });
  if (r.status !== 0) throw new Error('web build failed');
}
const manifest = JSON.parse(fs.readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));

const closure = (key, seen) => staticClosure(manifest, key, seen);
const gz = (file) => gzipSize(path.join(dist, file));
const sum = (files) => [...files].filter((f) => f.endsWith('.js')).reduce((n, f) => n + gz(f), 0);
const keyOf = (suffix) => Object.keys(manifest).find((k) => k.endsWith(suffix));

const entry = closure('index.html');
const loginKeys = ['src/layouts/auth-layout.tsx', 'src/features/auth/password-email-page.tsx']
  .map(keyOf)
  .filter(Boolean);
const login = new Set(entry);
for (const k of loginKeys) closure(k, login);
const shellKey = keyOf('src/layouts/app-layout.tsx');
const shell = shellKey ? closure(shellKey) : new Set();
const shellOnly = [...shell].filter((f) => !login.has(f));
const allJs = fs.readdirSync(path.join(dist, 'assets')).filter((f) => f.endsWith('.js'));
const css = fs.readdirSync(path.join(dist, 'assets')).filter((f) => f.endsWith('.css'));

console.log('web app size (gzip -9)');
const web = measureWeb(dist);
const texts = web.chunks.filter((c) => /\/texts\.\w+-/.test(c.file));
console.log(
  `  initial JavaScript (entry and its imports): ${kb(sum(entry))} in ${[...entry].length} files   budget < ${kb(BUDGETS.webInitial.max)}`,
);
console.log(
  `  one language's texts (before the 1st render): ${texts.map((c) => `${path.basename(c.file).replace(/-.*$/, '')} ${kb(c.size)}`).join(', ') || 'none'}`,
);
console.log(
  `  largest lazy chunk: ${web.chunks[0]?.file} ${kb(web.chunks[0]?.size ?? 0)}   budget < ${kb(BUDGETS.webChunk.max)}`,
);
const light = manifest['login.html'] ? closure('login.html') : new Set();
console.log(`  light sign-in page (/login) JavaScript:     ${kb(sum(light))} in ${[...light].length} files`);
console.log(`  public pages (/password/email) JavaScript:  ${kb(sum(login))}`);
const shellChunk = shellKey ? manifest[shellKey].file : undefined;
console.log(`  app shell (admin/agency/business) extra:    ${kb(sum(shellOnly))}`);
console.log(
  `  public pages load the app shell's chunk:    ${shellChunk ? login.has(shellChunk) : 'no shell chunk found'}`,
);
console.log(
  `  all JavaScript chunks:                      ${kb(allJs.reduce((n, f) => n + gz(`assets/${f}`), 0))} in ${allJs.length} files`,
);
console.log(
  `  CSS:                                        ${kb(css.reduce((n, f) => n + gz(`assets/${f}`), 0))}`,
);
