import { localParts, type THours, WEEKDAYS } from '@stn/contracts/installs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, type Platform, startPlatform } from './harness.ts';
import {
  type Admin,
  ALL_WEEK,
  act,
  adminSession,
  api,
  askCallback,
  callStatus,
  claimAndConnect,
  customerSite,
  enterCode,
  hostOf,
  missAll,
  phoneState,
  phones,
  png,
  type Site,
  STAFF,
  scheduledFor,
  setSettings,
  type Visitor,
  visit,
  WAIT,
} from './widget-helpers.ts';

// The widget where it always runs: on a business's own site, another origin than the platform's (issue 17).
// The page is served from 127.0.0.1 on a port of its own with the embed code the installs screen gives
// (which names the agency's host, acme.localhost, never the platform's); every call crosses origins, with
// its CORS preflight, in the real Chromium. A callback, a booking and a text us are completed there, on
// the real sandbox carrier; the callback's status stays truthful (its countdown at 0, a missed call).

let p: Platform;
let admin: Admin;
let site: Site;
const visitors: Visitor[] = [];

async function visitor(opts: Parameters<typeof visit>[2] = {}): Promise<Visitor> {
  const v = await visit(p, admin, { site, ...opts });
  visitors.push(v);
  return v;
}

/** Nothing the widget asked for was blocked: no failed request, no CORS or resource-policy error. */
function expectNothingBlocked(v: Visitor) {
  expect(
    v.problems.filter((x) => !x.includes('/api/widget/v1/events')),
    v.problems.join('\n'),
  ).toEqual([]);
}

