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

async function login(who: { email: string; password: string }): Promise<string> {
  const res = await fetch(p.url('/api/v1/login', HOST), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(who),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { access_token: string }).access_token;
}

/** One call of the API as a signed-in user (the test's own hands: setup and the sandbox phones). */
async function call(token: string, method: string, path: string, body?: unknown): Promise<Json> {
  const res = await fetch(p.url(`/api${path}`, HOST), {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${text}`);
  return text ? (JSON.parse(text) as Json) : {};
}

type Phone = { number: string; state: string; call: { gathering: boolean; heard: string[] } | null };

async function phone(token: string, number: string): Promise<Phone | undefined> {
  const res = await call(token, 'GET', '/v1/sandbox/phones');
  return (res.data as Phone[]).find((x) => x.number === number);
}

async function waitPhone(
  token: string,
  number: string,
  ok: (ph: Phone | undefined) => boolean,
  what: string,
) {
  await expect
    .poll(async () => ok(await phone(token, number)), { timeout: 30_000, interval: 200, message: what })
    .toBe(true);
}

const press = (token: string, n: string, action: string, body?: unknown) =>
  call(token, 'POST', `/v1/sandbox/phones/${encodeURIComponent(n)}/${action}`, body ?? {});

/** Open all week (whatever the hour the test runs at) and recorded. */
const ALL_DAY = { open: true, from: '12:00AM', to: '11:59PM' };
const OPEN_ALWAYS = Object.fromEntries(
  ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, ALL_DAY]),
);

async function requestCallback(key: string, phoneNumber: string, name: string): Promise<number> {
  const res = await fetch(p.url('/api/widget/v1/callback', HOST), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-install-key': key },
    body: JSON.stringify({ phone: phoneNumber, name }),
  });
  const body = (await res.json()) as { data?: { status: string; call_id: number | null } };
  expect(res.status, JSON.stringify(body)).toBe(200);
  expect(body.data?.status).toBe('calling');
  return body.data?.call_id as number;
}

async function waitOutcome(token: string, id: number, outcome: string) {
  await expect
    .poll(async () => ((await call(token, 'GET', `/v1/calls/${id}`)).data as { outcome: string }).outcome, {
      timeout: 30_000,
      interval: 250,
    })
    .toBe(outcome);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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
  let token: string;
  let completedId: number;
  let missedId: number;
  let businessId: number;

  beforeAll(async () => {
    p = await startPlatform();
    token = await login(DEMO.dentalAdmin);
    const installs = (await call(token, 'GET', '/v1/installs/all')).data as { id: number }[];
    const installId = installs[0]?.id as number;
    await call(token, 'PUT', `/v1/installs/${installId}`, {
      settings: { hours: OPEN_ALWAYS, call_recording: true, voicemail_enabled: true },
    });
    const key = ((await call(token, 'GET', `/v1/installs/${installId}/embed-code`)).data as { key: string })
      .key;
    const profile = (await call(token, 'GET', '/v1/profile')).data as { user: { business: { id: number } } };
    businessId = profile.user.business.id;

    // 1. A callback Dr. Bright claims: both staff phones ring, the second presses 1, the visitor answers,
    // talks for a moment (recorded) and hangs up.
    completedId = await requestCallback(key, VISITOR, 'Vera Visitor');
    await waitPhone(token, FRONT_DESK, (ph) => ph?.state === 'ringing', 'front desk rings');
    await waitPhone(token, DR_BRIGHT, (ph) => ph?.state === 'ringing', 'Dr. Bright rings');
    await press(token, DR_BRIGHT, 'answer');
    await waitPhone(token, DR_BRIGHT, (ph) => Boolean(ph?.call?.gathering), 'Dr. Bright hears "press 1"');
    await press(token, DR_BRIGHT, 'press', { digits: '1' });
    await waitPhone(token, VISITOR, (ph) => ph?.state === 'ringing', 'the visitor rings');
    await press(token, VISITOR, 'answer');
    await waitPhone(token, VISITOR, (ph) => ph?.state === 'in-call', 'the visitor is connected');
    await sleep(1500);
    await press(token, VISITOR, 'hangup');
    await waitOutcome(token, completedId, 'completed');

    // 2. A callback nobody takes: both staff phones reject it, the visitor hears the missed-call message
    // and leaves a voicemail.
    missedId = await requestCallback(key, VISITOR_2, 'Max Missed');
    await waitPhone(token, FRONT_DESK, (ph) => ph?.state === 'ringing', 'front desk rings again');
    await waitPhone(token, DR_BRIGHT, (ph) => ph?.state === 'ringing', 'Dr. Bright rings again');
    await press(token, FRONT_DESK, 'reject');
    await press(token, DR_BRIGHT, 'reject');
    await waitPhone(
      token,
      VISITOR_2,
      (ph) => ph?.state === 'ringing',
      'the visitor gets the missed-call call',
    );
    await press(token, VISITOR_2, 'answer');
    await waitPhone(
      token,
      VISITOR_2,
      (ph) => Boolean(ph?.call?.heard.some((h) => h.includes('[beep]'))),
      'the visitor hears the beep',
    );
    await sleep(1500);
    await press(token, VISITOR_2, 'hangup');
    await waitOutcome(token, missedId, 'missed');
    await expect
      .poll(async () => ((await call(token, 'GET', '/v1/voice-records')).data as unknown[]).length, {
        timeout: 20_000,
      })
      .toBe(1);

    ({ page } = await p.newPage());
    await signIn(page, p.url('/login', HOST), DEMO.dentalAdmin);
    await page.waitForURL('**/business/messaging');
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
    const id = ((await call(token, 'GET', '/v1/voice-records')).data as { id: number }[])[0]?.id as number;
    await page.getByTestId(`voice-record-audio-${id}-play`).click();
    await audioLoaded(page, `voice-record-audio-${id}`);

    await page.getByTestId(`voice-record-delete-${id}`).click();
    await page.getByTestId('voice-record-delete-ok').click();
    await expect.poll(() => row.count()).toBe(0);
    expect(((await call(token, 'GET', '/v1/voice-records')).data as unknown[]).length).toBe(0);
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
    expect(((await call(token, 'GET', '/v1/scheduled-calls')).data as unknown[]).length).toBe(0);

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

    await row.getByRole('button', { name: 'Cancel call' }).click();
    await page.getByTestId('scheduled-call-cancel-ok').click();
    await expect.poll(async () => (await row.textContent()) ?? '').toContain('Canceled');
    await expect.poll(() => row.getByRole('button', { name: 'Cancel call' }).count()).toBe(0);
  });

  it('the calls report shows the totals, the outcomes and the agent who claimed', async () => {
    await page.goto(p.url('/business/calls-report', HOST));
    await page.getByTestId('calls-report').waitFor();
    expect(await page.getByTestId('report-completed').textContent()).toBe('1');
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

  it('the usage counter and the limit banner show the real number of calls', async () => {
    // The callbacks counted against the month: the agency caps Bright Dental at what it used.
    const used = (
      (await call(token, 'GET', '/v1/profile')).data as { user: { business: { number_of_calls: number } } }
    ).user.business.number_of_calls;
    expect(used).toBeGreaterThanOrEqual(2);
    const agency = await login(DEMO.acmeAgency);
    await call(agency, 'PUT', `/v1/business/${businessId}`, { calls: used });
    await page.goto(p.url('/business/calls', HOST));
    const counter = page.getByTestId('calls-usage');
    await counter.waitFor();
    expect(await counter.textContent()).toContain(`${used} / ${used}`);
    expect(await counter.getAttribute('data-level')).toBe('limit');
    await page.getByTestId('banner-calls-limit').waitFor();
  });
});
