import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAs, apiFrom, DEMO, hasChromium, type Platform, signedInPage, startPlatform } from './harness.ts';

// Issue 20's journey, end to end in the sandbox on a manual clock (ADR 073): the demo BusinessAdmin builds
// "missed call → wait 1 minute → SendMessage → Condition replied → AddTag → Webhook" in the editor; a
// callback goes unanswered on Sandbox Phones; moving the clock on a minute brings the text to the visitor's
// phone; the visitor replies from that phone; the tag appears on the contact; and a local HTTP server on
// 127.0.0.1 receives the webhook once.

let p: Platform;
const HOST = 'acme.localhost';
const WAIT = { timeout: 20_000 };
const VISITOR = '+14155550188';
const NAME = 'Missed call: text, then tag who replies';
const TEXT = 'Hi {first_name|there}, sorry we missed your call! Reply and we will call you back.';

type Hit = { key: string | undefined; body: Record<string, unknown> };
const hits: Hit[] = [];
let receiver: http.Server;
let origin = '';

async function automations(page: Page) {
  return (
    await apiFrom<{ data: { id: number; name: string; active: boolean }[] }>(
      page,
      'GET',
      '/v1/automations?perPage=100',
    )
  ).body.data;
}

/** Picks an option of a Mantine select or multi-select, then closes its list. */
async function pick(page: Page, testId: string, option: string) {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await page.keyboard.press('Escape');
}

/** Adds a block from the palette after the selected one and waits for its form. */
async function add(page: Page, kind: string, id: string) {
  await page.getByTestId(`palette-${kind}`).click();
  await page.getByTestId(`block-form-${id}`).waitFor(WAIT);
}

