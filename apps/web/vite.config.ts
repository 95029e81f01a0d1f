import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import zlib from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/**
 * Writes a brotli (.br) and a gzip (.gz) copy beside every text file of the build, once, at build time;
 * the server sends the one the browser accepts (@fastify/static preCompressed, ADR 022).
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'stn-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        fs
          .readdirSync(dir, { withFileTypes: true })
          .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
      for (const file of walk(outDir)) {
        if (!/\.(js|css|html|svg|json|txt)$/.test(file) || file.includes(`${path.sep}.vite${path.sep}`))
          continue;
        const raw = fs.readFileSync(file);
        if (raw.length < 512) continue;
        fs.writeFileSync(
          `${file}.br`,
          zlib.brotliCompressSync(raw, {
            params: {
              [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
              [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
            },
          }),
        );
        fs.writeFileSync(`${file}.gz`, zlib.gzipSync(raw, { level: 9 }));
      }
    },
  };
}

/** In development, /login and /auth/login are the light sign-in page, as the server serves them (ADR 025). */
function loginPage(): Plugin {
  return {
    name: 'stn-login-page',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use((req, _res, next) => {
        const [pathname, query] = (req.url ?? '').split('?');
        if (pathname === '/login' || pathname === '/auth/login')
          req.url = `/login.html${query ? `?${query}` : ''}`;
        next();
      });
    },
  };
}

/**
 * A package's modules that make a chunk of their own under the rest of it: its modules in dependency order
 * (each after those it imports, from `entry`), up to a share of the package's size. Its modules import each
 * other almost as a tree, but its folders do not (recharts' cartesian and state import each other's modules):
 * a split by folder made two chunks import each other, and a module ran before one it reads. This part
 * imports nothing of the rest by construction (a module that would is left out, until none is).
 */
function lowerPart(entry: string, share: number): Set<string> {
  const ext = path.extname(entry);
  const imports = new Map<string, string[]>();
  const order: string[] = [];
  const visit = (file: string) => {
    if (imports.has(file)) return;
    const found: string[] = [];
    imports.set(file, found);
    const src = fs.readFileSync(file, 'utf8');
    for (const m of src.matchAll(
      /(?:import|export)\s[^'"]*?from\s*['"](\.[^'"]+)['"]|import\s*['"](\.[^'"]+)['"]/g,
    )) {
      const spec = path.resolve(path.dirname(file), m[1] ?? m[2] ?? '');
      const target = [spec, `${spec}${ext}`, path.join(spec, `index${ext}`)].find(
        (f) => f.endsWith(ext) && fs.existsSync(f),
      );
      if (target) {
        found.push(target);
        visit(target);
      }
    }
    order.push(file);
  };
  visit(entry);
  const size = (f: string) => fs.statSync(f).size;
  const total = order.reduce((n, f) => n + size(f), 0);
  const lower = new Set<string>();
  let taken = 0;
  for (const f of order) {
    if (taken > total * share) break;
    lower.add(f);
    taken += size(f);
  }
  for (let changed = true; changed; ) {
    changed = false;
    for (const f of lower)
      if ((imports.get(f) ?? []).some((d) => !lower.has(d))) {
        lower.delete(f);
        changed = true;
      }
  }
  return lower;
}

/** A bundler group's test: whether a module's file (its id without a query) is one of `part`'s. */
const inPart = (part: Set<string>) => (id: string) => part.has(id.split('?')[0] ?? '');

