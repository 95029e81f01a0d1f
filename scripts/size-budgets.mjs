// The size budgets, in one place (ADR 060): `npm test` fails past them (e2e/size-budgets.spec.ts reads the
// built apps) and `npm run bench` prints its figures against them (bench/widget.mjs, bench/web-size.mjs).
// A size is the file gzipped at level 9, as the build precompresses it and the server sends it.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const KiB = 1024;

export const BUDGETS = {
  widgetLoader: { label: 'widget loader (/widget.js)', max: 3 * KiB },
  widgetFirstOpen: { label: 'widget first open (loader + config + app chunk)', max: 25 * KiB },
  widgetLead: { label: 'widget lead form (its chunk + what it imports: an embedded form)', max: 12 * KiB },
  webInitial: { label: "web app initial JavaScript (index.html's entry and modulepreloads)", max: 200 * KiB },
  webChunk: { label: 'web app lazy chunk (each)', max: 50 * KiB },
  webLanding: {
    label: 'light landing page (landing.html + the JavaScript it loads, ADR 080)',
    max: 16 * KiB,
  },
};

/**
 * The first open also downloads the install's config (GET /api/widget/v1/config), an answer of the server
 * that no build holds: the check keeps this much of the budget for it (`npm run bench` measures the demo
 * install's real answer).
 */
export const WIDGET_CONFIG_ALLOWANCE = 2 * KiB;

const root = path.resolve(import.meta.dirname, '..');
/** The built apps; STN_WEB_DIST and STN_WIDGET_DIST point the check at other builds (the fixtures). */
export const DIST = {
  web: path.resolve(root, process.env.STN_WEB_DIST ?? 'apps/web/dist'),
  widget: path.resolve(root, process.env.STN_WIDGET_DIST ?? 'apps/widget/dist'),
};

export const kib = (bytes) => `${(bytes / KiB).toFixed(1)} KiB`;
export const gzipSize = (file) => zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;

function readManifest(file, build) {
  if (!fs.existsSync(file)) {
    throw new Error(
      `no ${path.relative(root, file)}: build first (${build}); a missing build fails the budgets`,
    );
  }
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

/** A chunk of Vite's manifest and every chunk it imports statically (what loads with it): files. */
export function staticClosure(manifest, key, seen = new Set()) {
  const chunk = manifest[key];
  if (!chunk || seen.has(chunk.file)) return seen;
  seen.add(chunk.file);
  for (const imp of chunk.imports ?? []) staticClosure(manifest, imp, seen);
  return seen;
}

/** The web app's own figures: what index.html loads before any route, and every other chunk. */
export function measureWeb(dist = DIST.web) {
  const manifest = readManifest(path.join(dist, '.vite/manifest.json'), 'npm run build -w apps/web');
  if (!manifest['index.html']) throw new Error(`${dist}: the manifest has no index.html entry`);
  const initialFiles = [...staticClosure(manifest, 'index.html')].filter((f) => f.endsWith('.js'));
  const initial = new Set(initialFiles);
  const chunks = fs
    .readdirSync(path.join(dist, 'assets'))
    .filter((f) => f.endsWith('.js') && !initial.has(`assets/${f}`))
    .map((f) => ({ file: `assets/${f}`, size: gzipSize(path.join(dist, 'assets', f)) }))
    .sort((a, b) => b.size - a.size);
  // The light landing page: its document (before the server adds the site data) and its module's closure.
  const landingFiles = manifest['landing.html']
    ? ['landing.html', ...[...staticClosure(manifest, 'landing.html')].filter((f) => f.endsWith('.js'))]
    : [];
  return {
    initial: initialFiles.reduce((n, f) => n + gzipSize(path.join(dist, f)), 0),
    initialFiles,
    chunks,
    landing: landingFiles.reduce((n, f) => n + gzipSize(path.join(dist, f)), 0),
    landingFiles,
  };
}

/**
 * The widget's own figures: the loader; what its first open downloads besides the config (the app chunk and
 * the chunk it imports, Preact, shared with the lead form: `app_with`); and the lead form chunk with what it
 * imports (`lead_with`: what an embedded form downloads after the loader; the panel's lead form, opened
 * after another mode, adds the lead chunk alone).
 */
export function measureWidget(dist = DIST.widget) {
  const manifest = readManifest(path.join(dist, 'manifest.json'), 'npm run build -w apps/widget');
  const size = (files) => files.reduce((n, f) => n + gzipSize(path.join(dist, f)), 0);
  if (!manifest.lead) throw new Error(`${dist}: the manifest names no lead form chunk (build.mjs writes it)`);
  const loader = gzipSize(path.join(dist, manifest.loader));
  const app = size(manifest.app_with ?? [manifest.app]);
  const lead = size(manifest.lead_with ?? [manifest.lead]);
  const leadOwn = gzipSize(path.join(dist, manifest.lead));
  return { manifest, loader, app, lead, leadOwn };
}

/** Every budget against the built apps: `{ label, size, max, detail }`, one per budget (the chunks' by the largest). */
export function checkBudgets(dist = DIST) {
  const widget = measureWidget(dist.widget);
  const web = measureWeb(dist.web);
  return [
    { ...BUDGETS.widgetLoader, size: widget.loader, detail: widget.manifest.loader },
    {
      ...BUDGETS.widgetFirstOpen,
      size: widget.loader + WIDGET_CONFIG_ALLOWANCE + widget.app,
      detail: `${widget.manifest.loader} + ${kib(WIDGET_CONFIG_ALLOWANCE)} kept for the config + ${(widget.manifest.app_with ?? [widget.manifest.app]).join(' + ')}`,
    },
    {
      ...BUDGETS.widgetLead,
      size: widget.lead,
      detail: `${(widget.manifest.lead_with ?? [widget.manifest.lead]).join(' + ')}; the lead chunk alone ${kib(widget.leadOwn)}`,
    },
    { ...BUDGETS.webInitial, size: web.initial, detail: `${web.initialFiles.length} files` },
    { ...BUDGETS.webChunk, size: web.chunks[0]?.size ?? 0, detail: `largest: ${web.chunks[0]?.file}` },
    {
      ...BUDGETS.webLanding,
      // A build without the page fails the budget rather than passing it.
      size: web.landingFiles.length ? web.landing : Number.POSITIVE_INFINITY,
      detail: `${web.landingFiles.length} files`,
    },
  ];
}
