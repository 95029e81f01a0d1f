// How the platform serves the web app (ADR 022): HSTS and upgrade-insecure-requests only over TLS,
// precompressed assets by Accept-Encoding, hashed assets cached for a year and index.html revalidated.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { ConfigError, loadConfig } from '../src/platform/config.ts';
import { createTestApp, type TestApp } from './helpers.ts';

const HTML = `<!doctype html><html><head><title>app</title></head><body>${'<p>splash</p>'.repeat(80)}</body></html>`;
const JS = `export const x = ${JSON.stringify('a'.repeat(4000))};`;

let t: TestApp;
let webDist: string;
const apps: FastifyInstance[] = [];

/** A built web app in miniature: index.html and one hashed asset (and more), each with its .br and .gz. */
function writeDist(more: [string, string][] = []): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stn-serving-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  const files: [string, string][] = [['index.html', HTML], ['assets/index-AbC123.js', JS], ...more];
  for (const [name, text] of files) {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(text));
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(text));
  }
  fs.writeFileSync(path.join(dir, 'assets/logo-Zz9.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  return dir;
}

async function appWith(tls: boolean): Promise<FastifyInstance> {
  const app = await buildApp({ config: { ...t.config, webDist, tls }, db: t.db });
  await app.ready();
  apps.push(app);
  return app;
}

beforeAll(async () => {
  t = await createTestApp();
  webDist = writeDist();
});
afterAll(async () => {
  for (const app of apps) await app.close();
  await t?.close();
  if (webDist) fs.rmSync(webDist, { recursive: true, force: true });
});

describe('TLS setting', () => {
  it('is off by default and on with TLS=on or an https PUBLIC_URL; TLS=off wins over the URL', () => {
    expect(loadConfig({}).tls).toBe(false);
    expect(loadConfig({ PUBLIC_URL: 'http://app.example.com' }).tls).toBe(false);
    expect(loadConfig({ TLS: 'on' }).tls).toBe(true);
    expect(loadConfig({ TLS: 'true' }).tls).toBe(true);
    expect(loadConfig({ PUBLIC_URL: 'https://app.example.com' }).tls).toBe(true);
    expect(loadConfig({ PUBLIC_URL: 'https://app.example.com', TLS: 'off' }).tls).toBe(false);
  });

  it('stops the start on a bad value, naming the setting', () => {
    expect(() => loadConfig({ TLS: 'maybe' })).toThrow(ConfigError);
    expect(() => loadConfig({ TLS: 'maybe' })).toThrow(/TLS: TLS must be on or off/);
  });

  it('without it, no answer asks the browser for https (no HSTS, no upgrade-insecure-requests)', async () => {
    const app = await appWith(false);
    for (const url of [
      '/',
      '/login',
      '/assets/index-AbC123.js',
      '/api/v1/settings/site-data/localhost',
      '/healthz',
    ]) {
      const res = await app.inject({ url, headers: { host: '192.168.1.20:3000' } });
      expect(res.statusCode, url).toBeLessThan(500);
      expect(res.headers['strict-transport-security'], url).toBeUndefined();
      expect(String(res.headers['content-security-policy']), url).not.toContain('upgrade-insecure-requests');
      expect(String(res.headers['content-security-policy']), url).toContain("script-src 'self'");
    }
  });

  it('with it, every answer carries HSTS and upgrade-insecure-requests', async () => {
    const app = await appWith(true);
    for (const url of ['/', '/login', '/assets/index-AbC123.js', '/api/v1/settings/site-data/localhost']) {
      const res = await app.inject({ url });
      expect(res.headers['strict-transport-security'], url).toBe('max-age=31536000; includeSubDomains');
      expect(String(res.headers['content-security-policy']), url).toContain('upgrade-insecure-requests');
    }
  });
});

describe('web app files', () => {
  it('sends the brotli copy to a browser that accepts it, gzip to one that takes only gzip, else the file', async () => {
    const app = await appWith(false);
    const br = await app.inject({
      url: '/assets/index-AbC123.js',
      headers: { 'accept-encoding': 'gzip, deflate, br, zstd' },
    });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(JS);
    expect(br.rawPayload.length).toBeLessThan(JS.length / 4);

    const gz = await app.inject({ url: '/assets/index-AbC123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(JS);

    const plain = await app.inject({
      url: '/assets/index-AbC123.js',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(JS);

    // A file with no compressed copy is sent as it is.
    const png = await app.inject({ url: '/assets/logo-Zz9.png', headers: { 'accept-encoding': 'br, gzip' } });
    expect(png.statusCode).toBe(200);
    expect(png.headers['content-encoding']).toBeUndefined();
  });

  it('compresses index.html too, at / and on deep links', async () => {
    const app = await appWith(false);
    for (const url of ['/', '/login', '/agency/users']) {
      const res = await app.inject({ url, headers: { 'accept-encoding': 'br' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-encoding'], url).toBe('br');
      expect(res.headers['content-type'], url).toMatch(/text\/html/);
      expect(zlib.brotliDecompressSync(res.rawPayload).toString(), url).toBe(HTML);
    }
  });

  it('lets any site frame the payment popup page (/popup.js opens it in an iframe); no other page', async () => {
    const app = await appWith(false);
    const popup = await app.inject({ url: '/popup?x=1' });
    expect(popup.statusCode).toBe(200);
    expect(popup.headers['x-frame-options']).toBeUndefined();
    expect(popup.headers['content-security-policy']).toContain('frame-ancestors *');
    expect(popup.headers['content-security-policy']).toContain("script-src 'self'");
    for (const url of ['/', '/login', '/agency/popup', '/popup/other']) {
      const res = await app.inject({ url });
      expect(res.headers['x-frame-options'], url).toBe('SAMEORIGIN');
      expect(res.headers['content-security-policy'], url).toContain("frame-ancestors 'self'");
    }
  });

  it('caches hashed assets for a year, immutable; index.html is revalidated every time', async () => {
    const app = await appWith(false);
    for (const url of ['/assets/index-AbC123.js', '/assets/logo-Zz9.png']) {
      const res = await app.inject({ url, headers: { 'accept-encoding': 'br' } });
      expect(res.headers['cache-control'], url).toBe('public, max-age=31536000, immutable');
    }
    for (const url of ['/', '/index.html', '/login', '/business/settings']) {
      const res = await app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.headers.etag, url).toBeTruthy();
    }
    // Revalidation is cheap: the same ETag answers 304.
    const first = await app.inject({ url: '/login', headers: { 'accept-encoding': 'gzip' } });
    const again = await app.inject({
      url: '/login',
      headers: { 'accept-encoding': 'gzip', 'if-none-match': String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it('answers a missing asset with 404, not index.html (an old chunk after a deploy fails clearly)', async () => {
    const app = await appWith(false);
    const res = await app.inject({ url: '/assets/gone-Old123.js', headers: { 'accept-encoding': 'br' } });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('<!doctype html>');
    const api = await app.inject({ url: '/api/v1/nothing-here' });
    expect(api.statusCode).toBe(404);
    expect(api.json().code).toBe('NOT_FOUND');
  });
});

describe('the light sign-in page (ADR 025)', () => {
  const LOGIN = `<!doctype html><html><head><title>login</title></head><body>${'<form></form>'.repeat(80)}</body></html>`;

  it('answers /login and /auth/login with login.html, compressed and revalidated like index.html', async () => {
    const dist = writeDist([['login.html', LOGIN]]);
    try {
      const app = await buildApp({ config: { ...t.config, webDist: dist, tls: false }, db: t.db });
      await app.ready();
      apps.push(app);
      for (const url of ['/login', '/login?redirect=%2Fagency%2Fusers', '/auth/login']) {
        const res = await app.inject({ url, headers: { 'accept-encoding': 'br' } });
        expect(res.statusCode, url).toBe(200);
        expect(res.headers['content-type'], url).toMatch(/text\/html/);
        expect(res.headers['content-encoding'], url).toBe('br');
        expect(res.headers['cache-control'], url).toBe('no-cache');
        expect(zlib.brotliDecompressSync(res.rawPayload).toString(), url).toBe(LOGIN);
        const again = await app.inject({
          url,
          headers: { 'accept-encoding': 'br', 'if-none-match': String(res.headers.etag) },
        });
        expect(again.statusCode, url).toBe(304);
      }
      // Every other page is still the app.
      for (const url of ['/', '/password/email', '/login/else', '/agency/login']) {
        const res = await app.inject({ url, headers: { 'accept-encoding': 'identity' } });
        expect(res.body, url).toBe(HTML);
      }
    } finally {
      fs.rmSync(dist, { recursive: true, force: true });
    }
  });
});
