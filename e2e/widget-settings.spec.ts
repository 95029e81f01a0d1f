import { defaultInstallSettings, localParts } from '@stn/contracts/installs';
import { WIDGET_TEXT_DEFAULTS } from '@stn/contracts/widget-texts';
import type { Locator, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hasChromium, type Platform, startPlatform } from './harness.ts';
import {
  type Admin,
  ALL_WEEK,
  adminSession,
  api,
  hostOf,
  png,
  setSettings,
  type Visitor,
  visit,
  WAIT,
} from './widget-helpers.ts';

// Every setting of the install that shapes the widget (issue 11), as a visitor of the (hostile) demo page
// sees it: each group is set through PUT /v1/installs/{id}/setting as Bright Dental's admin, then a fresh
// visitor loads the page. Position and margins (boxes); colours, styling, trigger button and fields
// (computed styles); the auto popup after its delay; name and e-mail required and checked, and GDPR
// required (errors, nothing sent); the consents as the server receives them; the answer's colours and the
// redirect after success (same tab, new tab); logo and widget icon; a closed day in the install's time
// zone offers a schedule instead of the instant callback; one language, no picker. And odd but valid
// settings (empty texts, a language missing from languageList, image files gone) throw nothing.

let p: Platform;
let admin: Admin;
const visitors: (Visitor & { errors: string[] })[] = [];

async function visitor(opts: Parameters<typeof visit>[2] = {}): Promise<Visitor & { errors: string[] }> {
  const v = await visit(p, admin, opts);
  // Uncaught errors of the page: the widget's would show here (the demo page's own script throws none).
  const errors: string[] = [];
  v.page.on('pageerror', (e) => errors.push(e.message));
  const out = { ...v, errors };
  visitors.push(out);
  return out;
}

const VIEW = { width: 1280, height: 800 };
const D = defaultInstallSettings();

/** Every section the tests change, back to its default (the PUT deep-merges, so texts are emptied). */
async function reset(): Promise<void> {
  await setSettings(admin, {
    widget_type: 3,
    language: 'en',
    languageList: ['en', 'es'],
    hours: ALL_WEEK,
    timezone: 'UTC',
    colors: D.colors,
    position: D.position,
    margins: D.margins,
    popup: D.popup,
    gdpr_consent: false,
    promotion_consent: false,
    styling: D.styling,
    triggerButton: D.triggerButton,
    input: D.input,
    response: D.response,
    texts: {
      en: { title: '', CallLabel: '' },
      es: { title: '', CallLabel: '', NameLabel: '', SubmitCall: '' },
    },
  });
}

const box = async (el: Locator) => {
  await el.waitFor(WAIT);
  const b = await el.boundingBox();
  if (!b) throw new Error('no box');
  return b;
};
const css = (el: Locator, ...props: string[]) =>
  el.evaluate((node, names) => {
    const cs = getComputedStyle(node);
    return Object.fromEntries(names.map((n) => [n, cs.getPropertyValue(n)]));
  }, props);

/** The widget's POSTs of a page, with their bodies (not the open panel's heartbeat, ADR 083). */
function posts(page: Page): { path: string; body: Record<string, unknown> }[] {
  const out: { path: string; body: Record<string, unknown> }[] = [];
  page.on('request', (r: Request) => {
    const path = new URL(r.url()).pathname;
    if (r.method() === 'POST' && path.startsWith('/api/widget/') && path !== '/api/widget/v1/presence')
      out.push({ path, body: (r.postDataJSON() ?? {}) as Record<string, unknown> });
  });
  return out;
}

