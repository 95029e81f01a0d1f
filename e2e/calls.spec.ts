import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, hasChromium, type Platform, signIn, startPlatform } from './harness.ts';

// The calls screens of the business area (issue 9, ADR 031) in Chromium, with data made through the
// product itself: callbacks asked for on the widget's public endpoint with the demo install's key, and the
// sandbox carrier's phones answered, pressed and hung up through its control API (as the Sandbox Phones
// screen does). Bright Dental's demo install rings Front desk (+15005550101) and Dr. Bright (+15005550102).

let p: Platform;
const HOST = 'acme.localhost';
const FRONT_DESK = '+15005550101';
const DR_BRIGHT = '+15005550102';
const VISITOR = '+12133734253';
const VISITOR_2 = '+13105550147';

type Json = Record<string, unknown> & { data?: unknown };

/**
 * One call of the API from the signed-in page (the test's own hands: setup and the sandbox phones), with
 * the page's bearer token, or with an install key for the widget's endpoints.
 */
async function callAs(page: Page, method: string, path: string, body?: unknown, installKey?: string) {
  const res = await page.evaluate(
    async ({ method, path, body, installKey }) => {
      const headers: Record<string, string> = {};
      const token = localStorage.getItem('access_token');
      if (installKey) headers['x-install-key'] = installKey;
      else if (token) headers.authorization = `Bearer ${token}`;
      if (body !== undefined) headers['content-type'] = 'application/json';
      const r = await fetch(`/api${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: r.status, text: await r.text() };
    },
    { method, path, body, installKey },
  );
  if (res.status >= 400) throw new Error(`${method} ${path} → ${res.status} ${res.text}`);
  return (res.text ? JSON.parse(res.text) : {}) as Json;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` until it holds (expect.poll is for tests only, and the data is made before them). */
async function until(check: () => Promise<boolean>, what: string, timeout = 30_000): Promise<void> {
  const end = Date.now() + timeout;
  while (Date.now() < end) {
    if (await check()) return;
    await sleep(200);
  }
  throw new Error(`timed out waiting: ${what}`);
}

type Phone = { number: string; state: string; call: { gathering: boolean; heard: string[] } | null };

async function phone(page: Page, number: string): Promise<Phone | undefined> {
  const res = await callAs(page, 'GET', '/v1/sandbox/phones');
  return (res.data as Phone[]).find((x) => x.number === number);
}

async function waitPhone(page: Page, number: string, ok: (ph: Phone | undefined) => boolean, what: string) {
  await until(async () => ok(await phone(page, number)), what);
}

const press = (page: Page, n: string, action: string, body?: unknown) =>
  callAs(page, 'POST', `/v1/sandbox/phones/${encodeURIComponent(n)}/${action}`, body ?? {});

/** Open all week (whatever the hour the test runs at) and recorded. */
const ALL_DAY = { open: true, from: '12:00AM', to: '11:59PM' };
const OPEN_ALWAYS = Object.fromEntries(
  ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, ALL_DAY]),
);

async function requestCallback(page: Page, key: string, phoneNumber: string, name: string): Promise<number> {
  const body = await callAs(page, 'POST', '/widget/v1/callback', { phone: phoneNumber, name }, key);
  const data = body.data as { status: string; call_id: number | null };
  expect(data.status).toBe('calling');
  return data.call_id as number;
}

async function waitOutcome(page: Page, id: number, outcome: string) {
  let last = '';
  await until(async () => {
    last = ((await callAs(page, 'GET', `/v1/calls/${id}`)).data as { outcome: string }).outcome;
    return last === outcome;
  }, `call ${id} ${outcome}`).catch((err) => {
    throw new Error(`${err.message} (it is ${last})`);
  });
}

/** Whether an <audio> element plays a blob object URL and knows its (positive) duration. */
async function audioLoaded(page: Page, testId: string) {
  const audio = page.getByTestId(testId);
  await audio.waitFor();
  expect(await audio.getAttribute('src')).toMatch(/^blob:/);
  await expect
    .poll(() => audio.evaluate((el: HTMLAudioElement) => (Number.isFinite(el.duration) ? el.duration : 0)), {
      timeout: 10_000,
    })
    .toBeGreaterThan(0);
}

describe.skipIf(!hasChromium)('calls screens in Chromium, with calls made through the sandbox', () => {
  let page: Page;
  let completedId: number;
  let missedId: number;
  let businessId: number;

  beforeAll(async () => {
    p = await startPlatform();
    ({ page } = await p.newPage());
    // A step that fails says which element it waited for, before the test's own time runs out.
    page.setDefaultTimeout(15_000);
    await signIn(page, p.url('/login', HOST), DEMO.dentalAdmin);
    await page.waitForURL('**/business/messaging');
    const installs = (await callAs(page, 'GET', '/v1/installs/all')).data as { id: number }[];
    const installId = installs[0]?.id as number;
    await callAs(page, 'PUT', `/v1/installs/${installId}`, {
      settings: { hours: OPEN_ALWAYS, call_recording: true, voicemail_enabled: true },
    });
    const key = ((await callAs(page, 'GET', `/v1/installs/${installId}/embed-code`)).data as { key: string })
      .key;
    const profile = (await callAs(page, 'GET', '/v1/profile')).data as { user: { business: { id: number } } };
    businessId = profile.user.business.id;

    // 1. A callback Dr. Bright claims: both staff phones ring, the second presses 1, the visitor answers,
    // talks for a moment (recorded) and hangs up.
    completedId = await requestCallback(page, key, VISITOR, 'Vera Visitor');
    await waitPhone(page, FRONT_DESK, (ph) => ph?.state === 'ringing', 'front desk rings');
    await waitPhone(page, DR_BRIGHT, (ph) => ph?.state === 'ringing', 'Dr. Bright rings');
    await press(page, DR_BRIGHT, 'answer');
    await waitPhone(page, DR_BRIGHT, (ph) => Boolean(ph?.call?.gathering), 'Dr. Bright hears "press 1"');
    await press(page, DR_BRIGHT, 'press', { digits: '1' });
    await waitPhone(page, VISITOR, (ph) => ph?.state === 'ringing', 'the visitor rings');
    await press(page, VISITOR, 'answer');
    await waitPhone(page, VISITOR, (ph) => ph?.state === 'in-call', 'the visitor is connected');
    await sleep(1500);
    await press(page, VISITOR, 'hangup');
    await waitOutcome(page, completedId, 'completed');

    // 2. A callback nobody takes: both staff phones reject it, the visitor hears the missed-call message
    // and leaves a voicemail.
    missedId = await requestCallback(page, key, VISITOR_2, 'Max Missed');
    await waitPhone(page, FRONT_DESK, (ph) => ph?.state === 'ringing', 'front desk rings again');
    await waitPhone(page, DR_BRIGHT, (ph) => ph?.state === 'ringing', 'Dr. Bright rings again');
    await press(page, FRONT_DESK, 'reject');
    await press(page, DR_BRIGHT, 'reject');
    await waitPhone(
      page,
      VISITOR_2,
      (ph) => ph?.state === 'ringing',
      'the visitor gets the missed-call call',
    );
    await press(page, VISITOR_2, 'answer');
    await waitPhone(
      page,
      VISITOR_2,
      (ph) => Boolean(ph?.call?.heard.some((h) => h.includes('[beep]'))),
      'the visitor hears the beep',
    );
    await sleep(1500);
    await press(page, VISITOR_2, 'hangup');
    await waitOutcome(page, missedId, 'missed');
    await until(
      async () => ((await callAs(page, 'GET', '/v1/voice-records')).data as unknown[]).length === 1,
      'the voicemail is a voice record',
    );
  }, 180_000);
  afterAll(() => p?.stop());

  it('the calls list shows both calls and filters them by outcome', async () => {
    await page.goto(p.url('/business/calls', HOST));
    const table = page.getByTestId('calls-table');
    await table.getByTestId(`row-${completedId}`).waitFor();
    await table.getByTestId(`row-${missedId}`).waitFor();
    expect(await page.getByTestId(`call-phone-${completedId}`).textContent()).toBe(VISITOR);
    expect(await page.getByTestId(`call-outcome-${completedId}`).textContent()).toBe('Completed');
    expect(await page.getByTestId(`call-outcome-${missedId}`).textContent()).toBe('Missed');

    await page.getByTestId('calls-filter-outcome').click();
    await page.getByRole('option', { name: 'Missed' }).click();
    await expect.poll(() => table.getByTestId(`row-${completedId}`).count()).toBe(0);
    expect(await table.getByTestId(`row-${missedId}`).count()).toBe(1);
    await page.getByTestId('calls-filter-reset').click();
    await table.getByTestId(`row-${completedId}`).waitFor();

    // The keyword searches the visitor: one call has this number.
    await page.getByTestId('table-search').fill('Vera');
    await expect.poll(() => table.getByTestId(`row-${missedId}`).count()).toBe(0);
    expect(await table.getByTestId(`row-${completedId}`).count()).toBe(1);
    await page.getByTestId('table-search').fill('');
  });

  it('the detail shows the legs, who claimed it, and plays the recording from a blob', async () => {
    await page.goto(p.url('/business/calls', HOST));
    await page.getByTestId(`call-open-${completedId}`).click();
    await page.waitForURL(`**/business/calls?call=${completedId}`);
    const detail = page.getByTestId('call-detail');
    await detail.waitFor();
    expect(await page.getByTestId('call-detail-outcome').textContent()).toBe('Completed');
    expect(await page.getByTestId('call-detail-agent').textContent()).toContain(DR_BRIGHT);
    expect(await page.getByTestId('call-detail-connect').textContent()).toMatch(/^\d+(\.\d)? s$/);
    expect(await page.getByTestId('call-detail-duration').textContent()).toMatch(/^\d+:\d\d$/);
    // Two staff legs and the visitor's, the claiming one marked.
    expect(await page.getByTestId('call-leg-staff').count()).toBe(2);
    expect(await page.getByTestId('call-leg-visitor').count()).toBe(1);
    expect(await page.getByTestId('call-leg-claimed').count()).toBe(1);
    expect(
      await page
        .getByTestId('call-leg-staff')
        .filter({ hasText: DR_BRIGHT })
        .getByTestId('call-leg-claimed')
        .count(),
    ).toBe(1);

    await page.getByTestId('call-recording-play').click();
    await audioLoaded(page, 'call-recording');

    // Escape closes the drawer and the address loses the call.
    await page.keyboard.press('Escape');
    await expect.poll(() => new URL(page.url()).searchParams.get('call')).toBeNull();
  });

  it('voice records: the voicemail plays and can be deleted', async () => {
    await page.goto(p.url('/business/voice-records', HOST));
    const table = page.getByTestId('voice-records-table');
    const row = table.locator('tbody tr').filter({ hasText: VISITOR_2 });
    await row.waitFor();
    const id = ((await callAs(page, 'GET', '/v1/voice-records')).data as { id: number }[])[0]?.id as number;
    await page.getByTestId(`voice-record-audio-${id}-play`).click();
    await audioLoaded(page, `voice-record-audio-${id}`);

    await page.getByTestId(`voice-record-delete-${id}`).click();
    await page.getByTestId('voice-record-delete-ok').click();
    await expect.poll(() => row.count()).toBe(0);
    expect(((await callAs(page, 'GET', '/v1/voice-records')).data as unknown[]).length).toBe(0);
  });

  it('schedules a call (a bad phone is refused first) and cancels it', async () => {
    await page.goto(p.url('/business/schedule/calls', HOST));
    await page.getByTestId('scheduled-calls-table').getByRole('table').waitFor();
    await page.getByTestId('schedule-call-open').click();
    await page.getByTestId('schedule-call-install').click();
    await page.getByRole('option', { name: 'Bright Dental website' }).click();
    await page.getByTestId('schedule-call-phone').fill('+1 555');
    await page.getByTestId('schedule-call-name').fill('Sam Scheduled');
    const tomorrow = new Date(Date.now() + 24 * 3600_000);
    const date = `${tomorrow.getFullYear()}-${String(tomorrow.getMonth() + 1).padStart(2, '0')}-${String(tomorrow.getDate()).padStart(2, '0')}`;
    await page.getByTestId('schedule-call-date').fill(date);
    await page.getByTestId('schedule-call-time').fill('10:30');
    await page.getByTestId('schedule-call-submit').click();
    await page.getByText('Wrong phone number format!!').waitFor();
    expect(((await callAs(page, 'GET', '/v1/scheduled-calls')).data as unknown[]).length).toBe(0);

    await page.getByTestId('schedule-call-phone').fill('+1 213 555 0199');
    await page.getByTestId('schedule-call-submit').click();
    await page.getByTestId('schedule-call-form').waitFor({ state: 'detached' });
    const row = page
      .getByTestId('scheduled-calls-table')
      .locator('tbody tr')
      .filter({ hasText: '+12135550199' });
    await row.waitFor();
    expect(await row.textContent()).toContain('Scheduled');
    expect(await row.textContent()).toContain('10:30am');

    const id = Number((await row.getAttribute('data-testid'))?.replace('row-', ''));
    expect(id).toBeGreaterThan(0);

    // Cancel asks first; the call leaves the list of calls to make and is canceled in the calls list.
    await row.getByRole('button', { name: 'Cancel call' }).click();
    await page.getByTestId('scheduled-call-cancel-ok').click();
    await expect.poll(() => row.count()).toBe(0);
    expect(((await callAs(page, 'GET', `/v1/calls/${id}`)).data as { outcome: string }).outcome).toBe(
      'canceled',
    );
    await page.goto(p.url('/business/calls', HOST));
    await page.getByTestId('calls-filter-outcome').click();
    await page.getByRole('option', { name: 'Canceled' }).click();
    await page.getByTestId(`call-outcome-${id}`).waitFor();
    expect(await page.getByTestId(`call-outcome-${id}`).textContent()).toBe('Canceled');
  });

  it('the calls report shows the totals, the outcomes and the agent who claimed', async () => {
    await page.goto(p.url('/business/calls-report', HOST));
    await page.getByTestId('calls-report').waitFor();
    // Today holds this test's two calls alone (the demo's call history ends two days before the start).
    const now = new Date();
    const today = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
    await page.getByTestId('report-from').fill(today);
    await page.getByTestId('report-to').fill(today);
    await expect.poll(() => page.getByTestId('report-completed').textContent()).toBe('1');
    expect(await page.getByTestId('report-missed').textContent()).toBe('1');
    expect(Number(await page.getByTestId('report-requested').textContent())).toBeGreaterThanOrEqual(2);
    expect(await page.getByTestId('report-median').textContent()).toMatch(/^\d+(\.\d)? s$/);
    const agent = page.getByTestId(`report-agent-${DR_BRIGHT}`);
    await agent.waitFor();
    expect(await agent.textContent()).toContain('Dr. Bright');

    // A range before any call: nothing in it.
    await page.getByTestId('report-from').fill('2020-01-01');
    await page.getByTestId('report-to').fill('2020-01-31');
    await expect.poll(() => page.getByTestId('report-completed').textContent()).toBe('0');
  });

  it('a user who sees only the calls it took is told so, instead of a bare empty list', async () => {
    // The business's manager is shown every call, with no such note.
    await page.goto(p.url('/business/calls', HOST));
    await page.getByTestId('calls-table').getByRole('table').waitFor();
    expect(await page.getByTestId('calls-own-only').count()).toBe(0);
    const { page: sales, context } = await p.newPage();
    await signIn(sales, p.url('/login', HOST), DEMO.dentalSales);
    await sales.waitForURL('**/business/**');
    await sales.goto(p.url('/business/calls', HOST));
    const note = sales.getByTestId('calls-own-only');
    await note.waitFor();
    expect(await note.textContent()).toBe('You see the calls you took.');
    await sales.goto(p.url('/business/voice-records', HOST));
    await sales.getByTestId('calls-own-only').waitFor();
    expect(await sales.getByTestId('calls-own-only').textContent()).toBe(
      'You see the voicemails of the calls you took.',
    );
    await context.close();
  });

  it('the usage counter and the limit banner show the real number of calls', async () => {
    // The callbacks counted against the month: the agency caps Bright Dental at what it used.
    const used = (
      (await callAs(page, 'GET', '/v1/profile')).data as { user: { business: { number_of_calls: number } } }
    ).user.business.number_of_calls;
    expect(used).toBeGreaterThanOrEqual(2);
    const { page: agency, context } = await p.newPage();
    await signIn(agency, p.url('/login', HOST), DEMO.acmeAgency);
    await agency.waitForURL('**/agency/**');
    await callAs(agency, 'PUT', `/v1/business/${businessId}`, { calls: used });
    await context.close();
    await page.goto(p.url('/business/calls', HOST));
    const counter = page.getByTestId('calls-usage');
    await counter.waitFor();
    expect(await counter.textContent()).toContain(`${used} / ${used}`);
    expect(await counter.getAttribute('data-level')).toBe('limit');
    await page.getByTestId('banner-calls-limit').waitFor();
  });
});
