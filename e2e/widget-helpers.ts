import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { BROWSER_MOTION, DEMO, type Platform, signIn, watch } from './harness.ts';

// Shared by the widget's browser tests (widget.spec.ts, widget-flows.spec.ts, widget-cross-origin.spec.ts):
// the business side (Bright Dental's BusinessAdmin, signed in on acme.localhost, changing the demo install
// through the API and playing the sandbox phones) and the visitor side (the demo page /widget-demo, or a
// business's own site on a second origin, in its own browser context, so that the widget's cached config
// never leaks from one test into the next).

export const HOST = 'acme.localhost';
export const WAIT = { timeout: 20_000 };
/** The demo install's staff phones (seed.ts). */
export const STAFF = ['+15005550101', '+15005550102'] as const;

export type Admin = { page: Page; installId: number; key: string };

/** A JSON call to the API with the admin's bearer token, from the admin's page. */
export async function api<T = unknown>(
  admin: Pick<Admin, 'page'>,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: T }> {
  return admin.page.evaluate(
    async ({ method, path, body }) => {
      const token = localStorage.getItem('access_token');
      const res = await fetch(path, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, json: await res.json().catch(() => null) };
    },
    { method, path, body },
  );
}

/** Signs Bright Dental's BusinessAdmin in and finds the demo install (its id and key). */
export async function adminSession(p: Platform): Promise<Admin> {
  const { page } = await p.newPage();
  await signIn(page, p.url('/login', HOST), DEMO.dentalAdmin);
  await page.waitForURL('**/business/**');
  const all = await api<{ data: { id: number; name: string }[] }>({ page }, 'GET', '/api/v1/installs/all');
  const demo = all.json.data.find((i) => i.name === 'Bright Dental website') ?? all.json.data[0];
  if (!demo) throw new Error('no demo install');
  const one = await api<{ data: { key: string } }>({ page }, 'GET', `/api/v1/installs/${demo.id}`);
  return { page, installId: demo.id, key: one.json.data.key };
}

/** Changes some of the demo install's settings (PUT /v1/installs/{id}/setting). */
export async function setSettings(admin: Admin, settings: Record<string, unknown>): Promise<void> {
  const res = await api(admin, 'PUT', `/api/v1/installs/${admin.installId}/setting`, { settings });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
}

const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
/** Open every day, all day: a callback rings whatever the hour the test runs at. */
export const ALL_WEEK = Object.fromEntries(
  DAYS.map((d) => [d, { open: true, from: '12:00AM', to: '11:59PM' }]),
);

export type Visitor = { page: Page; context: BrowserContext; requests: string[]; problems: string[] };

/** A business's own website: a page on another origin than the platform's, with the install's embed code. */
export type Site = { url: string; embed: string; close: () => Promise<void> };

/** The install's embed code, as the installs screen shows it (GET /v1/installs/{id}/embed-code). */
export async function embedCode(admin: Admin): Promise<string> {
  const res = await api<{ data: { code: string } }>(
    admin,
    'GET',
    `/api/v1/installs/${admin.installId}/embed-code`,
  );
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return res.json.data.code;
}

/**
 * Serves a plain small-business page with the install's embed code pasted at the end of its body, from
 * 127.0.0.1 on a port of its own: another origin than the platform's (whose embed code names the agency's
 * host, acme.localhost:<port>). Every widget flow can run there as on a real customer's site: the loader,
 * the app chunks, the API calls (with their CORS preflights) and the event stream all cross origins.
 * `embed`: another code to paste instead (an embedded form's, which loads the same widget.js).
 */
