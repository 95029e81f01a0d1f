import { readFile } from 'node:fs/promises';
import type { TAgencyAnalytics, TBusinessAnalytics } from '@stn/contracts/analytics';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiFrom,
  DEMO,
  fieldError,
  hasChromium,
  type Platform,
  signedInPage,
  startPlatform,
} from './harness.ts';

// The dashboards (issue 24) in Chromium against the real server: Bright Dental's BusinessAdmin sees the
// business dashboard's figures equal the API's answer for the same range, its charts drawn, the range kept in
// the address (presets and typed dates, an empty past range shows zeros, a range the server refuses shows
// its message under the dates), and a CSV whose totals are the screen's; Acme's agency owner sees the agency
// dashboard's ranking and charts. The figures are compared with the API's, never with numbers written here:
// the demo data decides them. So that there is at least one, a visitor's phone texts the install's number
// first (a text in, and a conversation started), and the test waits until the rollups have it.

let p: Platform;
const HOST = 'acme.localhost';
const INSTALL_NUMBER = '+15005550006';
const VISITOR = '+14155550188';
const WAIT = { timeout: 30_000 };

/** The counters the business dashboard shows as cards, with the leads (every source). */
const CARDS = [
  'callbacks_requested',
  'callbacks_answered',
  'callbacks_missed',
  'texts_in',
  'texts_out',
  'conversations_started',
  'opt_outs',
] as const;

type Envelope<T> = { success: true; data: T };

async function businessApi(page: Page, from: string, to: string): Promise<TBusinessAnalytics> {
  const res = await apiFrom<Envelope<TBusinessAnalytics>>(page, 'POST', '/v1/business/analytics', {
    from,
    to,
  });
  expect(res.status).toBe(200);
  return res.body.data;
}

const leadsOf = (c: TBusinessAnalytics['totals']) =>
  c.leads_callback + c.leads_text + c.leads_booking + c.leads_form;

/** A card's raw figure (data-value); null when the card has none (an empty time to connect). */
async function figure(page: Page, id: string): Promise<number | null> {
  const v = await page.getByTestId(`stat-${id}`).getAttribute('data-value');
  return v === null ? null : Number(v);
}

/** The screen's figures, as the API's totals are keyed. */
async function screenFigures(page: Page) {
  const out: Record<string, number | null> = {};
  for (const id of [...CARDS, 'leads', 'connect_median']) out[id] = await figure(page, id);
  return out;
}

function apiFigures(a: TBusinessAnalytics) {
  const out: Record<string, number | null> = {};
  for (const id of CARDS) out[id] = a.totals[id];
  out.leads = leadsOf(a.totals);
  out.connect_median = a.connect.median;
  return out;
}

/** The range the dashboard shows: its date inputs. */
async function shownRange(page: Page) {
  return {
    from: await page.getByTestId('range-from').inputValue(),
    to: await page.getByTestId('range-to').inputValue(),
  };
}

/** The dashboard has drawn the figures of exactly this range (the previous range's stay until then). */
async function waitForRange(page: Page, testId: string, from: string, to: string) {
  await page.locator(`[data-testid="${testId}"][data-from="${from}"][data-to="${to}"]`).waitFor(WAIT);
}

