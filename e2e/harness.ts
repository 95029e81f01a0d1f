import { type ChildProcess, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { E2E_TEMPLATE_DB } from './global-setup.ts';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Browser tests need the system Chromium; without it (a laptop with only Node) they are skipped. */
export const hasChromium = fs.existsSync(CHROMIUM);
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
/**
 * The binary the tests launch: Chromium's headless shell where Debian's `chromium-headless-shell` is
 * installed beside it (the same engine and version; what Playwright itself runs for headless tests), else
 * the full browser. The shell draws no browser window and needs less CPU (ADR 112). CHROMIUM_PATH names
 * one binary for both.
 */
export const BROWSER_BINARY =
  process.env.CHROMIUM_PATH || !fs.existsSync(HEADLESS_SHELL) ? CHROMIUM : HEADLESS_SHELL;

const root = path.resolve(import.meta.dirname, '..');

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

export type Platform = {
  port: number;
  /** http://<host>:<port><path>, e.g. url('/login') or url('/login', 'acme.localhost'). */
  url: (p?: string, host?: string) => string;
  browser: Browser;
  newPage: (opts?: {
    locale?: string;
    userAgent?: string;
    viewport?: { width: number; height: number };
  }) => Promise<{ page: Page; context: BrowserContext }>;
  /** The platform's database when it is a copy of the run's template (null: the server's own embedded one). */
  databaseUrl: string | null;
  stop: () => Promise<void>;
};

/**
 * Browsers in tests ask for reduced motion, which the app honours (its theme's respectReducedMotion): no
 * menu, modal or section is mid-animation when a test clicks it. On a loaded machine a click is a press and
 * a release some time apart, and a target still moving between them gets no click.
 */
export const BROWSER_MOTION = 'reduce' as const;

/** The platforms this test file has running: what a failed test prints about them (e2e/setup.ts). */
const running = new Set<{ browser: Browser; log: () => string }>();
/** The last things each browser context went through: navigations, failed requests, page errors. */
const trail = new WeakMap<BrowserContext, string[]>();

/** Keeps a short trail of what a context goes through, printed when a test fails. */
export function watch(context: BrowserContext): BrowserContext {
  const events: string[] = [];
  trail.set(context, events);
  const t0 = Date.now();
  const note = (what: string) => {
    events.push(`+${Date.now() - t0}ms ${what}`);
    if (events.length > 40) events.shift();
  };
  const path = (url: string) => url.replace(/^https?:\/\/[^/]+/, '');
  context.on('page', (page) =>
    page.on('framenavigated', (f) => {
      if (f === page.mainFrame()) note(`navigated to ${path(f.url())}`);
    }),
  );
  context.on('response', (r) => {
    const method = r.request().method();
    // Failures, and every change asked of the API (did the click send it?).
    if (r.status() >= 400 || (method !== 'GET' && r.url().includes('/api/')))
      note(`${r.status()} ${method} ${path(r.url())}`);
  });
  context.on('requestfailed', (r) =>
    note(`failed ${r.method()} ${path(r.url())}: ${r.failure()?.errorText}`),
  );
  context.on('weberror', (e) => note(`page error: ${String(e.error()).slice(0, 300)}`));
  context.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning')
      note(`console ${m.type()}: ${m.text().slice(0, 300)}`);
  });
  return context;
}

/**
 * What each open page shows (its address and the start of its text) and the end of each server's log, so
 * that a failure in CI says what the browser was looking at.
 */
export async function diagnose(): Promise<string> {
  const lines: string[] = [];
  for (const run of running) {
    for (const context of run.browser.contexts()) {
      const events = trail.get(context);
      if (events?.length) lines.push(`trail of a browser context:\n  ${events.join('\n  ')}`);
      for (const page of context.pages()) {
        const text = await page
          .locator('body')
          .innerText({ timeout: 2_000 })
          .catch((err: unknown) => `(no text: ${String(err).split('\n')[0]})`);
        lines.push(`page ${page.url()}\n  ${text.replace(/\s+/g, ' ').slice(0, 600)}`);
      }
    }
    lines.push(`server log (end):\n${run.log().slice(-3_000)}`);
  }
  return lines.join('\n');
}