export async function customerSite(admin: Admin, opts: { embed?: string } = {}): Promise<Site> {
  const embed = opts.embed ?? (await embedCode(admin));
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bright Dental</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><header><h1>Bright Dental</h1><nav><a href="/">Home</a> <a href="/">Team</a></nav></header>
<main><p>Family dentistry on Main Street. New patients welcome.</p></main>
${embed}
</body></html>`;
  const server = http.createServer((req, res) => {
    if (req.url === '/' || req.url?.startsWith('/?')) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(html);
    } else if (req.url === '/favicon.ico') {
      res.writeHead(204);
      res.end();
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('Not found');
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    embed,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A visitor on the demo page (hostile unless `plain`), in a fresh browser context: its own cache, locale
 * and time zone. `requests` collects the widget API's request URLs (method and path).
 */
export async function visit(
  p: Platform,
  admin: Admin,
  opts: { plain?: boolean; locale?: string; timezoneId?: string; widget?: boolean; site?: Site } = {},
): Promise<Visitor> {
  const context = watch(
    await p.browser.newContext({
      locale: opts.locale ?? 'en-US',
      timezoneId: opts.timezoneId,
      viewport: { width: 1280, height: 800 },
      reducedMotion: BROWSER_MOTION,
    }),
  );
  const page = await context.newPage();
  const requests: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith('/api/widget/')) requests.push(`${r.method()} ${url.pathname}`);
  });
  // What a blocked cross-origin call leaves behind: a failed request, a console error (CORS, CORP).
  const problems: string[] = [];
  page.on('requestfailed', (r) =>
    problems.push(`failed ${r.method()} ${r.url()}: ${r.failure()?.errorText}`),
  );
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  await page.goto(
    opts.site?.url ??
      p.url(`/widget-demo?install=${encodeURIComponent(admin.key)}${opts.plain ? '&plain=1' : ''}`),
  );
  if (opts.widget !== false) await hostOf(page).waitFor({ state: 'attached', ...WAIT });
  return { page, context, requests, problems };
}

/** The widget's host element (its shadow root is open: Playwright's locators reach inside). */
export const hostOf = (page: Page): Locator => page.locator('[data-stn-widget]');

/** The data-testid of the element focused inside the widget's shadow root, or null when focus is outside. */
export async function focusedInWidget(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const host = document.querySelector('[data-stn-widget]');
    if (!host || document.activeElement !== host) return null;
    const inner = host.shadowRoot?.activeElement ?? null;
    if (!inner) return '(host)';
    return inner.getAttribute('data-testid') ?? `${inner.tagName.toLowerCase()}`;
  });
}

/** The sandbox phones, as the Sandbox Phones screen sees them. */
export type SandboxPhone = {
  number: string;
  state: string;
  call: { gathering: boolean; heard: string[] } | null;
  texts: { direction: 'in' | 'out'; other: string; body: string }[];
};

export async function phones(admin: Admin): Promise<SandboxPhone[]> {
  return (await api<{ data: SandboxPhone[] }>(admin, 'GET', '/api/v1/sandbox/phones')).json.data;
}

export async function phoneState(admin: Admin, number: string): Promise<string> {
  return (await phones(admin)).find((ph) => ph.number === number)?.state ?? 'idle';
}

/** A sandbox phone answers, hangs up, or presses digits. */
export async function act(admin: Admin, number: string, action: 'answer' | 'hangup'): Promise<void> {
  const res = await api(admin, 'POST', `/api/v1/sandbox/phones/${encodeURIComponent(number)}/${action}`);
  expect(res.status, JSON.stringify(res.json)).toBe(200);
}

export async function press(admin: Admin, number: string, digits: string): Promise<void> {
  const res = await api(admin, 'POST', `/api/v1/sandbox/phones/${encodeURIComponent(number)}/press`, {
    digits,
  });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
}

/** A sandbox phone sends the call it is rung with to voicemail (nobody takes it). */
export async function voicemail(admin: Admin, number: string): Promise<void> {
  const res = await api(admin, 'POST', `/api/v1/sandbox/phones/${encodeURIComponent(number)}/voicemail`);
  expect(res.status, JSON.stringify(res.json)).toBe(200);
}

/** The callback's progress the open widget shows (finding, calling_you, connected, completed, missed). */
export const callStatus = (page: Page) => page.getByTestId('stn-status').getAttribute('data-status');

/** The visitor asks for a callback in the open page's widget. */
export async function askCallback(page: Page, visitor: string, name?: string): Promise<void> {
  await page.getByTestId('stn-trigger-call').click();
  await page.getByTestId('stn-phone').fill(visitor);
  if (name && (await page.getByTestId('stn-name').count())) await page.getByTestId('stn-name').fill(name);
  await page.getByTestId('stn-submit').click();
}

/**
 * A ringing callback taken to its end on the sandbox phones, the widget following each step: a staff
 * phone answers and presses 1 (calling you), the visitor answers (connected) and hangs up (completed).
 */
export async function claimAndConnect(
  admin: Admin,
  page: Page,
  staff: string,
  visitor: string,
): Promise<void> {
  await act(admin, staff, 'answer');
  await expect
    .poll(async () => (await phones(admin)).find((ph) => ph.number === staff)?.call?.gathering, WAIT)
    .toBe(true);
  expect(await callStatus(page)).toBe('finding');
  await press(admin, staff, '1');
  await expect.poll(() => phoneState(admin, visitor), WAIT).toBe('ringing');
  await expect.poll(() => callStatus(page), WAIT).toBe('calling_you');
  await act(admin, visitor, 'answer');
  await expect.poll(() => phoneState(admin, visitor), WAIT).toBe('in-call');
  await expect.poll(() => callStatus(page), WAIT).toBe('connected');
  await act(admin, visitor, 'hangup');
  await expect.poll(() => callStatus(page), WAIT).toBe('completed');
  await expect.poll(() => phoneState(admin, staff), WAIT).toBe('idle');
}

/** Every staff phone rings and sends the callback to voicemail: the widget says it was missed. */
export async function missAll(admin: Admin, page: Page): Promise<void> {
  for (const staff of STAFF) await expect.poll(() => phoneState(admin, staff), WAIT).toBe('ringing');
  await expect.poll(() => callStatus(page), WAIT).toBe('finding');
  for (const staff of STAFF) await voicemail(admin, staff);
  await expect.poll(() => callStatus(page), WAIT).toBe('missed');
}

/** When the business's scheduled call with a visitor phone is due (ms since the epoch), or null. */
export async function scheduledFor(admin: Admin, visitor: string): Promise<number | null> {
  type Scheduled = { visitor_phone: string; scheduled_for: string | null };
  const res = await api<{ data: Scheduled[] }>(admin, 'GET', '/api/v1/scheduled-calls?perPage=100');
  const mine = (res.json.data ?? []).find((c) => c.visitor_phone === visitor);
  return mine?.scheduled_for ? new Date(mine.scheduled_for).getTime() : null;
}

/** The number a countdown shows (its last group of digits). */
export function seconds(text: string | null): number {
  const groups = (text ?? '').match(/\d+/g);
  return groups ? Number(groups[groups.length - 1]) : Number.NaN;
}

/** The latest code texted to a visitor's sandbox phone to show the business's replies in the widget. */
export async function textedCode(admin: Admin, number: string): Promise<string | null> {
  const texts = (await phones(admin)).find((ph) => ph.number === number)?.texts ?? [];
  let code: string | null = null;
  for (const t of texts) {
    const m = t.direction === 'in' ? /(\d{6}) is your code/.exec(t.body) : null;
    if (m?.[1]) code = m[1];
  }
  return code;
}

/** The visitor enters the code texted to their phone; the widget then shows the replies. */
export async function enterCode(admin: Admin, page: Page, number: string): Promise<void> {
  let code: string | null = null;
  await expect
    .poll(async () => {
      code = await textedCode(admin, number);
      return code;
    }, WAIT)
    .toMatch(/^\d{6}$/);
  await page.getByTestId('stn-code').fill(code ?? '');
  await page.getByTestId('stn-code-submit').click();
  await page.getByTestId('stn-code-form').waitFor({ state: 'detached', ...WAIT });
}

/** A PNG of one colour, w x h, as a data URL (the install's images are uploaded as data URLs). */
export function png(w: number, h: number, rgb: [number, number, number]): string {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(td));
    return Buffer.concat([len, td, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: w }, () => rgb).flat())]);
  const raw = Buffer.concat(Array.from({ length: h }, () => row));
  const file = Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', ihdr),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  return `data:image/png;base64,${file.toString('base64')}`;
}