describe.skipIf(!hasChromium)('an automation journey in the sandbox', () => {
  let page: Page;
  let tagName = '';

  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (d) => (raw += d));
      req.on('end', () => {
        const key = req.headers['idempotency-key'];
        hits.push({ key: Array.isArray(key) ? key[0] : key, body: raw ? JSON.parse(raw) : {} });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"ok":true}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    p = await startPlatform({ SANDBOX_CLOCK: 'manual', AUTOMATION_WEBHOOK_ALLOW_ORIGINS: origin });

    // Bright Dental's plan allows its two demo automations: the agency gives it room for one more.
    const agency = await apiAs(p, DEMO.acmeAgency);
    const list = await agency<{ data: { id: number; name: string }[] }>('/v1/business?keyword=Bright');
    const dental = list.body.data.find((b) => b.name === 'Bright Dental');
    const raised = await agency(`/v1/business/${dental?.id}`, {
      method: 'PUT',
      body: { number_of_automations: 5 },
    });
    expect(raised.status, JSON.stringify(raised.body)).toBe(200);

    page = await signedInPage(p, DEMO.dentalAdmin, '**/business/messaging', HOST);
    // The demo's own missed-call follow-up would text the visitor too: switched off, so every text and
    // tag below is this journey's.
    const demo = (await automations(page)).find((a) => a.name === 'Missed call follow-up');
    expect(demo?.active).toBe(true);
    const off = await apiFrom(page, 'PUT', `/v1/automations/${demo?.id}/toggle`, { active: false });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    const tag = await apiFrom<{ data: { name: string } }>(page, 'POST', '/v1/tags', {
      name: 'Replied after a missed call',
    });
    expect(tag.status).toBe(200);
    tagName = tag.body.data.name;
  });
  afterAll(async () => {
    await p?.stop();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  it('is built in the editor and activated', async () => {
    await page.goto(p.url('/business/automation/create', HOST));
    await page.getByTestId('automation-name').waitFor(WAIT);
    await page.getByTestId('automation-name').fill(NAME);
    await page.getByTestId('trigger-kind').selectOption('missed-call');
    await add(page, 'Wait', 'b1');
    await page.getByTestId('cfg-amount').fill('1');
    await page.getByTestId('cfg-unit').selectOption('minutes');
    await add(page, 'SendMessage', 'b2');
    await page.getByTestId('cfg-body').fill(TEXT);
    await add(page, 'Condition', 'b3');
    expect(await page.getByTestId('cfg-kind').inputValue()).toBe('replied');
    // The reply comes after the text: the Condition waits for it up to a day, a reply deciding at once.
    await page.getByTestId('cfg-within').click({ force: true });
    await expect.poll(() => page.getByTestId('cfg-unit').inputValue(), WAIT).toBe('days');
    expect(await page.getByTestId('cfg-amount').inputValue()).toBe('1');
    await add(page, 'AddTag', 'b4');
    await pick(page, 'cfg-add', tagName);
    await add(page, 'Webhook', 'b5');
    await page.getByTestId('cfg-url').fill(`${origin}/leads`);
    await page.getByTestId('automation-activate').click();
    await page.waitForURL(/\/business\/automation\/\d+$/, WAIT);
    await expect.poll(() => page.getByTestId('automation-status').textContent(), WAIT).toBe('Active');
  });

  it('a callback nobody answers, a minute later the text, a reply, the tag and one webhook', async () => {
    await page.goto(p.url('/business/sandbox-phones', HOST));
    await page.getByTestId('sandbox-clock').waitFor(WAIT);
    await page.getByTestId('visitor-phone').fill(VISITOR);
    await page.getByTestId('visitor-name').fill('Milo Missed');
    await page.getByTestId('request-callback').click();
    await page.getByTestId('callback-answer').waitFor(WAIT);
    expect(await page.getByTestId('callback-answer').textContent()).toContain('Callback requested');
    // The staff's phones ring (the calls are placed after the answer): the minute below starts from there.
    const ringing = async () =>
      (
        await apiFrom<{ data: { number: string; state: string }[] }>(page, 'GET', '/v1/sandbox/phones')
      ).body.data.filter((ph) => ph.state === 'ringing' && ph.number !== VISITOR).length;
    await expect.poll(ringing, WAIT).toBeGreaterThan(0);

    // Nobody answers: a minute of the sandbox's time ends the ringing, and the call is missed.
    const made = (await automations(page)).find((a) => a.name === NAME);
    const runs = async () =>
      (
        await apiFrom<{ data: { status: string; current_block: string | null; contact_phone: string }[] }>(
          page,
          'GET',
          `/v1/automations/${made?.id}/runs`,
        )
      ).body.data;
    await page.getByTestId('sandbox-clock-minute').click();
    await expect
      .poll(async () => (await runs()).map((r) => [r.contact_phone, r.current_block]), WAIT)
      .toEqual([[VISITOR, 'b1']]);
    const visitorCard = page.getByTestId(`sandbox-phone-${VISITOR.replace('+', '')}`).first();
    // Still waiting: no text yet.
    expect(await visitorCard.textContent()).not.toContain('sorry we missed');

    // The journey's minute passes: the text arrives on the visitor's phone.
    await page.getByTestId('sandbox-clock-minute').click();
    await expect
      .poll(() => visitorCard.getByTestId('phone-texts').textContent(), WAIT)
      .toContain('Hi Milo, sorry we missed your call!');

    // The visitor replies from that phone; the Condition says yes, the tag and the webhook follow.
    await page.getByTestId('visitor-text').fill('Yes please, call me back');
    await page.getByTestId('visitor-send-text').click();
    await expect.poll(async () => (await runs())[0]?.status, WAIT).toBe('completed');

    await page.goto(p.url('/business/contacts', HOST));
    const search = page.getByTestId('table-search');
    await search.waitFor(WAIT);
    await search.fill(VISITOR.slice(2));
    const row = page.getByTestId('contacts-table').locator('tr', { hasText: 'Milo' });
    await expect.poll(() => row.first().textContent(), WAIT).toContain(tagName);

    expect(hits).toHaveLength(1);
    expect(hits[0]?.key).toMatch(/^automation-step-\d+-\d+$/);
    expect(hits[0]?.body).toMatchObject({ phone: VISITOR, first_name: 'Milo' });
  });

  it("the demo's PRICE keyword: the reply, the tag and a task for staff", async () => {
    await page.goto(p.url('/business/sandbox-phones', HOST));
    const visitorCard = page.getByTestId(`sandbox-phone-${VISITOR.replace('+', '')}`).first();
    await page.getByTestId('visitor-phone').fill(VISITOR);
    await page.getByTestId('visitor-text').fill('price');
    await page.getByTestId('visitor-send-text').click();
    await visitorCard.waitFor(WAIT);
    await expect
      .poll(() => visitorCard.getByTestId('phone-texts').textContent(), WAIT)
      .toContain('A check-up and cleaning is $89');
    const tasks = async () =>
      (
        await apiFrom<{ data: { title: string; description: string | null }[] }>(
          page,
          'GET',
          '/v1/tasks?perPage=50',
        )
      ).body.data;
    await expect.poll(async () => JSON.stringify(await tasks()), WAIT).toContain('asked for our prices');
    await page.goto(p.url('/business/contacts', HOST));
    const search = page.getByTestId('table-search');
    await search.waitFor(WAIT);
    await search.fill(VISITOR.slice(2));
    const row = page.getByTestId('contacts-table').locator('tr', { hasText: 'Milo' });
    await expect.poll(() => row.first().textContent(), WAIT).toContain('Price enquiry');
  });

  it('an Alert tells the staff picked in its form, kept by the saved draft', async () => {
    await page.goto(p.url('/business/automation/create', HOST));
    await page.getByTestId('automation-name').waitFor(WAIT);
    await page.getByTestId('automation-name').fill('Tell Sally about new tags');
    await page.getByTestId('trigger-kind').selectOption('new-tag');
    await add(page, 'Alert', 'b1');
    await page.getByTestId('cfg-channel-task').click();
    await pick(page, 'cfg-users', 'Sally Sales');
    await page.getByTestId('cfg-message').fill('{name} was tagged');
    await page.getByTestId('automation-save').click();
    await page.waitForURL(/\/business\/automation\/\d+$/, WAIT);
    const saved = (
      await apiFrom<{ data: { name: string; blocks: { config: { user_ids: number[] } }[] }[] }>(
        page,
        'GET',
        '/v1/automations?perPage=100',
      )
    ).body.data.find((a) => a.name === 'Tell Sally about new tags');
    const team = (
      await apiFrom<{ data: { id: number; email: string }[] }>(page, 'GET', '/v1/businesses/users/all')
    ).body.data;
    const sally = team.find((u) => u.email === DEMO.dentalSales.email);
    expect(saved?.blocks[0]?.config.user_ids).toEqual([sally?.id]);
  });
});