/** Settings that change what the first start seeds: a platform with one of them seeds its own database. */
const SEED_SETTINGS = ['DATABASE_URL', 'MAIN_DOMAIN', 'DEMO_DATA', 'NODE_ENV'];

/**
 * The database of a platform of this run: a copy of the run's demo template (e2e/global-setup.ts) when the
 * platform's settings seed the same data, else none (the server starts its own embedded PostgreSQL under
 * its DATA_DIR, initdb, migrations and demo data, as a first `npm start` does).
 */
async function platformDatabase(env: Record<string, string>) {
  if (SEED_SETTINGS.some((key) => key in env)) return undefined;
  const adminUrl = inject('e2ePgAdminUrl');
  if (!adminUrl) return undefined;
  const name = `stn_e2e_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name} template ${E2E_TEMPLATE_DB}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const a = new pg.Client({ connectionString: adminUrl });
      await a.connect();
      await a.query(`drop database if exists ${name} with (force)`).finally(() => a.end());
    },
  };
}

/**
 * Spawns the server as `npm start` does (its bundle, built by e2e/global-setup.ts) and waits for it to
 * listen. The port is found free first, but another process (a browser, a connection's local port) may take
 * it before the server listens: then the server says EADDRINUSE, and it starts again on another port.
 */
async function startServer(
  dataDir: string,
  databaseUrl: string,
  env: Record<string, string>,
): Promise<{ child: ChildProcess; port: number; output: () => string }> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const child: ChildProcess = spawn(process.execPath, ['--enable-source-maps', inject('e2eServerBundle')], {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl,
        LOG_LEVEL: 'warn',
        ...env,
      },
    });
    let out = '';
    child.stdout?.on('data', (d) => (out += d));
    child.stderr?.on('data', (d) => (out += d));
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 90_000);
        const check = () => {
          if (out.includes('Press Ctrl+C to stop')) {
            clearTimeout(timer);
            resolve();
          }
        };
        child.stdout?.on('data', check);
        child.on('exit', (code) => {
          clearTimeout(timer);
          reject(new Error(`server exited with ${code}:\n${out}`));
        });
      });
      return { child, port, output: () => out };
    } catch (err) {
      if (attempt >= 3 || !out.includes('EADDRINUSE')) throw err;
    }
  }
}

/**
 * Starts the whole platform as `npm start` does (fresh data folder, demo data) and a headless Chromium.
 * The demo data comes from a copy of the run's template database, the same rows a first start seeds.
 */
export async function startPlatform(env: Record<string, string> = {}): Promise<Platform> {
  if (!fs.existsSync(path.join(root, 'apps/web/dist/index.html'))) {
    throw new Error('apps/web/dist is missing: npm test builds it first (npm run build -w apps/web)');
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'stn-e2e-'));
  const database = await platformDatabase(env);
  // The browser starts while the server does (each mostly waits on its own work).
  const launching = chromium.launch({
    executablePath: BROWSER_BINARY,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      // acme.localhost and friends go to this machine's loopback.
      '--host-resolver-rules=MAP *.localhost 127.0.0.1, MAP localhost 127.0.0.1',
    ],
  });
  const [server, launched] = await Promise.allSettled([
    startServer(dataDir, database?.url ?? '', env),
    launching,
  ]);
  if (server.status === 'rejected' || launched.status === 'rejected') {
    if (launched.status === 'fulfilled') await launched.value.close().catch(() => undefined);
    if (server.status === 'fulfilled') server.value.child.kill('SIGKILL');
    await database?.drop().catch(() => undefined);
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw server.status === 'rejected' ? server.reason : (launched as PromiseRejectedResult).reason;
  }
  const { child, port, output } = server.value;
  const browser = launched.value;
  const run = { browser, log: output };
  running.add(run);
  return {
    port,
    url: (p = '/', host = 'localhost') => `http://${host}:${port}${p}`,
    browser,
    databaseUrl: database?.url ?? null,
    newPage: async (opts = {}) => {
      const context = watch(
        await browser.newContext({
          locale: opts.locale ?? 'en-US',
          viewport: opts.viewport ?? { width: 1280, height: 800 },
          ...(opts.userAgent ? { userAgent: opts.userAgent } : {}),
          reducedMotion: BROWSER_MOTION,
        }),
      );
      return { page: await context.newPage(), context };
    },
    stop: async () => {
      running.delete(run);
      await browser.close().catch(() => undefined);
      await new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.on('exit', () => resolve());
        child.kill('SIGTERM');
      });
      await database?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const DEMO = {
  superAdmin: { email: 'admin@demo.test', password: 'demo-admin-1' },
  mainAgency: { email: 'agency@demo.test', password: 'demo-agency-1' },
  acmeAgency: { email: 'owner@acme.test', password: 'demo-acme-1' },
  acmeAccountManager: { email: 'accounts@acme.test', password: 'demo-acme-2' },
  dentalAdmin: { email: 'admin@brightdental.test', password: 'demo-dental-1' },
  dentalSales: { email: 'sales@brightdental.test', password: 'demo-dental-3' },
};

