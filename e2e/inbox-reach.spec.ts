import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAs, DEMO, hasChromium, type Platform, signIn, startPlatform } from './harness.ts';

// Issue 17, the inbox from a new user's walkthrough (ADR 052), in Chromium on the sandbox carrier:
// - starting a conversation with any contact: "Text" on a contact, "New conversation" with a phone that is
//   already a contact, the inbox search finding an imported contact;
// - a missed callback in the caller's conversation (list, Voice filter, history) and "Text back";
// - an answered inbound call in the caller's conversation, labelled as an incoming call;
// - the layout: three panes as high as the window at 1280x800, one pane at a time at 390x844, the
//   composer always in view and the document never scrolling;
// - the restricted-content dialog showing the message with its restricted words marked.

let p: Platform;
const HOST = 'acme.localhost';
const FRONT_DESK = '+15005550101';
const DR_BRIGHT = '+15005550102';
const CALLER = '+13105550188';
const INBOUND_CALLER = '+13105550177';
/** Bright Dental's demo install number (the seed's DEMO_INSTALL_NUMBER). */
const INSTALL_NUMBER = '+15005550006';
const WAIT = { timeout: 20_000 };

type Json = Record<string, unknown> & { data?: unknown };
type Api = Awaited<ReturnType<typeof apiAs>>;
let api: Api;

