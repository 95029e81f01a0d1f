import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiAs, DEMO, hasChromium, type Platform, signedInPage, startPlatform } from './harness.ts';

// Broadcasts (issue 19) in Chromium against the real server and the sandbox carrier, as Bright Dental's
// BusinessAdmin:
// - the walk: build a broadcast to a tag, send it as a test to one phone, start it, watch its
//   progress in the list, open its report and download the CSV (its rows are the recipients);
// - the report screen alone on a broadcast made through the API: counts, the chart and its table, skipped
//   and failed by reason, the recipients table's filters, a reply and "opt out those who asked to stop".

let p: Platform;
const HOST = 'acme.localhost';
const WAIT = { timeout: 30_000 };

type Json = Record<string, unknown> & { data?: unknown };
type Api = Awaited<ReturnType<typeof apiAs>>;
let api: Api;

/** One API call as Bright Dental's admin (the test's own hands: setting up data, reading the sandbox). */
async function call<T = Json>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await api<T>(path, { method, ...(body !== undefined ? { body } : {}) });
  if (res.status >= 400) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/**
 * Places where the test's recipients live. Broadcasts keep quiet hours (no text before 08:00 or from 21:00
 * where the recipient is: the zone of the phone's country or area code), so the test texts phones of a
 * place where it is now day (09:00 to 19:59), whenever it runs. US and Canadian numbers are always
 * reachable; another country is once the agency allows it (the reach rule, ADR 051), which the test does.
 */
type Place = { zone: string; country: string; phone: (n: number) => string };
const two = (n: number) => String(n).padStart(2, '0');
const PLACES: Place[] = [
  // 555-01xx, 020 7946 0xxx, 03-5550-xxxx and 02 5550 xxxx are numbers kept for fiction.
  { zone: 'America/New_York', country: 'US', phone: (n) => `+121255501${two(n)}` },
  { zone: 'Pacific/Honolulu', country: 'US', phone: (n) => `+180855501${two(n)}` },
  { zone: 'Europe/London', country: 'GB', phone: (n) => `+4420794601${two(n)}` },
  { zone: 'Asia/Tokyo', country: 'JP', phone: (n) => `+813555000${two(n)}` },
  { zone: 'Australia/Sydney', country: 'AU', phone: (n) => `+612555000${two(n)}` },
];

/** A place where it is now 09:00 to 19:59: nobody crosses 21:00 while the test runs. */
function dayPlace(now = new Date()): Place {
  const hour = (zone: string) =>
    Number(
      new Intl.DateTimeFormat('en-US', { hour: 'numeric', hourCycle: 'h23', timeZone: zone }).format(now),
    );
  const found = PLACES.find((pl) => hour(pl.zone) >= 9 && hour(pl.zone) <= 19);
  if (!found) throw new Error(`no place of the test is in daytime at ${now.toISOString()}`);
  return found;
}

/** Each try of a test (vitest retries a failed one) makes its own tags and broadcasts, named by `run`. */
let run = 0;

async function makeTag(name: string): Promise<number> {
  return ((await call('POST', '/v1/tags', { name })).data as { id: number }).id;
}

/**
 * The business's sending number for broadcasts: an active broadcaster, else one made of its first number
 * that texts (the broadcast-numbers screen has its own test).
 */
async function ensureBroadcaster(): Promise<string> {
  const all = (await call('GET', '/v1/broadcasters/all')).data as { phone_number: string; active: boolean }[];
  const active = all.find((b) => b.active);
  if (active) return active.phone_number;
  const numbers = (await call('GET', '/v1/numbers?perPage=100')).data as {
    id: number;
    phone_number: string;
    sms_enabled: boolean;
  }[];
  const number = numbers.find((n) => n.sms_enabled) ?? numbers[0];
  if (!number) throw new Error('Bright Dental has no number to send broadcasts from');
  await call('POST', '/v1/broadcasters', { number_id: number.id });
  return number.phone_number;
}
async function makeContact(first: string, last: string, phone: string, tagIds: number[]): Promise<number> {
  const made = await call('POST', '/v1/contacts', {
    first_name: first,
    last_name: last,
    phone,
    tag_ids: tagIds,
  });
  return (made.data as { id: number }).id;
}