/**
 * Waits until the page has rendered `frames` more frames, and their effects have run: what a click or a
 * load was going to start (a request, a timer, an element) has started by then. The way to check that
 * something did not happen, without waiting for a time.
 */
export async function renderedFrames(page: Page, frames = 2): Promise<void> {
  for (let i = 0; i < frames; i++)
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve))));
}

/**
 * The visible track of a Mantine Switch whose input is `input`: what a person clicks. Its input is hidden,
 * so a test could only force a click on it, and a forced click lands on whatever covers the switch then (a
 * notification sliding in at the bottom of the screen, say) without toggling it. A click on the track waits
 * until nothing covers it.
 */
export function switchTrack(input: Locator): Locator {
  return input.locator('xpath=following-sibling::span[1]');
}

/** Signs in through the login screen on a new page of `p`, and waits until the app lands on `landing`. */
export async function signedInPage(
  p: Platform,
  who: { email: string; password: string },
  landing: string,
  host?: string,
): Promise<Page> {
  const { page } = await p.newPage();
  await signIn(page, p.url('/login', host), who);
  await page.waitForURL(landing);
  return page;
}

/** The message Mantine shows under a field (the element its input is described by). */
export async function fieldError(page: Page, testId: string): Promise<string> {
  const input = page.getByTestId(testId);
  await expect.poll(() => input.getAttribute('aria-invalid')).toBe('true');
  const ids = ((await input.getAttribute('aria-describedby')) ?? '').split(/\s+/);
  const errorId = ids.find((id) => id.endsWith('-error'));
  if (!errorId) throw new Error(`no error element for ${testId}`);
  return (await page.locator(`[id="${errorId}"]`).textContent()) ?? '';
}

