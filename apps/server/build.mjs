// The server bundled for running (ADR 112): `npm run build -w apps/server` writes dist/main.mjs,
// dist/worker.mjs and dist/cli.mjs from src/, with the contracts package inside and every other package left
// to node_modules. Node loads one file instead of some 500 TypeScript modules through tsx's hooks: half the
// CPU to start. `npm start` builds it when its sources are newer; each test run builds it once (ADR 113).
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const here = import.meta.dirname;
export const DIST = path.join(here, 'dist');

/**
 * Writes main.mjs, worker.mjs and cli.mjs (and their shared chunks) into `outdir`, a folder under apps/server so that
 * the bundle finds node_modules and the migrations as the sources do; answers main.mjs's path.
 */
export async function buildServer(outdir = DIST) {
  fs.rmSync(outdir, { recursive: true, force: true });
  await build({
    entryPoints: ['main', 'worker', 'cli'].map((entry) => path.join(here, `src/${entry}.ts`)),
    outdir,
    bundle: true,
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    outExtension: { '.js': '.mjs' },
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Stack traces name the TypeScript files (the processes run with --enable-source-maps).
    sourcemap: 'linked',
    logLevel: 'warning',
    plugins: [
      {
        // Packages stay in node_modules, except our own (TypeScript sources: @stn/contracts).
        name: 'packages-outside',
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith('@stn/') ? undefined : { path: args.path, external: true },
          );
        },
      },
    ],
  });
  return path.join(outdir, 'main.mjs');
}

/**
 * A bundle of the sources as they are, for one test run (ADR 113): a fresh folder `dist-test/<prefix>-*` of
 * its own (another run in this checkout builds and removes its own), removed again when the build fails.
 * Answers the folder; the run removes it at its end.
 */
export async function buildTestBundle(prefix) {
  const builds = path.join(here, 'dist-test');
  fs.mkdirSync(builds, { recursive: true });
  const dir = fs.mkdtempSync(path.join(builds, `${prefix}-`));
  try {
    await buildServer(dir);
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return dir;
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) await buildServer();
