// Builds the website widget (docs/decisions/043-widget-build-and-loading.md) into dist/:
//   widget.js             the loader the embed code loads (IIFE, no Preact), served with a short cache
//   widget/app-<hash>.js  the app (Preact), loaded on first open; its lazy chunks beside it (immutable)
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
  entryPoints: { app: path.join(dir, 'src/app/index.tsx') },
  format: 'esm',
  splitting: true,
  outdir: path.join(dist, 'widget'),
  entryNames: '[name]-[hash]',
  chunkNames: '[name]-[hash]',
});
let appFile = '';
const chunks = [];
for (const [out, meta] of Object.entries(app.metafile.outputs)) {
  const name = path.basename(out);
  // A dynamic import is an entry point too: the app is the one built from src/app/index.tsx.
  if (meta.entryPoint?.endsWith('src/app/index.tsx')) appFile = name;
  else chunks.push(name);
}
const loader = await build({
  ...common,
  entryPoints: [path.join(dir, 'src/loader.ts')],
  format: 'iife',
  outfile: path.join(dist, 'widget.js'),
  define: { __STN_APP__: JSON.stringify(appFile), __STN_LEAD__: JSON.stringify('lead-XXXXXXXX.js') },
});

for (const file of [...app.outputFiles, ...loader.outputFiles]) {
  fs.writeFileSync(file.path, file.contents);
  fs.writeFileSync(`${file.path}.gz`, zlib.gzipSync(file.contents, { level: 9 }));
  fs.writeFileSync(
    `${file.path}.br`,
    zlib.brotliCompressSync(file.contents, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
  );
}
// `lazy`: chunks the app loads later (the phone check, when the visitor reaches the phone field).
fs.writeFileSync(
  path.join(dist, 'manifest.json'),
  `${JSON.stringify({ loader: 'widget.js', app: `widget/${appFile}`, lazy: chunks.map((c) => `widget/${c}`) }, null, 2)}\n`,
);
const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
for (const f of ['widget.js', `widget/${appFile}`, ...chunks.map((c) => `widget/${c}`)]) {
  const p = path.join(dist, f);
  console.log(
    `${f.padEnd(40)} ${kb(fs.statSync(p).size).padStart(9)} ${kb(fs.statSync(`${p}.gz`).size).padStart(9)} gz`,
  );
}
