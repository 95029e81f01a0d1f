import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, type Platform, startPlatform } from './harness.ts';
import {
  type Admin,
  adminSession,
  api,
  customerSite,
  type Site,
  setSettings,
  type Visitor,
  visit,
  WAIT,
} from './widget-helpers.ts';

// The live view's visitors (ADR 083) from where the widget always runs: a business's own site on another
// origin. Opening the panel there sends the heartbeat (no CORS problem, no failed request) and the
// business's GET /v1/live-data counts the visitor for that install; closing the panel, and leaving the
// page with it open, take the visitor away again. No screen hosts the Live card yet: the API is checked.

let p: Platform;
let admin: Admin;
let site: Site;
const visitors: Visitor[] = [];

type Live = { visitors: { total: number; by_install: { install_id: number; count: number }[] } };
const openHere = async () => {
  const res = await api<{ data: Live }>(admin, 'GET', '/api/v1/live-data');
  expect(res.status, JSON.stringify(res.json)).toBe(200);
  return res.json.data.visitors.by_install.find((i) => i.install_id === admin.installId)?.count ?? 0;
};

describe.skipIf(!hasChromium)('live data: visitors with the widget open on a business’s own site', () => {
  beforeAll(async () => {
    p = await startPlatform();
    admin = await adminSession(p);
    await setSettings(admin, { widget_type: 3, language: 'en' });
    site = await customerSite(admin);
  });
  afterAll(async () => {
    for (const v of visitors) await v.context.close().catch(() => undefined);
    await site?.close();
    await p?.stop();
  });

  it('opening the widget counts the visitor, closing it and leaving the page do not', async () => {
    expect(await openHere()).toBe(0);
    const v = await visit(p, admin, { site });
    visitors.push(v);
    // The heartbeats in flight: leaving the page while one is on its way aborts it (a beat comes every 30 s,
    // which a loaded machine can reach before the page leaves); the test leaves between beats.
    let inFlight = 0;
    const isBeat = (r: { url(): string }) => r.url().includes('/presence') && r.url().includes('open=1');
    v.page.on('request', (r) => {
      if (isBeat(r)) inFlight++;
    });
    for (const end of ['requestfinished', 'requestfailed'] as const)
      v.page.on(end, (r) => {
        if (isBeat(r)) inFlight--;
      });
    // The loader alone (panel closed) says nothing.
    expect(v.requests.filter((r) => r.includes('/presence'))).toEqual([]);

    await v.page.getByTestId('stn-trigger-call').click();
    await v.page.getByTestId('stn-phone').waitFor(WAIT);
    await expect.poll(openHere, WAIT).toBe(1);
    expect(v.requests).toContain('POST /api/widget/v1/presence');

    await v.page.getByTestId('stn-close').click();
    await expect.poll(openHere, WAIT).toBe(0);

    // Open again, then the page goes away with the panel open: its goodbye still arrives (a beacon).
    // The heartbeat's answer has reached the page before it leaves (else leaving aborts it, on a slow machine).
    const beat = v.page.waitForResponse(
      (r) => r.url().includes('/presence') && r.url().includes('open=1'),
      WAIT,
    );
    await v.page.getByTestId('stn-trigger-call').click();
    await beat;
    await expect.poll(openHere, WAIT).toBe(1);
    await expect.poll(() => inFlight, WAIT).toBe(0);
    await v.page.goto('about:blank');
    await expect.poll(openHere, WAIT).toBe(0);
    expect(v.problems, v.problems.join('\n')).toEqual([]);
  });
});