/** One API call as Bright Dental's admin (the test's own hands: setup and the sandbox phones). */
async function callAs(_page: Page, method: string, path: string, body?: unknown): Promise<Json> {
  const res = await api<Json>(path, { method, ...(body !== undefined ? { body } : {}) });
  if (res.status >= 400) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A visitor asks for a callback on the widget's API with the install's key. */
async function widgetCallback(key: string, body: unknown): Promise<Json> {
  const res = await fetch(p.url('/api/widget/v1/callback'), {
    method: 'POST',
    headers: { 'x-install-key': key, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status >= 400) throw new Error(`callback → ${res.status} ${await res.text()}`);
  return (await res.json()) as Json;
}

type PhoneState = {
  number: string;
  state: string;
  texts: { direction: string; body: string }[];
  call?: { gathering?: boolean; bridged_with?: string | null } | null;
};
const act = (page: Page, number: string, action: string, body: unknown = {}) =>
  callAs(page, 'POST', `/v1/sandbox/phones/${encodeURIComponent(number)}/${action}`, body);
async function phone(page: Page, number: string): Promise<PhoneState | undefined> {
  return ((await callAs(page, 'GET', '/v1/sandbox/phones')).data as PhoneState[]).find(
    (x) => x.number === number,
  );
}

/** The document does not scroll, and the element is wholly inside the window. */
async function inView(page: Page, testId: string) {
  const box = await page.getByTestId(testId).first().boundingBox();
  const size = page.viewportSize();
  const scrolls = await page.evaluate(
    () => (document.scrollingElement?.scrollHeight ?? 0) > window.innerHeight + 1,
  );
  return {
    scrolls,
    inside:
      box !== null &&
      size !== null &&
      box.y >= 0 &&
      box.y + box.height <= size.height + 0.5 &&
      box.x >= 0 &&
      box.x + box.width <= size.width + 0.5,
  };
}

describe.skipIf(!hasChromium)('the inbox, from a new user', () => {
  let page: Page;
  let installId: number;
  let installKey: string;
  let longId: number;

  beforeAll(async () => {
    p = await startPlatform();
    api = await apiAs(p, DEMO.dentalAdmin);
    ({ page } = await p.newPage());
    page.setDefaultTimeout(15_000);
    await signIn(page, p.url('/login', HOST), DEMO.dentalAdmin);
    await page.waitForURL('**/business/messaging');
    const installs = (await callAs(page, 'GET', '/v1/installs/all')).data as { id: number }[];
    installId = installs[0]?.id as number;
    installKey = ((await callAs(page, 'GET', `/v1/installs/${installId}/embed-code`)).data as { key: string })
      .key;
    // A long conversation: the composer must stay in view and only the history scroll.
    const started = await callAs(page, 'POST', `/v1/chats/installs/${installId}/contacts`, {
      phone: '+13105550101',
      name: 'Lena Long',
    });
    longId = (started.data as { id: number }).id;
    for (let i = 1; i <= 25; i++)
      await callAs(page, 'POST', `/v1/chats/contacts/${longId}/messages`, {
        body: `Line ${i} of a long day`,
      });
  });
  afterAll(() => p?.stop());

  it('at 1280x800: three panes, only they scroll, the composer is in view', async () => {
    await page.goto(p.url(`/business/messaging/${installId}?contact=${longId}`, HOST));
    await page.getByTestId('conversation').getByText('Line 25 of a long day').waitFor(WAIT);
    for (const pane of ['conversations-pane', 'conversation-pane', 'contact-pane'])
      await page.getByTestId(pane).waitFor(WAIT);
    await expect.poll(() => inView(page, 'send-body'), WAIT).toEqual({ scrolls: false, inside: true });
    expect((await inView(page, 'send-button')).inside).toBe(true);
    expect((await inView(page, 'contact-pane')).inside).toBe(true);
    // Side by side: list, conversation, contact.
    const [list, conversation, contact] = await Promise.all(
      ['conversations-pane', 'conversation-pane', 'contact-pane'].map((id) =>
        page.getByTestId(id).boundingBox(),
      ),
    );
    if (!list || !conversation || !contact) throw new Error('a pane has no box');
    expect(list.x + list.width).toBeLessThanOrEqual(conversation.x);
    expect(conversation.x + conversation.width).toBeLessThanOrEqual(contact.x);
  });

  it('at 390x844: one pane at a time, the conversation at the top with a back button', async () => {
    const phonePage = await p.newPage();
    const small = phonePage.page;
    await small.setViewportSize({ width: 390, height: 844 });
    await signIn(small, p.url('/login', HOST), DEMO.dentalAdmin);
    await small.waitForURL('**/business/messaging');
    await small.getByTestId(`conversation-${longId}`).click();
    await small.getByTestId('conversation').getByText('Line 25 of a long day').waitFor(WAIT);
    expect(await small.getByTestId('conversations-pane').count()).toBe(0);
    const title = await small.getByTestId('conversation-title').boundingBox();
    expect(title?.y ?? 1000).toBeLessThan(200);
    await expect.poll(() => inView(small, 'send-body'), WAIT).toEqual({ scrolls: false, inside: true });
    expect((await inView(small, 'send-button')).inside).toBe(true);
    expect((await inView(small, 'conversation-back')).inside).toBe(true);
    // The contact, then back to the conversation, then back to the list.
    await small.getByTestId('show-contact').click();
    await small.getByTestId('contact-panel').waitFor(WAIT);
    expect(await small.getByTestId('conversation-pane').count()).toBe(0);
    await small.getByTestId('contact-back').click();
    await small.getByTestId('send-body').waitFor(WAIT);
    await small.getByTestId('conversation-back').click();
    await small.getByTestId('conversations-pane').waitFor(WAIT);
    expect((await inView(small, 'conversations-pane')).scrolls).toBe(false);
    await phonePage.context.close();
  });

  it('"Text" on a contact opens its conversation; New conversation with its phone opens it too', async () => {
    const created = await callAs(page, 'POST', '/v1/contacts', {
      phone: '+13105550102',
      first_name: 'Nora',
      last_name: 'Never',
    });
    const id = (created.data as { id: number }).id;
    await page.goto(p.url('/business/contacts', HOST));
    // A contact with no messages sorts after the demo's hundreds: found by the search.
    await page.getByTestId('table-search').fill('Nora Never');
    await page.getByTestId(`contact-text-${id}`).click();
    await page.waitForURL(`**/business/messaging**contact=${id}`, WAIT);
    await expect.poll(() => page.getByTestId('conversation-title').textContent(), WAIT).toBe('Nora Never');
    await page.getByTestId('send-body').fill('Hi Nora, your cleaning is due.');
    await page.getByTestId('send-button').click();
    await expect
      .poll(
        async () =>
          (await phone(page, '+13105550102'))?.texts.some((t) => t.body.includes('cleaning is due')),
        WAIT,
      )
      .toBe(true);

    // From the contact's own screen as well.
    await page.goto(p.url(`/business/contacts/${id}`, HOST));
    await page.getByTestId('contact-text').click();
    await page.waitForURL(`**contact=${id}`, WAIT);

    // New conversation with the phone of a contact: no "already exists", the conversation opens.
    await page.goto(p.url('/business/messaging', HOST));
    await page.getByTestId('new-conversation').click();
    await page.getByLabel('Phone number').fill('(310) 555-0102');
    await page.getByRole('button', { name: 'Start' }).click();
    await page.waitForURL(`**contact=${id}`, WAIT);
    await expect.poll(() => page.getByTestId('conversation-title').textContent(), WAIT).toBe('Nora Never');
  });

  it('the inbox search finds an imported contact that never texted, and opens it', async () => {
    const started = await callAs(page, 'POST', '/v1/contacts/import', {
      csv: 'phone,first_name,last_name,tags\n+13105550103,Imogen,Import,"vip,cleaning"\n',
    });
    const importId = (started.data as { import_id: number }).import_id;
    await expect
      .poll(
        async () => ((await callAs(page, 'GET', `/v1/contacts/import/${importId}`)).data as Json).status,
        WAIT,
      )
      .toBe('done');
    await page.goto(p.url('/business/messaging', HOST));
    await page.getByLabel('Search by name or phone').fill('Imogen');
    const row = page
      .getByTestId('conversations')
      .locator('[data-testid^="conversation-"]', { hasText: 'Imogen' });
    await row.first().click();
    await expect.poll(() => page.getByTestId('conversation-title').textContent(), WAIT).toBe('Imogen Import');
    await page.getByTestId('send-body').waitFor(WAIT);
  });

  it('a missed callback appears in the open inbox (Voice too), and "Text back" texts the caller', async () => {
    await page.goto(p.url('/business/messaging', HOST));
    await page.getByTestId('install-picker').waitFor(WAIT);
    const answer = await widgetCallback(installKey, { phone: CALLER, name: 'Carl Caller' });
    expect((answer.data as { status: string }).status).toBe('calling');
    for (const staff of [FRONT_DESK, DR_BRIGHT])
      await expect.poll(async () => (await phone(page, staff))?.state, WAIT).toBe('ringing');
    for (const staff of [FRONT_DESK, DR_BRIGHT])
      await callAs(page, 'POST', `/v1/sandbox/phones/${encodeURIComponent(staff)}/reject`, {});
    // Without a reload: the conversation with the caller, its last item the missed call.
    const row = page
      .getByTestId('conversations')
      .locator('[data-testid^="conversation-"]', { hasText: 'Carl Caller' });
    await row.first().waitFor(WAIT);
    await expect
      .poll(() => row.first().getByTestId('conversation-preview').textContent(), WAIT)
      .toContain('Missed call');
    await page.getByTestId('conversations-pane').getByText('Voice', { exact: true }).click();
    await expect
      .poll(
        () =>
          page
            .getByTestId('conversations')
            .locator('[data-testid^="conversation-"]', { hasText: 'Carl Caller' })
            .count(),
        WAIT,
      )
      .toBe(1);
    await row.first().click();
    const call = page.getByTestId('conversation').locator('[data-outcome="missed"]');
    await call.first().waitFor(WAIT);
    await call.first().getByTestId('text-back').click();
    await expect
      .poll(() => page.getByTestId('send-body').inputValue(), WAIT)
      .toBe('Sorry we missed your call. How can we help?');
    await page.getByTestId('send-button').click();
    await expect
      .poll(
        async () =>
          (await phone(page, CALLER))?.texts.some(
            (t) => t.body === 'Sorry we missed your call. How can we help?',
          ),
        WAIT,
      )
      .toBe(true);
  });

  it("an answered inbound call is in the caller's conversation, as an incoming call", async () => {
    await page.goto(p.url('/business/messaging', HOST));
    await page.getByTestId('install-picker').waitFor(WAIT);
    await act(page, INBOUND_CALLER, 'dial', { to: INSTALL_NUMBER });
    await expect.poll(async () => (await phone(page, FRONT_DESK))?.state, WAIT).toBe('ringing');
    await act(page, FRONT_DESK, 'answer');
    await expect.poll(async () => (await phone(page, FRONT_DESK))?.call?.gathering, WAIT).toBe(true);
    await act(page, FRONT_DESK, 'press', { digits: '1' });
    await expect
      .poll(async () => (await phone(page, INBOUND_CALLER))?.call?.bridged_with, WAIT)
      .toBe(FRONT_DESK);
    await act(page, INBOUND_CALLER, 'hangup');
    await expect.poll(async () => (await phone(page, FRONT_DESK))?.state, WAIT).toBe('idle');
    // The caller gave no name: the row is the phone. The open inbox shows it without a reload.
    const row = page
      .getByTestId('conversations')
      .locator('[data-testid^="conversation-"]', { hasText: '0177' });
    await row.first().waitFor(WAIT);
    await page.reload();
    await row.first().waitFor(WAIT);
    expect(await row.first().getByTestId('conversation-preview').textContent()).toContain(
      'Incoming call · Answered',
    );
    await row.first().click();
    const call = page.getByTestId('conversation').locator('[data-outcome="completed"]');
    await call.first().waitFor(WAIT);
    expect(await call.first().textContent()).toContain('Incoming call · Answered');
    expect(await call.first().getByTestId('text-back').count()).toBe(0);
  });

  it('the restricted-content dialog shows the message with its restricted words marked', async () => {
    await page.goto(p.url(`/business/messaging/${installId}?contact=${longId}`, HOST));
    await page.getByTestId('send-body').fill('Cheap beer and cigarettes here');
    await page.getByTestId('send-button').click();
    const modal = page.getByTestId('restricted-content-modal');
    await modal.waitFor(WAIT);
    expect(await modal.getByTestId('restricted-preview').textContent()).toBe(
      'Cheap b*** and c********* here',
    );
    expect(await modal.getByTestId('restricted-word').allTextContents()).toEqual(['b***', 'c*********']);
    await page.getByRole('button', { name: 'Got It' }).click();
    await expect.poll(() => modal.count(), WAIT).toBe(0);
  });
});