/** Calls the API from the page, with the session the app keeps in it. */
export async function apiFrom<T = unknown>(page: Page, method: string, path: string, body?: unknown) {
  return page.evaluate(
    async ([m, u, b]) => {
      const res = await fetch(`/api${u}`, {
        method: m as string,
        headers: {
          authorization: `Bearer ${localStorage.getItem('access_token')}`,
          ...(b === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: b === undefined ? undefined : JSON.stringify(b),
      });
      return { status: res.status, body: (await res.json().catch(() => null)) as unknown };
    },
    [method, path, body] as const,
  ) as Promise<{ status: number; body: T }>;
}

/** Signs in through the login screen. */
export async function signIn(page: Page, url: string, who: { email: string; password: string }) {
  await page.goto(url);
  await page.getByTestId('login-email').fill(who.email);
  await page.getByTestId('login-password').fill(who.password);
  await page.getByTestId('login-submit').click();
}

/**
 * Opens an accordion section by its toggle and waits until it has finished opening. Its panel's content is
 * laid out from the first frame of the opening animation, so a click during it can press on a switch and
 * release, a moment later, on the panel that grew under the pointer (no click on the switch); and before
 * the panel is shown it is inert, so a focus goes nowhere. Mantine's Collapse drops its inline height and
 * overflow once the opening has ended: that is what this waits for.
 */
export async function openSection(page: Page, toggleTestId: string, sectionTestId: string): Promise<void> {
  const toggle = page.getByTestId(toggleTestId);
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  await page.waitForFunction(
    (id) => {
      const panel = document.querySelector(`[data-testid="${id}"] [role="region"]`) as HTMLElement | null;
      // With reduced motion there is no animation: the panel is simply there (no aria-hidden at all).
      return (
        panel !== null &&
        panel.getAttribute('aria-hidden') !== 'true' &&
        !panel.hasAttribute('inert') &&
        panel.style.height === '' &&
        panel.style.overflow === ''
      );
    },
    sectionTestId,
    { timeout: 20_000 },
  );
}

/**
 * The routes of the sidebar's menu, groups included. A closed group's items are not drawn while motion is
 * reduced (BROWSER_MOTION), so every group is opened first, as a person would to see what is inside.
 */
export async function sidebarRoutes(page: Page): Promise<string[]> {
  const sidebar = page.getByTestId('sidebar');
  await sidebar.waitFor();
  // Nested groups appear as their parents open: a few rounds at most.
  for (let round = 0; round < 5; round++) {
    const closed = sidebar.locator('[data-testid="sidebar-group"]:not([data-expanded]):not([data-disabled])');
    const n = await closed.count();
    if (n === 0) break;
    for (let i = 0; i < n; i++) await closed.first().click();
  }
  return sidebar
    .locator('[data-route]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-route') ?? ''));
}

/**
 * Signs in through the API and answers a JSON caller with that session's bearer token: each call answers
 * its status and body (tests that set up data, or check what the server stored).
 */
export async function apiAs(p: Platform, who: { email: string; password: string }) {
  const res = await fetch(p.url('/api/v1/login'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(who),
  });
  if (res.status !== 200)
    throw new Error(`${who.email} could not sign in: ${res.status} ${await res.text()}`);
  const token = ((await res.json()) as { access_token: string }).access_token;
  return async <T>(path: string, init: { method?: string; body?: unknown } = {}) => {
    const r = await fetch(p.url(`/api${path}`), {
      method: init.method ?? 'GET',
      headers: {
        authorization: `Bearer ${token}`,
        ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    });
    return { status: r.status, body: (await r.json()) as T };
  };
}

/**
 * Clicks a footer's Terms of Service or Privacy Policy link and checks that the public page modal opens
 * on this page with the page's title and its HTML content (`html` names an element of that content and
 * its text: markup shown as markup, not as text), then closes it with Escape.
 */
export async function checkPageModal(
  page: Page,
  linkTestId: string,
  expected: { title: string; html: { selector: string; text: string } },
): Promise<void> {
  const wait = { timeout: 30_000 };
  const before = page.url();
  await page.getByTestId(linkTestId).click();
  const title = page.getByTestId('public-page-title');
  await title.waitFor(wait);
  expect(await title.innerText()).toBe(expected.title);
  const content = page.frameLocator('[data-testid="public-page-content"]');
  await content.locator(expected.html.selector, { hasText: expected.html.text }).waitFor(wait);
  // A modal on the same page, not a link away from it.
  expect(page.url()).toBe(before);
  await page.keyboard.press('Escape');
  await title.waitFor({ state: 'detached', ...wait });
}