type SandboxText = { direction: 'in' | 'out'; other: string; body: string };
/** What a phone received through the sandbox carrier (its record, not ours). */
async function sandboxInbox(number: string): Promise<SandboxText[]> {
  const phones = (await call('GET', '/v1/sandbox/phones')).data as { number: string; texts: SandboxText[] }[];
  return (phones.find((x) => x.number === number)?.texts ?? []).filter((tx) => tx.direction === 'in');
}
async function sandboxTexts(number: string): Promise<string[]> {
  return (await sandboxInbox(number)).map((tx) => tx.body);
}

/** The CSV a click saved, as rows of cells (the one CSV writer quotes with "; no cell here has a newline). */
async function savedCsv(page: Page, click: () => Promise<void>): Promise<string[][]> {
  const download = page.waitForEvent('download', WAIT);
  await click();
  const file = await (await download).path();
  const text = fs.readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
  return text
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '')
    .map((line) =>
      [...line.matchAll(/("([^"]|"")*"|[^,]*)(,|$)/g)]
        .map((m) => m[1].replace(/^"|"$/g, '').replace(/""/g, '"'))
        .slice(0, -1),
    );
}

/** The names of a contact's tags. */
async function tagsOf(contactId: number): Promise<string[]> {
  const contact = (await call('GET', `/v1/contacts/${contactId}`)).data as { tags: { name: string }[] };
  return contact.tags.map((t) => t.name);
}

/** The number a stat card shows. */
async function stat(page: Page, testId: string): Promise<number> {
  return Number((await page.getByTestId(testId).textContent()) ?? Number.NaN);
}

