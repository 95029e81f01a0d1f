import fs from 'node:fs';
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
 * The automation editor's vendor chunks (ADR 072): React Flow itself, and the d3 and store modules under
 * it, each its own chunk loaded only with the editor. Only these modules: what else they import (React)
 * stays where it was.
 */
const EDITOR_VENDOR_CHUNKS = {
  includeDependenciesRecursively: false,
  groups: [
    { name: 'xyflow', test: /[\\/]node_modules[\\/]@xyflow[\\/]/ },
    // zustand's selector hook goes with it: left in the editor's chunk, the two chunks would import each other.
    {
      name: 'xyflow-d3',
      test: /[\\/]node_modules[\\/](d3-[a-z]+[\\/]|zustand[\\/]|classcat[\\/]|use-sync-external-store[\\/].*with-selector)/,
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
      // React Flow (the automation editor's canvas) is over one lazy chunk's budget by itself (ADR 072).
      output: { codeSplitting: EDITOR_VENDOR_CHUNKS },
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