describe.skipIf(!hasChromium)("the install's settings, as the widget's visitor sees them", () => {
  beforeAll(async () => {
    p = await startPlatform();
    admin = await adminSession(p);
  });
  beforeEach(reset);
  afterAll(async () => {
    for (const v of visitors) await v.context.close().catch(() => undefined);
    await p?.stop();
  });

  it('position and margins place the buttons and the panel: bottom-right by default, bottom-left when set', async () => {
    await setSettings(admin, { margins: { x: 48, y: 36 } });
    const right = (await visitor()).page;
    const call = await box(right.getByTestId('stn-trigger-call'));
    // The last button ends at the margin (the demo install also shows its lead form's: three buttons).
    const last = await box(right.locator('[data-testid^="stn-trigger-"]').last());
    expect(Math.round(last.x + last.width)).toBe(VIEW.width - 48);
    expect(Math.round(call.y + call.height)).toBe(VIEW.height - 36);

    await setSettings(admin, { position: 'bottom-left', margins: { x: 64, y: 12 } });
    const { page } = await visitor();
    const first = await box(page.getByTestId('stn-trigger-call'));
    expect(Math.round(first.x)).toBe(64);
    expect(Math.round(first.y + first.height)).toBe(VIEW.height - 12);
    await page.getByTestId('stn-trigger-call').click();
    const panel = await box(page.getByTestId('stn-panel'));
    expect(Math.round(panel.x)).toBe(64);
    // Above the buttons, not over them.
    expect(panel.y + panel.height).toBeLessThanOrEqual(first.y);
  });

  it('colours, panel styling, trigger button and fields show as set (hover colour and label alignment included)', async () => {
    await setSettings(admin, {
      colors: { primary: '#123456', text: '#FFFFFF' },
      styling: {
        BackgroundColor: '#263238',
        BorderColor: '#FF6F00',
        Roudness: 14,
        MaxWidth: 360,
        Padding: 28,
      },
      triggerButton: {
        Color: '#FFFFFF',
        BackgroundColor: '#4A148C',
        HoverBackgroundColor: '#880E4F',
        Roudness: 6,
        FontSize: 20,
        Padding: 14,
        Align: 'left',
      },
      input: {
        BackgroundColor: '#E3F2FD',
        Color: '#0D47A1',
        BorderColor: '#2E7D32',
        Roudness: 10,
        Padding: 12,
      },
    });
    const { page } = await visitor();
    const call = page.getByTestId('stn-trigger-call');
    const text = page.getByTestId('stn-trigger-text');
    expect(
      await css(text, 'color', 'background-color', 'border-top-left-radius', 'font-size', 'padding-top'),
    ).toEqual({
      color: 'rgb(255, 255, 255)',
      'background-color': 'rgb(74, 20, 140)',
      'border-top-left-radius': '6px',
      'font-size': '20px',
      'padding-top': '14px',
    });
    await text.hover();
    await expect
      .poll(async () => (await css(text, 'background-color'))['background-color'])
      .toBe('rgb(136, 14, 79)');
    // The buttons are as wide as the widest; Align puts the shorter label (with its icon) on the left.
    const [c, t] = [await box(call), await box(text)];
    expect(Math.abs(c.width - t.width)).toBeLessThanOrEqual(1);
    const icon = await box(text.locator('svg'));
    expect(icon.x - t.x).toBeCloseTo(14 * 1.6, 0);
    await setSettings(admin, { triggerButton: { Align: 'right' } });
    const right = (await visitor()).page.getByTestId('stn-trigger-text');
    const [rb, rIcon] = [await box(right), await box(right.locator('svg'))];
    expect(rIcon.x - rb.x).toBeGreaterThan(14 * 1.6 + 10);

    await call.click();
    const panel = page.getByTestId('stn-panel');
    expect(
      await css(panel, 'background-color', 'border-top-color', 'border-top-left-radius', 'width', 'color'),
    ).toEqual({
      'background-color': 'rgb(38, 50, 56)',
      'border-top-color': 'rgb(255, 111, 0)',
      'border-top-left-radius': '14px',
      width: '360px',
      // A dark panel writes in white.
      color: 'rgb(255, 255, 255)',
    });
    expect(await css(panel.locator('.body'), 'padding-top')).toEqual({ 'padding-top': '28px' });
    expect(await css(panel.locator('label').first(), 'color')).toEqual({ color: 'rgb(255, 255, 255)' });
    expect(await css(panel.locator('.head'), 'background-color', 'color')).toEqual({
      'background-color': 'rgb(18, 52, 86)',
      color: 'rgb(255, 255, 255)',
    });
    expect(await css(page.getByTestId('stn-submit'), 'background-color')).toEqual({
      'background-color': 'rgb(18, 52, 86)',
    });
    expect(
      await css(
        page.getByTestId('stn-phone'),
        'background-color',
        'color',
        'border-top-color',
        'border-top-left-radius',
        'padding-top',
      ),
    ).toEqual({
      'background-color': 'rgb(227, 242, 253)',
      color: 'rgb(13, 71, 161)',
      'border-top-color': 'rgb(46, 125, 50)',
      'border-top-left-radius': '10px',
      'padding-top': '12px',
    });
  });

  it('the auto popup opens the panel after its delay, once, without taking the focus', async () => {
    await setSettings(admin, { popup: { auto: true, delay: 2 } });
    const { page } = await visitor();
    await page.getByTestId('stn-trigger-call').waitFor(WAIT);
    const shown = Date.now();
    // Not before its time: the panel comes no sooner than the delay after the widget's button did.
    await page.getByTestId('stn-panel').waitFor(WAIT);
    expect(Date.now() - shown).toBeGreaterThanOrEqual(1500);
    expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true);
    // Closed, it stays closed on the next page of the visit.
    await page.getByTestId('stn-close').click();
    await page.reload();
    await hostOf(page).waitFor({ state: 'attached', ...WAIT });
    // The one wait on time left (ADR 058): that a timer does not fire can only be seen once its delay has
    // passed. A loaded machine can only make it pass late, never fail.
    await page.waitForTimeout(2500);
    expect(await page.getByTestId('stn-panel').count()).toBe(0);
  });

  it('name required and checked, e-mail required: the errors show and nothing is sent until they are right', async () => {
    await setSettings(admin, {
      input: {
        IsEnableName: true,
        IsRequiredName: true,
        IsEnableNameValidation: true,
        IsEnableEmail: true,
        IsRequiredEmail: true,
      },
    });
    const { page } = await visitor();
    const sent = posts(page);
    await page.getByTestId('stn-trigger-call').click();
    await page.getByTestId('stn-phone').fill('+14155550171');
    await page.getByTestId('stn-submit').click();
    const required = WIDGET_TEXT_DEFAULTS.en.error;
    await page.getByTestId('stn-error').waitFor(WAIT);
    expect(await page.getByTestId('stn-error').textContent()).toContain(required);
    expect(await page.getByTestId('stn-name-error').textContent()).toBe('This field is required');
    expect(await page.getByTestId('stn-email-error').textContent()).toBe('This field is required');
    expect(await page.getByTestId('stn-name').getAttribute('aria-required')).toBe('true');

    await page.getByTestId('stn-name').fill('R2D2');
    await page.getByTestId('stn-email').fill('not-an-email');
    await page.getByTestId('stn-submit').click();
    await expect.poll(() => page.getByTestId('stn-name-error').textContent()).toBe('This value is invalid.');
    expect(await page.getByTestId('stn-email-error').textContent()).toBe(
      'Please enter a valid email address.',
    );
    expect(sent).toEqual([]);

    await page.getByTestId('stn-name').fill('Ana Lima');
    await page.getByTestId('stn-email').fill('ana@example.com');
    await page.getByTestId('stn-submit').click();
    await page.getByTestId('stn-countdown').waitFor(WAIT);
    expect(sent.map((s) => s.path)).toEqual(['/api/widget/v1/callback']);
    expect(sent[0]?.body).toMatchObject({
      name: 'Ana Lima',
      email: 'ana@example.com',
      phone: '+14155550171',
    });
  });

  it('GDPR consent is required when asked; both consents reach the server', async () => {
    await setSettings(admin, { gdpr_consent: true, promotion_consent: true });
    const { page } = await visitor();
    const sent = posts(page);
    await page.getByTestId('stn-trigger-text').click();
    expect(await page.getByTestId('stn-gdpr').getAttribute('aria-required')).toBe('true');
    expect(await page.getByTestId('stn-promotion').getAttribute('aria-required')).toBeNull();
    await page.getByTestId('stn-phone').fill('+14155550172');
    await page.getByTestId('stn-message').fill('Can I book a cleaning?');
    await page.getByTestId('stn-submit').click();
    await page.getByTestId('stn-gdpr-error').waitFor(WAIT);
    expect(sent).toEqual([]);

    await page.getByTestId('stn-gdpr').check();
    await page.getByTestId('stn-promotion').check();
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/widget/v1/text'));
    await page.getByTestId('stn-submit').click();
    expect((await answer).status()).toBe(200);
    expect(sent[0]?.body).toMatchObject({ gdpr_consent: true, promotion_consent: true });
    await page.getByTestId('stn-messages').waitFor(WAIT);
  });

  it("the answer's colours, size, alignment and padding; the redirect after success, in the same tab and in a new one", async () => {
    const same = p.url('/?thanks=same');
    await setSettings(admin, {
      response: {
        SuccessColor: '#1B5E20',
        ErrorColor: '#B71C1C',
        FontSize: 18,
        Align: 'right',
        Padding: 16,
        IsEnableRedirect: true,
        RedirectUrl: same,
        IsRedirectBlankPage: false,
      },
    });
    const { page } = await visitor();
    await page.getByTestId('stn-trigger-text').click();
    await page.getByTestId('stn-submit').click();
    expect(
      await css(page.getByTestId('stn-error'), 'background-color', 'font-size', 'text-align', 'padding-top'),
    ).toEqual({
      'background-color': 'rgb(183, 28, 28)',
      'font-size': '18px',
      'text-align': 'right',
      'padding-top': '16px',
    });
    await page.getByTestId('stn-phone').fill('+14155550173');
    await page.getByTestId('stn-message').fill('Hello');
    await page.getByTestId('stn-submit').click();
    const ok = page.locator('.resp.ok');
    await ok.waitFor(WAIT);
    expect(await css(ok, 'background-color', 'font-size', 'text-align')).toEqual({
      'background-color': 'rgb(27, 94, 32)',
      'font-size': '18px',
      'text-align': 'right',
    });
    // The visitor reads the answer, then the page goes to the business's thank-you page.
    await page.waitForURL(same, WAIT);

    const blank = p.url('/?thanks=new-tab');
    await setSettings(admin, { response: { RedirectUrl: blank, IsRedirectBlankPage: true } });
    const v = await visitor();
    await v.page.getByTestId('stn-trigger-text').click();
    await v.page.getByTestId('stn-phone').fill('+14155550174');
    await v.page.getByTestId('stn-message').fill('Hello again');
    const tab = v.context.waitForEvent('page', WAIT);
    await v.page.getByTestId('stn-submit').click();
    const opened = await tab;
    await opened.waitForURL(blank, WAIT);
    // The widget's page stays where it was, with the answer.
    expect(v.page.url()).toContain('/widget-demo');
    expect(await v.page.locator('.resp.ok').count()).toBe(1);
  });

  it('the logo and the widget icon show; their files gone, the panel has no logo and the buttons the built-in icon', async () => {
    const up = async (kind: 'logo' | 'widgetIcon', rgb: [number, number, number]) => {
      const res = await api<{ data: { url: string } }>(
        admin,
        'POST',
        `/api/v1/installs/${admin.installId}/${kind}`,
        { data: png(16, 16, rgb) },
      );
      expect(res.status, JSON.stringify(res.json)).toBe(200);
      return res.json.data.url;
    };
    const logo = await up('logo', [200, 30, 30]);
    const icon = await up('widgetIcon', [30, 200, 30]);
    const loaded = (img: Locator) =>
      img.evaluate((el) => (el as HTMLImageElement).complete && (el as HTMLImageElement).naturalWidth);

    const { page } = await visitor();
    const img = page.getByTestId('stn-trigger-call').locator('img');
    await img.waitFor(WAIT);
    expect(await img.getAttribute('src')).toContain(icon.replace(/^https?:\/\/[^/]+/, ''));
    await expect.poll(() => loaded(img), WAIT).toBe(16);
    await page.getByTestId('stn-trigger-call').click();
    const shown = page.getByTestId('stn-logo');
    expect(await shown.getAttribute('src')).toContain(logo.replace(/^https?:\/\/[^/]+/, ''));
    await expect.poll(() => loaded(shown), WAIT).toBe(16);

    // The same install, its image files gone from the file store: nothing broken shows, nothing throws.
    const gone = await visitor({ widget: false });
    await gone.context.route('**/uploads/**', (route) => route.fulfill({ status: 404, body: '' }));
    await gone.page.reload();
    const call = gone.page.getByTestId('stn-trigger-call');
    await call.locator('svg').waitFor(WAIT);
    expect(await call.locator('img').count()).toBe(0);
    await call.click();
    await gone.page.getByTestId('stn-panel').waitFor(WAIT);
    await expect.poll(() => gone.page.getByTestId('stn-logo').count(), WAIT).toBe(0);
    expect(gone.errors).toEqual([]);

    for (const kind of ['logo', 'widgetIcon'])
      expect((await api(admin, 'DELETE', `/api/v1/installs/${admin.installId}/${kind}`)).status).toBe(200);
  });

  it("a day closed in the install's time zone offers a schedule instead of the instant callback", async () => {
    // Kiritimati (UTC+14) and Pago Pago (UTC-11) are never on the same weekday: close Kiritimati's today.
    const closed = localParts(new Date(), 'Pacific/Kiritimati').weekday;
    const hours = { ...ALL_WEEK, [closed]: { open: false, from: '12:00AM', to: '11:59PM' } };
    await setSettings(admin, { hours, timezone: 'Pacific/Kiritimati' });
    const { page } = await visitor();
    const schedule = page.getByTestId('stn-trigger-schedule');
    await schedule.waitFor(WAIT);
    expect(await page.getByTestId('stn-trigger-call').count()).toBe(0);
    await schedule.click();
    await page.getByTestId('stn-slot').first().waitFor(WAIT);
    expect(await page.getByTestId('stn-submit').textContent()).toBe(WIDGET_TEXT_DEFAULTS.en.SubmitSchedule);
    expect(await page.getByTestId('stn-panel').textContent()).toContain(WIDGET_TEXT_DEFAULTS.en.closed);

    // The same hours in Pago Pago, where today is another day: the instant callback.
    await setSettings(admin, { timezone: 'Pacific/Pago_Pago' });
    const open = (await visitor()).page;
    await open.getByTestId('stn-trigger-call').click();
    expect(await open.getByTestId('stn-submit').textContent()).toBe(WIDGET_TEXT_DEFAULTS.en.SubmitCall);
    expect(await open.getByTestId('stn-trigger-schedule').count()).toBe(0);
  });

  it('one language: no picker; odd but valid settings (empty texts, a language missing from the list) throw nothing', async () => {
    // The business's own texts replace the built-in ones of their language, labels included.
    await setSettings(admin, {
      language: 'es',
      languageList: ['es'],
      texts: { es: { CallLabel: 'Llámenos ya', NameLabel: 'Nombre completo', SubmitCall: 'Llamadme' } },
    });
    const one = await visitor();
    await expect.poll(() => one.page.getByTestId('stn-trigger-call').textContent(), WAIT).toBe('Llámenos ya');
    await one.page.getByTestId('stn-trigger-call').click();
    await one.page.getByTestId('stn-panel').waitFor(WAIT);
    expect(await one.page.getByTestId('stn-language').count()).toBe(0);
    expect(await one.page.getByTestId('stn-panel').textContent()).toContain(WIDGET_TEXT_DEFAULTS.es.title);
    expect(await one.page.getByTestId('stn-panel').locator('label[for$="-name"]').textContent()).toBe(
      'Nombre completo',
    );
    expect(await one.page.getByTestId('stn-submit').textContent()).toBe('Llamadme');

    // Spanish, but only English listed; every English text emptied: the built-in ones, and Spanish stays
    // reachable in the picker (first, as the install's own).
    await setSettings(admin, {
      language: 'es',
      languageList: ['en'],
      texts: {
        en: Object.fromEntries(Object.keys(WIDGET_TEXT_DEFAULTS.en).map((k) => [k, ''])),
        es: { title: '   ', CallLabel: '', NameLabel: '', SubmitCall: '' },
      },
    });
    const odd = await visitor();
    const trigger = odd.page.getByTestId('stn-trigger-call');
    await expect.poll(() => trigger.textContent(), WAIT).toBe(WIDGET_TEXT_DEFAULTS.es.CallLabel);
    await trigger.click();
    const picker = odd.page.getByTestId('stn-language');
    await picker.waitFor(WAIT);
    expect(
      await picker.locator('option').evaluateAll((o) => o.map((x) => (x as HTMLOptionElement).value)),
    ).toEqual(['es', 'en']);
    expect(await picker.inputValue()).toBe('es');
    expect(await odd.page.getByTestId('stn-panel').textContent()).toContain(WIDGET_TEXT_DEFAULTS.es.title);
    await picker.selectOption('en');
    const panel = odd.page.getByTestId('stn-panel');
    await expect.poll(() => panel.textContent(), WAIT).toContain(WIDGET_TEXT_DEFAULTS.en.title);
    expect(await odd.page.getByTestId('stn-submit').textContent()).toBe(WIDGET_TEXT_DEFAULTS.en.SubmitCall);
    expect(await trigger.textContent()).toBe(WIDGET_TEXT_DEFAULTS.en.CallLabel);
    expect([...one.errors, ...odd.errors]).toEqual([]);
  });
});
