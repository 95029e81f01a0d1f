import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, type Platform, startPlatform } from './harness.ts';
import {
  type Admin,
  ALL_WEEK,
  adminSession,
  api,
  askCallback,
  customerSite,
  embedCode,
  type Site,
  setSettings,
  type Visitor,
  visit,
  WAIT,
} from './widget-helpers.ts';

// The analytics integration (issue 25, ADR 087): on a business's own site (another origin), with the
// page's Tag Manager data layer and a GA4 gtag stub, the widget reports its events there while the
// business has the setting on, and nothing when it is off; never the visitor's phone number.

let p: Platform;
let admin: Admin;
let site: Site;
const visitors: Visitor[] = [];

// The page's own analytics: a data layer, and a gtag that records its calls.
const HOST_TAGS =
  '<script>window.dataLayer=[];window.gtagCalls=[];window.gtag=function(){window.gtagCalls.push(Array.prototype.slice.call(arguments))};</script>';

type Seen = { dataLayer: Record<string, unknown>[]; gtag: unknown[][] };
const seen = (v: Visitor): Promise<Seen> =>
  v.page.evaluate(() => {
    const w = window as unknown as { dataLayer: Record<string, unknown>[]; gtagCalls: unknown[][] };
    return {
      dataLayer: JSON.parse(JSON.stringify(w.dataLayer)),
      gtag: JSON.parse(JSON.stringify(w.gtagCalls)),
    };
  });

async function analytics(value: { enabled: boolean; gtag: boolean; data_layer: boolean }) {
  const res = await api(admin, 'PUT', '/api/v1/businesses/setting', { analytics: value });
  expect(res.status, JSON.stringify(res.json)).toBe(200);
}

async function visitor(): Promise<Visitor> {
  const v = await visit(p, admin, { site });
  visitors.push(v);
  return v;
}

describe.skipIf(!hasChromium)('the widget reports its events to the host page’s analytics', () => {
  beforeAll(async () => {
    p = await startPlatform();
    admin = await adminSession(p);
    await setSettings(admin, { widget_type: 3, language: 'en', hours: ALL_WEEK, timezone: 'UTC' });
    site = await customerSite(admin, { embed: `${HOST_TAGS}\n${await embedCode(admin)}` });
  });
  afterAll(async () => {
    for (const v of visitors) await v.context.close().catch(() => undefined);
    await site?.close();
    await p?.stop();
  });

  it('with the setting on: opening the panel and asking a callback push the events, without the phone', async () => {
    await analytics({ enabled: true, gtag: true, data_layer: true });
    const PHONE = '+14155550163';
    const v = await visitor();
    await askCallback(v.page, PHONE, 'Tess Tags');
    await v.page.getByTestId('stn-countdown').waitFor(WAIT);
    await expect
      .poll(async () => (await seen(v)).dataLayer.map((e) => e.event), WAIT)
      .toEqual(['stn_widget_open', 'stn_callback_request']);
    const { dataLayer, gtag } = await seen(v);
    const params = { stn_install_id: admin.installId, stn_install_name: expect.any(String) };
    expect(dataLayer).toEqual([
      { event: 'stn_widget_open', ...params },
      { event: 'stn_callback_request', ...params },
    ]);
    expect(gtag).toEqual([
      ['event', 'widget_open', params],
      ['event', 'callback_request', params],
    ]);
    // No personal data: neither the phone (in any spelling) nor the name.
    const all = JSON.stringify({ dataLayer, gtag });
    for (const bit of [PHONE, '4155550163', '5550163', 'Tess']) expect(all).not.toContain(bit);
  });

  it('with the setting off: nothing is pushed', async () => {
    await analytics({ enabled: false, gtag: true, data_layer: true });
    const v = await visitor();
    await askCallback(v.page, '+14155550164', 'Otto Off');
    // The events would have been pushed by now: the open before the form, the callback before its countdown.
    await v.page.getByTestId('stn-countdown').waitFor(WAIT);
    expect(await seen(v)).toEqual({ dataLayer: [], gtag: [] });
  });

  it('the business.setting.analytics screen: its switches, the events listed, a target required', async () => {
    const page = admin.page;
    await page.goto(p.url('/business/setting/analytics', 'acme.localhost'));
    await page.getByTestId('analytics-events').getByText('callback_request').waitFor(WAIT);
    // What the previous test stored: off, both targets named.
    expect(await page.getByTestId('analytics-enabled').isChecked()).toBe(false);
    await page.getByTestId('analytics-enabled').check({ force: true });
    await page.getByTestId('analytics-gtag').uncheck({ force: true });
    await page.getByTestId('analytics-data-layer').uncheck({ force: true });
    await page.getByTestId('analytics-save').click();
    // Refused next to the switches (Mantine's Switch shows its error under it), nothing sent.
    await page.getByText('Choose Google Analytics, the data layer or both.').waitFor(WAIT);
    expect(await page.getByText('Analytics settings updated successfully.').count()).toBe(0);
    await page.getByTestId('analytics-data-layer').check({ force: true });
    await page.getByTestId('analytics-save').click();
    await page.getByText('Analytics settings updated successfully.').waitFor(WAIT);
    const own = await api<{ data: { settings: { analytics: unknown } } }>(
      admin,
      'GET',
      '/api/v1/businesses/info',
    );
    expect(own.json.data.settings.analytics).toEqual({ enabled: true, gtag: false, data_layer: true });
  });
});