describe.skipIf(!hasChromium)('the dashboards in Chromium', () => {
  let page: Page;

  beforeAll(async () => {
    p = await startPlatform();
    page = await signedInPage(p, DEMO.dentalAdmin, '**/business/**', HOST);
    // A visitor's text to the install's number: the rollups have something in the last 30 days.
    const sent = await apiFrom(page, 'POST', `/v1/sandbox/phones/${encodeURIComponent(VISITOR)}/texts`, {
      to: INSTALL_NUMBER,
      body: 'Hello, do you open on Saturdays?',
    });
    expect(sent.status).toBe(200);
    await page.goto(p.url('/business/dashboard', HOST));
    await page.getByTestId('business-dashboard').waitFor(WAIT);
    const { from, to } = await shownRange(page);
    // The event marks the day and a job rebuilds it (ADR 081): a moment later the API counts the text.
    // (expect.poll is for tests only: a loop here.)
    const until = Date.now() + WAIT.timeout;
    while ((await businessApi(page, from, to)).totals.texts_in === 0) {
      if (Date.now() > until) throw new Error('the rollups never counted the visitor text');
      await new Promise((r) => setTimeout(r, 500));
    }
  });
  afterAll(() => p?.stop());

  it('shows the last 30 days by default, its figures equal to the API answer, and draws its charts', async () => {
    await page.goto(p.url('/business/dashboard', HOST));
    await page.getByTestId('business-dashboard').waitFor(WAIT);
    const { from, to } = await shownRange(page);
    const today = await page.evaluate(() => {
      const d = new Date();
      return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    });
    expect(to).toBe(today);
    expect((Date.parse(to) - Date.parse(from)) / 86_400_000).toBe(29);
    await waitForRange(page, 'business-dashboard', from, to);

    const api = await businessApi(page, from, to);
    expect(await screenFigures(page)).toEqual(apiFigures(api));
    // Some figure is not zero in the last 30 days (the visitor's text at least).
    expect(CARDS.some((id) => api.totals[id] > 0)).toBe(true);
    // Time to connect shows a dash when no callback was answered, seconds otherwise.
    const median = (await page.getByTestId('stat-connect_median').textContent()) ?? '';
    if (api.connect.median === null) expect(median).toBe('—');
    else expect(median).toContain(String(api.connect.median));
    // Broadcast and automation texts show only when there are some.
    expect(await page.getByTestId('stat-broadcast_texts').count()).toBe(
      api.totals.broadcast_texts > 0 ? 1 : 0,
    );
    expect(await page.getByTestId('stat-automation_texts').count()).toBe(
      api.totals.automation_texts > 0 ? 1 : 0,
    );
    // A number is written the way the user's language writes it.
    const texts = (await page.getByTestId('stat-texts_in').textContent()) ?? '';
    expect(texts).toBe(new Intl.NumberFormat('en').format(api.totals.texts_in));

    for (const chart of ['callbacks', 'texts', 'hours', 'weekdays', 'leads']) {
      await page.getByTestId(`chart-${chart}`).locator('svg.recharts-surface').first().waitFor(WAIT);
    }
    // The agents' table has a row per agent of the API's answer.
    expect(await page.getByTestId('analytics-agents').locator('[data-testid^="agent-"]').count()).toBe(
      api.agents.length,
    );
  });

  it('a preset and typed dates change the address and the figures follow; a reload keeps the range', async () => {
    await page.goto(p.url('/business/dashboard', HOST));
    await page.getByTestId('business-dashboard').waitFor(WAIT);

    await page.getByTestId('range-presets').getByText('Last 7 days').click();
    await page.waitForURL(/[?&]from=\d{4}-\d{2}-\d{2}/);
    const url = new URL(page.url());
    const week = { from: url.searchParams.get('from') ?? '', to: url.searchParams.get('to') ?? '' };
    // The inputs show what the address says (once the screen has rendered the new address).
    await expect.poll(() => shownRange(page), WAIT).toEqual(week);
    expect((Date.parse(week.to) - Date.parse(week.from)) / 86_400_000).toBe(6);
    await waitForRange(page, 'business-dashboard', week.from, week.to);
    expect(await screenFigures(page)).toEqual(apiFigures(await businessApi(page, week.from, week.to)));
    expect(await figure(page, 'texts_in')).toBeGreaterThan(0);

    // A start years back makes a range longer than the server reads: its message shows under the dates.
    await page.getByTestId('range-from').fill('2020-01-01');
    await page.waitForURL(/from=2020-01-01/);
    // (The server's answer can take a while on a loaded machine: fieldError itself polls for a second.)
    await page.locator('[data-testid="range-to"][aria-invalid="true"]').waitFor(WAIT);
    expect((await fieldError(page, 'range-to')).length).toBeGreaterThan(5);

    // A past month with nothing in it: every figure is 0.
    await page.getByTestId('range-to').fill('2020-01-31');
    await page.waitForURL(/from=2020-01-01&to=2020-01-31/);
    await waitForRange(page, 'business-dashboard', '2020-01-01', '2020-01-31');
    const empty = await screenFigures(page);
    expect(empty).toEqual(apiFigures(await businessApi(page, '2020-01-01', '2020-01-31')));
    for (const id of CARDS) expect(empty[id]).toBe(0);
    expect(empty.leads).toBe(0);
    expect(await page.getByTestId('stat-connect_median').textContent()).toBe('—');
    expect(await page.getByTestId('range-to').getAttribute('aria-invalid')).not.toBe('true');

    await page.reload();
    await waitForRange(page, 'business-dashboard', '2020-01-01', '2020-01-31');
    expect(await shownRange(page)).toEqual({ from: '2020-01-01', to: '2020-01-31' });
  });

  it('the CSV export has the totals the screen shows, for the same range', async () => {
    await page.goto(p.url('/business/dashboard', HOST));
    await page.getByTestId('business-dashboard').waitFor(WAIT);
    const { from, to } = await shownRange(page);
    await waitForRange(page, 'business-dashboard', from, to);
    const shown = await screenFigures(page);

    const [download] = await Promise.all([
      page.waitForEvent('download', WAIT),
      page.getByTestId('analytics-export').click(),
    ]);
    expect(download.suggestedFilename()).toBe(`analytics-${from}-${to}.csv`);
    const csv = (await readFile((await download.path()) ?? '', 'utf8')).replace(/^\uFEFF/, '');
    const lines = csv.trim().split(/\r?\n/);
    const header = (lines[0] ?? '').split(',');
    const total = (lines[lines.length - 1] ?? '').split(',');
    expect(total[0]).toBe('total');
    // A line per day of the range, then the totals.
    expect(lines.length).toBe(2 + (Date.parse(to) - Date.parse(from)) / 86_400_000 + 1);
    const column = (name: string) => Number(total[header.indexOf(name)]);
    for (const id of CARDS) expect(column(id), id).toBe(shown[id]);
    expect(column('leads')).toBe(shown.leads);
  });

  it("the agency dashboard ranks the agency's businesses and draws its charts", async () => {
    const agency = await signedInPage(p, DEMO.acmeAgency, '**/agency/**', HOST);
    await agency.goto(p.url('/agency/dashboard', HOST));
    await agency.getByTestId('agency-dashboard').waitFor(WAIT);
    const { from, to } = await shownRange(agency);
    await waitForRange(agency, 'agency-dashboard', from, to);
    const res = await apiFrom<Envelope<TAgencyAnalytics>>(agency, 'POST', '/v1/agency/business/analytics', {
      from,
      to,
    });
    expect(res.status).toBe(200);
    const a = res.body.data;

    expect(await figure(agency, 'businesses')).toBe(a.businesses.length);
    for (const id of ['callbacks_requested', 'callbacks_answered', 'texts_in', 'texts_out'] as const)
      expect(await figure(agency, id), id).toBe(a.totals[id]);
    expect(await figure(agency, 'at_limit')).toBe(a.at_limit);

    // The ranking: a row per business, in the server's order, Bright Dental's text counted.
    const rows = agency.getByTestId('analytics-ranking').locator('[data-testid^="ranking-row-"]');
    expect(await rows.count()).toBe(a.businesses.length);
    expect(await rows.first().getAttribute('data-testid')).toBe(
      `ranking-row-${a.businesses[0]?.business_id}`,
    );
    expect(a.businesses.some((b) => b.texts_in > 0)).toBe(true);
    const unlimited = a.businesses.find((b) => b.calls_cap === null);
    if (unlimited)
      expect(await agency.getByTestId(`ranking-row-${unlimited.business_id}`).textContent()).toContain('∞');

    // Sorting by a header: by name, A to Z.
    await agency.getByTestId('ranking-sort-name').click();
    const names = await rows.evaluateAll((els) => els.map((e) => e.querySelector('td')?.textContent ?? ''));
    expect(names).toEqual([...names].sort((x, y) => (x.toLowerCase() < y.toLowerCase() ? -1 : 1)));

    for (const chart of ['callbacks', 'texts', 'hours']) {
      await agency.getByTestId(`chart-${chart}`).locator('svg.recharts-surface').first().waitFor(WAIT);
    }
    await agency.context().close();
  });
});
