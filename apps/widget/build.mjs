// Builds the website widget (docs/decisions/043-widget-build-and-loading.md) into dist/:
//   widget.js             the loader the embed code loads (IIFE, no Preact), served with a short cache
//   widget/app-<hash>.js  the app (Preact), loaded on first open; its lazy chunks beside it (immutable)
//   widget/lead-<hash>.js the lead form (issue 21): the panel's mode 'lead' loads it, and the loader loads it
//                         directly for a page's embedded forms (with the chunk it shares with the app:
//                         Preact), without the app
//   manifest.json         which files are which (the bench reads it)
// Every .js gets a .gz and a .br beside it; the server sends the one the browser accepts.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { build } from 'esbuild';

const dir = import.meta.dirname;
const dist = path.join(dir, 'dist');
const common = {
  bundle: true,
  minify: true,
  platform: 'browser',
  target: 'es2020',
  legalComments: 'none',
  charset: 'utf8',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  write: false,
  metafile: true,
  logLevel: 'warning',
};

fs.rmSync(dist, { recursive: true, force: true });
fs.mkdirSync(path.join(dist, 'widget'), { recursive: true });

// The app first: the loader carries the app's hashed name.
const app = await build({
  ...common,
  entryPoints: { app: path.join(dir, 'src/app/index.tsx'), lead: path.join(dir, 'src/lead/index.tsx') },
  format: 'esm',
  splitting: true,
  outdir: path.join(dist, 'widget'),
  entryNames: '[name]-[hash]',
  chunkNames: '[name]-[hash]',
});
let appFile = '';
let leadFile = '';
const chunks = [];
/** Each output's static imports (what loads with it), by file name. */
const imports = {};
for (const [out, meta] of Object.entries(app.metafile.outputs)) {
  const name = path.basename(out);
  imports[name] = meta.imports.filter((i) => i.kind === 'import-statement').map((i) => path.basename(i.path));
  // A dynamic import is an entry point too: the app is the one built from src/app/index.tsx.
  if (meta.entryPoint?.endsWith('src/app/index.tsx')) appFile = name;
  else if (meta.entryPoint?.endsWith('src/lead/index.tsx')) leadFile = name;
  else chunks.push(name);
}
/** A file and everything it imports statically, itself first. */
const closure = (name, seen = new Set()) => {
  if (seen.has(name)) return seen;
  seen.add(name);
  for (const i of imports[name] ?? []) closure(i, seen);
  return seen;
};
const appWith = [...closure(appFile)];
const leadWith = [...closure(leadFile)];
const eager = new Set([...appWith, ...leadWith]);
const loader = await build({
  ...common,
  entryPoints: [path.join(dir, 'src/loader.ts')],
  format: 'iife',
  outfile: path.join(dist, 'widget.js'),
  define: { __STN_APP__: JSON.stringify(appFile), __STN_LEAD__: JSON.stringify(leadFile) },
});

for (const file of [...app.outputFiles, ...loader.outputFiles]) {
  fs.writeFileSync(file.path, file.contents);
  fs.writeFileSync(`${file.path}.gz`, zlib.gzipSync(file.contents, { level: 9 }));
  fs.writeFileSync(
    `${file.path}.br`,
    zlib.brotliCompressSync(file.contents, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
  );
}
// `app_with` and `lead_with`: the app and the lead chunk with what each imports statically (what a first
// open, and an embedded form, download after the loader); `lazy`: chunks loaded later (the phone check,
// when the visitor reaches a phone field).
const w = (f) => `widget/${f}`;
fs.writeFileSync(
  path.join(dist, 'manifest.json'),
  `${JSON.stringify(
    {
      loader: 'widget.js',
      app: w(appFile),
      lead: w(leadFile),
      app_with: appWith.map(w),
      lead_with: leadWith.map(w),
      lazy: chunks.filter((c) => !eager.has(c)).map(w),
    },
    null,
    2,
  )}\n`,
);
const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
for (const f of ['widget.js', w(appFile), w(leadFile), ...chunks.map(w)]) {
  const p = path.join(dist, f);
  console.log(
    `${f.padEnd(40)} ${kb(fs.statSync(p).size).padStart(9)} ${kb(fs.statSync(`${p}.gz`).size).padStart(9)} gz`,
  );
}