describe.skipIf(!hasChromium)('the website widget on a business’s own site (another origin)', () => {
  beforeAll(async () => {
    p = await startPlatform();
    admin = await adminSession(p);
    await setSettings(admin, { widget_type: 3, language: 'en', hours: ALL_WEEK, timezone: 'UTC' });
    site = await customerSite(admin);
  });
  afterAll(async () => {
    for (const v of visitors) await v.context.close().catch(() => undefined);
    await site?.close();
    await p?.stop();
  });

  it("loads from the agency's host on another origin: the embed code, the loader, the app, the config, the images", async () => {
    // The embed code names the agency's own host (acme.localhost), not the platform's.
    expect(site.embed).toBe(
      `<script src="http://acme.localhost:${p.port}/widget.js" data-key="${admin.key}" async></script>`,
    );
    expect(new URL(site.url).origin).not.toBe(new URL(p.url()).origin);
    // The install's icon and logo are images on the agency's host: an <img> there must not be blocked.
    for (const kind of ['widgetIcon', 'logo'] as const) {
      const res = await api(admin, 'POST', `/api/v1/installs/${admin.installId}/${kind}`, {
        data: png(16, 16, [30, 120, 200]),
      });
      expect(res.status, JSON.stringify(res.json)).toBe(200);
    }
    try {
      const v = await visitor();
      const loaded = (img: ReturnType<Page['locator']>) =>
        img.evaluate((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth);
      const icon = v.page.getByTestId('stn-trigger-call').locator('img');
      await icon.waitFor(WAIT);
      expect(await icon.getAttribute('src')).toMatch(
        new RegExp(`^http://acme\\.localhost:${p.port}/uploads/`),
      );
      await expect.poll(() => loaded(icon), WAIT).toBe(16);
      await v.page.getByTestId('stn-trigger-call').click();
      await v.page.getByTestId('stn-phone').waitFor(WAIT);
      await expect.poll(() => loaded(v.page.getByTestId('stn-logo')), WAIT).toBe(16);
      expect(v.requests).toContain('GET /api/widget/v1/config');
      expect(await hostOf(v.page).count()).toBe(1);
      expectNothingBlocked(v);
    } finally {
      for (const kind of ['logo', 'widgetIcon'])
        expect((await api(admin, 'DELETE', `/api/v1/installs/${admin.installId}/${kind}`)).status).toBe(200);
    }
  });

  it('a callback: the countdown reaches "any moment now", staff claim it, the visitor is connected', async () => {
    // A short promise, so the countdown reaches 0 while the staff phones still ring.
    await setSettings(admin, { callback_seconds: 5 });
    const VISITOR = '+14155550152';
    const v = await visitor();
    const page = v.page;
    await askCallback(page, VISITOR, 'Olga Other');

    const countdown = page.getByTestId('stn-countdown');
    await countdown.waitFor(WAIT);
    await expect.poll(() => phoneState(admin, STAFF[0]), WAIT).toBe('ringing');
    // At 0 it says something true, never "within 0 seconds".
    await expect.poll(() => countdown.textContent(), WAIT).toMatch(/Any moment now/);
    expect(await countdown.textContent()).not.toMatch(/\b0 seconds/);
    expect(await callStatus(page)).toBe('finding');

    await claimAndConnect(admin, page, STAFF[0], VISITOR);
    await expect.poll(() => phoneState(admin, STAFF[1]), WAIT).toBe('idle');
    expectNothingBlocked(v);
    await setSettings(admin, { callback_seconds: 14 });
  });

  it('a missed callback shows the missed state alone, in the error colour, never a success title', async () => {
    const VISITOR = '+14155550153';
    const v = await visitor();
    const page = v.page;
    await askCallback(page, VISITOR);
    // While someone is being found, the request's success is said.
    await expect.poll(() => page.locator('.resp.ok').count(), WAIT).toBe(1);
    await missAll(admin, page);
    const shown = page.getByTestId('stn-status');
    expect(await shown.textContent()).toMatch(/nobody could take the call/);
    expect(await shown.getAttribute('class')).toContain('ko');
    // No "Done!" above it, no countdown beside it.
    expect(await page.locator('.resp.ok').count()).toBe(0);
    expect(await page.getByText('Done!').count()).toBe(0);
    expect(await page.getByTestId('stn-countdown').count()).toBe(0);
    // The error colour, not the success one.
    const [bg, ok] = await shown.evaluate((el) => {
      const host = el.getRootNode() as ShadowRoot;
      const probe = document.createElement('p');
      probe.className = 'resp ok';
      host.appendChild(probe);
      const colours = [getComputedStyle(el).backgroundColor, getComputedStyle(probe).backgroundColor];
      probe.remove();
      return colours;
    });
    expect(bg).not.toBe(ok);
    expectNothingBlocked(v);
    // The missed call's message to the visitor ends.
    await expect.poll(() => phoneState(admin, VISITOR), WAIT).toBe('ringing');
    await act(admin, VISITOR, 'hangup');
  });

  it('a booking: a scheduled call is created at the slot picked on the other site', async () => {
    const VISITOR = '+14155550154';
    const today = localParts(new Date(), 'UTC').weekday;
    const hours = Object.fromEntries(
      WEEKDAYS.map((d) => [d, { open: d !== today, from: '09:00AM', to: '05:00PM' }]),
    ) as THours;
    await setSettings(admin, { hours, timezone: 'UTC' });
    try {
      const v = await visitor();
      const page = v.page;
      const schedule = page.getByTestId('stn-trigger-schedule');
      await schedule.waitFor(WAIT);
      await schedule.click();
      const slots = page.getByTestId('stn-slot');
      await slots.first().waitFor(WAIT);
      const slot = slots.nth(1);
      const at = (await slot.getAttribute('data-at')) ?? '';
      await slot.click();
      await page.getByTestId('stn-phone').fill(VISITOR);
      await page.getByTestId('stn-submit').click();
      await page.getByText('Your call is scheduled for').waitFor(WAIT);
      await expect.poll(() => scheduledFor(admin, VISITOR), WAIT).toBe(new Date(at).getTime());
      expectNothingBlocked(v);
    } finally {
      await setSettings(admin, { hours: ALL_WEEK, timezone: 'UTC' });
    }
  });

  it("text us: the business's reply shows once the code texted to the phone is entered; another visitor with that phone sees only their own", async () => {
    const VISITOR = '+14155550155';
    const v = await visitor();
    const page = v.page;
    await page.getByTestId('stn-trigger-text').click();
    await page.getByTestId('stn-phone').fill(VISITOR);
    await page.getByTestId('stn-message').fill('Is Saturday open?');
    await page.getByTestId('stn-submit').click();
    const messages = page.getByTestId('stn-messages');
    await expect.poll(() => messages.textContent(), WAIT).toContain('Is Saturday open?');
    await page.getByTestId('stn-code-form').waitFor(WAIT);

    // The business answers before the code is entered: the widget does not show it yet.
    const contacts = await api<{ data: { id: number; phone: string }[] }>(
      admin,
      'GET',
      `/api/v1/contacts?keyword=${encodeURIComponent('4155550155')}`,
    );
    const contact = contacts.json.data.find((c) => c.phone === VISITOR);
    expect(contact, JSON.stringify(contacts.json)).toBeDefined();
    const reply = async (body: string) => {
      const res = await api(admin, 'POST', `/api/v1/chats/contacts/${contact?.id}/messages`, { body });
      expect(res.status, JSON.stringify(res.json)).toBe(200);
    };
    await reply('Yes, 9 to 1 on Saturdays.');
    await expect
      .poll(
        async () =>
          (await phones(admin))
            .find((ph) => ph.number === VISITOR)
            ?.texts.some((t) => t.direction === 'in' && t.body.includes('9 to 1')) ?? false,
        WAIT,
      )
      .toBe(true);
    expect(await messages.textContent()).not.toContain('9 to 1');

    // The visitor enters the code from their phone: the reply shows, and the next one arrives live.
    await enterCode(admin, page, VISITOR);
    await expect.poll(() => messages.textContent(), WAIT).toContain('Yes, 9 to 1 on Saturdays.');
    await reply('See you then!');
    await expect
      .poll(async () => (await messages.getByTestId('stn-message-out').allTextContents()).join('|'), WAIT)
      .toContain('See you then!');
    expectNothingBlocked(v);

    // Someone else types the same phone on the same site: only their own text, nothing of the above.
    const other = await visitor();
    await other.page.getByTestId('stn-trigger-text').click();
    await other.page.getByTestId('stn-phone').fill(VISITOR);
    await other.page.getByTestId('stn-message').fill('Who is this?');
    await other.page.getByTestId('stn-submit').click();
    const theirs = other.page.getByTestId('stn-messages');
    await expect.poll(() => theirs.textContent(), WAIT).toContain('Who is this?');
    await other.page.getByTestId('stn-code-form').waitFor(WAIT);
    const shown = (await theirs.textContent()) ?? '';
    for (const hidden of ['Is Saturday open?', '9 to 1', 'See you then!'])
      expect(shown).not.toContain(hidden);
  });
});