describe.skipIf(!hasChromium)('broadcasts in Chromium', () => {
  let page: Page;
  let place: Place;

  /** A phone of the place no one had yet (tries included; the demo's contacts are 555-0100 to 555-0129). */
  let phones = 60;
  const nextPhone = () => place.phone(phones++);
  let sender = '';

  beforeAll(async () => {
    place = dayPlace();
    p = await startPlatform();
    if (place.country !== 'US') {
      // Bright Dental's agency (Acme) lets its businesses text that country.
      const agency = await apiAs(p, DEMO.acmeAgency);
      const res = await agency('/v1/internationals', {
        method: 'POST',
        body: { countries: ['US', 'CA', place.country] },
      });
      expect(res.status).toBe(200);
    }
    api = await apiAs(p, DEMO.dentalAdmin);
    sender = await ensureBroadcaster();
    page = await signedInPage(p, DEMO.dentalAdmin, '**/business/**', HOST);
  });
  afterAll(() => p?.stop());

  it('builds a broadcast to a tag, test-sends it, starts it, watches it, opens the report, downloads the CSV', async () => {
    run += 1;
    const tagName = `Spring sale ${run}`;
    const name = `Spring sale launch ${run}`;
    const tag = await makeTag(tagName);
    const people: [string, string, string][] = [
      ['Ada', 'Lovelace', nextPhone()],
      ['Alan', 'Turing', nextPhone()],
      ['Grace', 'Hopper', nextPhone()],
    ];
    for (const [first, last, phone] of people) await makeContact(first, last, phone, [tag]);
    // Someone without the tag gets nothing.
    const outsider = nextPhone();
    await makeContact('Linus', 'Outside', outsider, []);

    await page.goto(p.url('/business/broadcast/create', HOST));
    await page.getByTestId('broadcast-name').fill(name);
    await page.getByTestId('broadcast-tags').click();
    await page.getByRole('option', { name: tagName, exact: true }).click();
    await page.keyboard.press('Escape');
    // The recipient count follows the audience.
    await expect.poll(() => page.getByTestId('broadcast-recipients').textContent(), WAIT).toContain('3');
    await page.getByTestId('broadcast-body').fill('Hi {first_name|there}, 20% off cleanings this week!');

    // A test to one phone, now: the phone gets the message filled for a sample contact.
    const tester = nextPhone();
    await page.getByTestId('broadcast-test-phone').fill(tester);
    await page.getByTestId('broadcast-test-send').click();
    await page.getByTestId('broadcast-test-sent').waitFor(WAIT);
    await expect
      .poll(() => sandboxTexts(tester), WAIT)
      .toEqual([expect.stringContaining('20% off cleanings this week!')]);

    // Start, confirmed with the recipients and credits: the list shows it and its progress.
    await page.getByTestId('broadcast-start').click();
    await expect.poll(() => page.getByTestId('broadcast-start-summary').textContent(), WAIT).toContain('3');
    await page.getByTestId('broadcast-start-ok').click();
    await page.waitForURL('**/business/broadcast', WAIT);
    const row = page.getByTestId('broadcasts-table').locator('tr', { hasText: name });
    await row.waitFor(WAIT);
    const id = Number(
      ((await row.locator('[data-testid^="broadcast-status-"]').getAttribute('data-testid')) ?? '').replace(
        'broadcast-status-',
        '',
      ),
    );
    expect(id).toBeGreaterThan(0);
    // The progress reaches 100 % and the status Completed, pushed over /ws (the list is not reloaded).
    await expect
      .poll(() => page.getByTestId(`broadcast-progress-${id}`).getAttribute('data-value'), WAIT)
      .toBe('100');
    await expect.poll(() => page.getByTestId(`broadcast-status-${id}`).textContent(), WAIT).toBe('Completed');
    // Each recipient's phone got the message once, with its own name; the untagged contact none.
    for (const [first, , phone] of people)
      await expect
        .poll(() => sandboxTexts(phone), WAIT)
        .toEqual([`Hi ${first}, 20% off cleanings this week!`]);
    expect(await sandboxTexts(outsider)).toEqual([]);

    // The report, from the list's action.
    await page.getByTestId(`broadcast-report-${id}`).click();
    await page.waitForURL(`**/business/broadcast/${id}/report`, WAIT);
    await expect.poll(() => page.getByTestId('page-title').textContent(), WAIT).toBe(name);
    await expect.poll(() => page.getByTestId('report-status').textContent(), WAIT).toBe('Completed');
    // Its sending numbers: the business's broadcasters, among them the one the test made sure of.
    await expect.poll(() => page.getByTestId('report-numbers').textContent(), WAIT).toContain(sender);
    await expect.poll(() => stat(page, 'stat-total'), WAIT).toBe(3);
    await expect.poll(() => stat(page, 'stat-sent'), WAIT).toBe(3);
    await expect.poll(() => stat(page, 'stat-failed'), WAIT).toBe(0);
    await expect.poll(() => page.getByTestId('report-recipients').locator('tbody tr').count(), WAIT).toBe(3);

    // The CSV: a header and one row per recipient, with their phones.
    const rows = await savedCsv(page, () => page.getByTestId('report-download').click());
    expect(rows).toHaveLength(4);
    const body = rows.slice(1).map((r) => r.join(','));
    for (const [first, last, phone] of people) {
      expect(body.some((line) => line.includes(phone))).toBe(true);
      expect(body.some((line) => line.includes(`${first} ${last}`))).toBe(true);
    }
  });

  it('the report alone: counts, chart and table, reasons, filters, a reply, and the bulk opt-out', async () => {
    run += 1;
    const tag = await makeTag(`Report test ${run}`);
    const kate = nextPhone();
    const leo = nextPhone();
    const ids = {
      kate: await makeContact('Kate', 'Reply', kate, [tag]),
      leo: await makeContact('Leo', 'Quiet', leo, [tag]),
      mia: await makeContact('Mia', 'Gone', nextPhone(), [tag]),
    };
    // One recipient's phone is a landline: the carrier takes the text, then reports it undelivered (30006).
    const landline = nextPhone();
    await makeContact('Ned', 'Landline', landline, [tag]);
    await call('PUT', `/v1/sandbox/failing-numbers/${encodeURIComponent(landline)}`, { code: 30006 });
    // One recipient opted out before: skipped, with its reason.
    await call('POST', `/v1/contacts/${ids.mia}/opt-out`, { opted_out: true });
    const made = await call('POST', '/v1/broadcasts', {
      name: `Report screen check ${run}`,
      body: 'Your checkup is due, {first_name|friend}.',
      audience: { tag_ids: [tag] },
      start: true,
    });
    const id = (made.data as { id: number }).id;

    await page.goto(p.url(`/business/broadcast/${id}/report`, HOST));
    await expect
      .poll(() => page.getByTestId('page-title').textContent(), WAIT)
      .toBe(`Report screen check ${run}`);
    // Live: the cards move while it sends and the status becomes Completed without a reload.
    await expect
      .poll(() => page.getByTestId('report-status').getAttribute('data-status'), WAIT)
      .toBe('completed');
    await expect.poll(() => stat(page, 'stat-total'), WAIT).toBe(4);
    await expect.poll(() => stat(page, 'stat-sent'), WAIT).toBe(2);
    await expect.poll(() => stat(page, 'stat-failed'), WAIT).toBe(1);
    await expect.poll(() => stat(page, 'stat-skipped'), WAIT).toBe(1);
    // The reasons, in words: the carrier's code beside its meaning.
    await expect
      .poll(() => page.getByTestId('report-skipped-reasons').textContent(), WAIT)
      .toBe('Opted out1');
    await expect
      .poll(() => page.getByTestId('report-failed-reasons').textContent(), WAIT)
      .toBe('30006Landline or unreachable carrier1');

    // The chart is an image with a title, and its figures are a table.
    const chart = page.getByTestId('report-timeline').locator('svg[role="img"]');
    await chart.waitFor(WAIT);
    expect(await chart.locator('title').textContent()).toBe('Deliveries over time');
    await page.getByTestId('report-timeline').locator('summary').click();
    const deliveredCells = () =>
      page.getByTestId('report-timeline-table').locator('tbody tr td:nth-child(3)').allTextContents();
    await expect.poll(async () => (await deliveredCells()).reduce((s, c) => s + Number(c), 0), WAIT).toBe(2);

    // Filter by state: the skipped one alone.
    await page.getByTestId('report-state-filter').click();
    await page.getByRole('option', { name: 'Skipped' }).click();
    await expect
      .poll(() => page.getByTestId('report-recipients').locator('tbody tr').allInnerTexts(), WAIT)
      .toEqual([expect.stringContaining('Mia Gone')]);
    await page.getByTestId('report-state-filter').click();
    await page.getByRole('option', { name: 'Failed' }).click();
    await expect
      .poll(() => page.getByTestId('report-recipients').locator('tbody tr').allInnerTexts(), WAIT)
      .toEqual([expect.stringContaining('30006 · Landline or unreachable carrier')]);
    await page.getByTestId('report-state-filter').click();
    await page.getByRole('option', { name: 'Failed' }).click();
    await expect.poll(() => page.getByTestId('report-recipients').locator('tbody tr').count(), WAIT).toBe(4);

    // Kate answers in her own words: the report counts a reply, live.
    await expect.poll(() => sandboxTexts(kate), WAIT).toEqual(['Your checkup is due, Kate.']);
    const sentFrom = (await sandboxInbox(kate))[0]?.other ?? '';
    await call('POST', `/v1/sandbox/phones/${encodeURIComponent(kate)}/texts`, {
      to: sentFrom,
      body: 'Please stop texting me',
    });
    await expect.poll(() => stat(page, 'stat-replied'), WAIT).toBe(1);
    await page.getByTestId('report-replied-filter').getByText('Replied', { exact: true }).click();
    await expect
      .poll(() => page.getByTestId('report-recipients').locator('tbody tr').allInnerTexts(), WAIT)
      .toEqual([expect.stringMatching(/Kate Reply[\s\S]*Please stop texting me[\s\S]*Asks to stop/i)]);

    // "Opt out those who asked to stop": confirmed, it says how many, and Kate is opted out.
    await page.getByTestId('report-optout').click();
    await page.getByTestId('report-optout-confirm').click();
    await expect
      .poll(() => page.getByTestId('report-optout-result').textContent(), WAIT)
      .toContain('1 recipient was opted out');
    const contact = (await call('GET', `/v1/contacts/${ids.kate}`)).data as { opted_out: boolean };
    expect(contact.opted_out).toBe(true);
    await expect.poll(() => stat(page, 'stat-opted-out'), WAIT).toBe(1);

    // Tag those who replied: Kate gets the tag, Leo (no reply) does not.
    const repliedTag = `Replied ${run}`;
    await makeTag(repliedTag);
    await page.getByTestId('report-tag').click();
    await page.getByTestId('report-tag-who').getByText('Those who replied').click();
    await page.getByTestId('report-tag-picker').click();
    await page.getByRole('option', { name: repliedTag, exact: true }).click();
    await page.getByTestId('report-tag-picker').press('Escape');
    await page.getByTestId('report-tag-ok').click();
    await page.getByTestId('report-tag-ok').waitFor({ state: 'detached', ...WAIT });
    await expect.poll(() => tagsOf(ids.kate), WAIT).toContain(repliedTag);
    expect(await tagsOf(ids.leo)).not.toContain(repliedTag);

    // Rerun with the audience's new members: the newcomer gets the text; who already had it does not again.
    const newcomer = nextPhone();
    await makeContact('Otto', 'Newcomer', newcomer, [tag]);
    await page.getByTestId('report-rerun').click();
    await page.getByTestId('report-rerun-include-new').check();
    await page.getByTestId('report-rerun-ok').click();
    await expect.poll(() => sandboxTexts(newcomer), WAIT).toEqual(['Your checkup is due, Otto.']);
    await expect
      .poll(() => page.getByTestId('report-status').getAttribute('data-status'), WAIT)
      .toBe('completed');
    await expect.poll(() => stat(page, 'stat-total'), WAIT).toBe(5);
    await expect.poll(() => stat(page, 'stat-sent'), WAIT).toBe(3);
    expect(await sandboxTexts(leo)).toEqual(['Your checkup is due, Leo.']);
    expect(await sandboxTexts(kate)).toEqual(['Your checkup is due, Kate.']);
  });

  it("a scheduled broadcast's report stops it: nothing goes out", async () => {
    run += 1;
    const tag = await makeTag(`Later ${run}`);
    const phone = nextPhone();
    await makeContact('Pat', 'Later', phone, [tag]);
    const made = await call('POST', '/v1/broadcasts', {
      name: `Tomorrow ${run}`,
      body: 'See you tomorrow.',
      audience: { tag_ids: [tag] },
      send_at: new Date(Date.now() + 86_400_000).toISOString(),
      start: true,
    });
    const id = (made.data as { id: number }).id;
    await page.goto(p.url(`/business/broadcast/${id}/report`, HOST));
    await expect
      .poll(() => page.getByTestId('report-status').getAttribute('data-status'), WAIT)
      .toBe('scheduled');
    expect(await page.getByTestId('report-timeline-empty').count()).toBe(1);
    await page.getByTestId('report-stop').click();
    await page.getByTestId('report-stop-confirm').click();
    await expect
      .poll(() => page.getByTestId('report-status').getAttribute('data-status'), WAIT)
      .toBe('stopped');
    expect(await page.getByTestId('report-stop').count()).toBe(0);
    await page.getByTestId('report-rerun').waitFor(WAIT);
    expect(await stat(page, 'stat-sent')).toBe(0);
    expect(await sandboxTexts(phone)).toEqual([]);
  });
});