/** A package's folder: above its main file, where its package.json is (Mantine's exports do not list that). */
function packageDir(name: string): string {
  let dir = path.dirname(createRequire(import.meta.url).resolve(name));
  while (!fs.existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

// About a third of the source: with Mantine's charts on top, the two chunks come out of a similar size.
const RECHARTS_LOWER = lowerPart(path.join(packageDir('recharts'), 'es6', 'index.js'), 0.35);

/** Mantine's components (@mantine/core). */
const MANTINE = /[\\/]node_modules[\\/]@mantine[\\/]core[\\/]/;
/** What Mantine's components import from other packages (none of which imports Mantine's components). */
const MANTINE_DEPS =
  /[\\/]node_modules[\\/](@mantine[\\/]hooks|@floating-ui|react-remove-scroll|react-remove-scroll-bar|react-style-singleton|use-callback-ref|use-sidecar|get-nonce|tslib|clsx|react-number-format|react-textarea-autosize|type-fest)[\\/]/;
// Two fifths of Mantine's source: its lower chunk and the rest come out under a lazy chunk's budget.
const MANTINE_LOWER = lowerPart(path.join(packageDir('@mantine/core'), 'esm', 'index.mjs'), 0.4);

/**
 * The vendor chunks. Mantine (ADR 115): what the app's entry needs of it in one chunk with the entry, and
 * everything else the screens use of it in three lazy chunks (its dependencies, its lower part, the rest),
 * each importing only the ones before it. Left to the automatic split, each Mantine component a few screens
 * share was a chunk of its own: signing in and opening the inbox loaded 94 scripts, 36 of them under 1 KB.
 * Then the lazy screens' own vendors, each loaded only with the screens that use it: the automation editor's
 * React Flow and the d3 and store modules under it (ADR 072), and the dashboards' charts (Mantine charts over
 * recharts, issue 24, ADR 085), split so that no chunk is over a lazy chunk's budget. The few d3 modules both use,
 * the store selector hook both import and react-is (recharts', and the card form's prop-types') are a small
 * chunk of their own: left in either side's chunk, the
 * other screen would load that whole chunk too. Only these modules: what else they import (React) stays
 * where it was.
 */
const LAZY_VENDOR_CHUNKS = {
  includeDependenciesRecursively: false,
  groups: [
    {
      name: 'mantine-start',
      test: (id: string) => MANTINE.test(id) || MANTINE_DEPS.test(id),
      tags: ['$initial' as const],
      priority: 2,
    },
    { name: 'mantine-deps', test: MANTINE_DEPS, priority: 1 },
    { name: 'mantine-base', test: inPart(MANTINE_LOWER), priority: 1 },
    { name: 'mantine', test: MANTINE, priority: 1 },
    { name: 'xyflow', test: /[\\/]node_modules[\\/]@xyflow[\\/]/ },
    // zustand goes with it: left in the editor's chunk, the two chunks would import each other.
    {
      name: 'xyflow-d3',
      test: /[\\/]node_modules[\\/](d3-(drag|selection|zoom|transition|dispatch)[\\/]|zustand[\\/]|classcat[\\/])/,
    },
    {
      name: 'vendor-shared',
      test: /[\\/]node_modules[\\/](d3-(interpolate|color|ease|timer)[\\/]|use-sync-external-store[\\/].*with-selector|react-is[\\/])/,
    },
    // Scripts only: the charts' stylesheet is imported with Mantine's others by the app's entry.
    { name: 'charts-base', test: inPart(RECHARTS_LOWER) },
    { name: 'charts', test: /[\\/]node_modules[\\/](@mantine[\\/]charts|recharts)[\\/].*\.m?js$/ },
    {
      name: 'charts-vendor',
      test: /[\\/]node_modules[\\/](victory-vendor|d3-[a-z-]+|internmap|@reduxjs|immer|reselect|redux|redux-thunk|react-redux|es-toolkit|decimal\.js-light|eventemitter3|tiny-invariant)[\\/]/,
    },
  ],
};

export default defineConfig({
  plugins: [react(), precompress(), loginPage()],
  build: {
    outDir: 'dist',
    sourcemap: false,
    manifest: true,
    chunkSizeWarningLimit: 600,
    // Three pages: the app, the light sign-in page (ADR 025) and the light landing page (ADR 080).
    rollupOptions: {
      input: {
        index: path.resolve(import.meta.dirname, 'index.html'),
        login: path.resolve(import.meta.dirname, 'login.html'),
        landing: path.resolve(import.meta.dirname, 'landing.html'),
      },
      // React Flow (the automation editor's canvas) and recharts are over one lazy chunk's budget by themselves.
      output: { codeSplitting: LAZY_VENDOR_CHUNKS },
    },
  },
  server: {
    // The API, and the widget's loader and chunks (the installs screen's live preview loads /widget.js).
    proxy: {
      '/api': 'http://localhost:3000',
      '/widget.js': 'http://localhost:3000',
      '/widget/': 'http://localhost:3000',
      '/widget-demo': 'http://localhost:3000',
      // The Stripe sandbox's card form endpoints (ADR 076).
      '/stripe-sandbox': 'http://localhost:3000',
    },
  },
});
