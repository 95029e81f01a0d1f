// Size of the contracts the website widget imports (@stn/contracts/widget), bundled as the widget's build
// would: esbuild, minified, for the browser. Beside it, the full contracts (every other entry, with
// libphonenumber's country-wide metadata and the server's messages) that it must not pull in. Prints
// figures, and fails only when the widget entry drags in something it must not.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { build } from 'esbuild';

const root = path.resolve(import.meta.dirname, '..');
const src = path.join(root, 'packages/contracts/src');

async function bundle(stdin) {
  const r = await build({
    stdin: { contents: stdin, resolveDir: src, loader: 'ts' },
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const code = r.outputFiles[0].contents;
  return {
    raw: code.length,
    gzip: zlib.gzipSync(code, { level: 9 }).length,
    inputs: Object.keys(r.metafile.inputs),
  };
}

const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
const line = (name, b) =>
  console.log(`${name.padEnd(34)} ${kb(b.raw).padStart(10)} raw ${kb(b.gzip).padStart(10)} gzip`);

const widget = await bundle(`export * from './widget.ts';`);
const entries = fs
  .readdirSync(src)
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && f !== 'widget.ts')
  .sort();
// Namespaced, because entries export the same names; every export is kept, as a server or web import may use it.
const full = await bundle(
  `${entries.map((f, i) => `import * as m${i} from './${f}';`).join('\n')}\nexport const all = [${entries.map((_, i) => `m${i}`).join(', ')}];`,
);

line('@stn/contracts/widget', widget);
line(`full contracts (${entries.length} entries)`, full);
console.log(`widget entry is ${((widget.gzip / full.gzip) * 100).toFixed(0)}% of the full contracts (gzip)`);

// What the widget must not carry: the full phone metadata, the server's messages, the other contracts.
const forbidden = widget.inputs.filter(
  (f) =>
    /libphonenumber-js\/metadata\.(min|max|full|mobile)\.json/.test(f) ||
    f.includes('contracts/locales/') ||
    (f.includes('contracts/src/') &&
      !/contracts\/src\/widget(-phone-metadata\.json|-phone\.ts|-texts\.ts|\.ts)$/.test(f)),
);
if (forbidden.length) {
  console.error(`the widget entry pulls in what it must not:\n  ${forbidden.join('\n  ')}`);
  process.exitCode = 1;
} else {
  console.log('widget entry: no full phone metadata, no server messages, no other contracts');
}
