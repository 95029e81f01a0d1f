// Serving the website widget's files (modules/widget/assets.ts): the loader revalidated by ETag, the
// hashed app files immutable, precompressed bodies by Accept-Encoding, readable from any site, and a
// clear 503 when the widget was never built.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { buildApp } from '../../app.ts';

const LOADER = `(()=>{window.STNWidget={};${'/*pad*/'.repeat(200)}})();`;
const APP = `export function mount(){}${'/*pad*/'.repeat(300)}`;

let t: TestApp;
let dist: string;
let empty: string;
const apps: FastifyInstance[] = [];

function writeDist(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stn-widget-'));
  fs.mkdirSync(path.join(dir, 'widget'));
  for (const [name, text] of [
    ['widget.js', LOADER],
    ['widget/app-AB12CD34.js', APP],
  ] as const) {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(text));
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(text));
  }
  return dir;
}

async function appWith(widgetDist: string): Promise<FastifyInstance> {
  const app = await buildApp({ config: { ...t.config, widgetDist }, db: t.db });
  await app.ready();
  apps.push(app);
  return app;
}

beforeAll(async () => {
  t = await createTestApp();
  dist = writeDist();
  empty = fs.mkdtempSync(path.join(os.tmpdir(), 'stn-widget-empty-'));
});
afterAll(async () => {
  for (const app of apps) await app.close();
  await t?.close();
  for (const d of [dist, empty]) if (d) fs.rmSync(d, { recursive: true, force: true });
});

describe('GET /widget.js', () => {
  it('answers the loader as JavaScript any site may load, with a short cache and an ETag', async () => {
    const app = await appWith(dist);
    const res = await app.inject({ url: '/widget.js', headers: { origin: 'https://shop.example.com' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(res.headers['cache-control']).toBe('public, max-age=300, must-revalidate');
    expect(res.headers.vary).toContain('accept-encoding');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toBe(LOADER);
    const etag = String(res.headers.etag);
    expect(etag).toMatch(/^"[\w-]+"$/);

    const again = await app.inject({ url: '/widget.js', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('sends the brotli file when accepted, else the gzip one', async () => {
    const app = await appWith(dist);
    const br = await app.inject({ url: '/widget.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(LOADER);
    const gz = await app.inject({ url: '/widget.js', headers: { 'accept-encoding': 'gzip, br;q=0' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(LOADER);
  });

  it('without a build, is a 503 that says how to build the widget', async () => {
    const app = await appWith(empty);
    for (const url of ['/widget.js', '/widget/app-AB12CD34.js']) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(503);
      expect(res.body, url).toContain('npm run build -w apps/widget');
    }
  });
});

describe('GET /widget/<file>.js', () => {
  it('answers a hashed app file as immutable, precompressed when accepted', async () => {
    const app = await appWith(dist);
    const res = await app.inject({
      url: '/widget/app-AB12CD34.js',
      headers: { 'accept-encoding': 'br' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toBe(APP);
  });

  it('is a 404 for a file that is not there or a name that is not a chunk, never a file outside', async () => {
    const app = await appWith(dist);
    for (const url of [
      '/widget/app-OLD.js',
      '/widget/..%2Fwidget.js',
      '/widget/app-AB12CD34.js.br',
      '/widget/manifest.json',
    ]) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(404);
    }
  });
});
