// The ten triggers (ADR 069), each through what really sets it off: the contacts' automation call, a
// callback nobody takes and one that is answered (the sandbox carrier on a ManualClock), an inbound text
// through the carrier's webhook, a contact tagged through the API, the date jobs' function at a chosen
// moment, and the automations' inbound URL posted JSON or form fields. Each asserts the run of the right
// contact, and none for what does not match: another install, keyword or tag, a switched-off automation,
// another business's.
import crypto from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { bearer, snapshot } from '../../../test/helpers.ts';
import { platformSystemContext } from '../../platform/tenancy/context.ts';
import { callCompleted } from '../telephony/service.ts';
import { answeredCall, carrierWebhook, STAFF_2, staffTakes } from '../telephony/testing.ts';
import { runDateTriggers } from './dates.ts';
import { keywordMatches } from './listeners.ts';
import {
  type AutomationsTest,
  addAutomation,
  addContacts,
  addTag,
  automationsApp,
  block,
  expect,
  installWithNumber,
} from './test-support.ts';

/** The machine is shared: a state is waited for this long before the test fails. */
const SLOW = { timeout: 15_000 };

let h: AutomationsTest;
let token: string;
const completedCalls: number[] = [];
/**
 * While `counting`, the statements this file's app sends that read a business's automations of a trigger
 * (matching.ts, activeAutomations).
 * Counted on pg's client before the app connects (the platform wraps each client's query as it connects).
 */
let counting = false;
let readsOfAutomations = 0;
const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
const query = proto.query;
beforeAll(async () => {
  proto.query = function (this: unknown, ...args: unknown[]) {
    if (counting) {
      const first = args[0] as string | { text?: string } | undefined;
      const text = typeof first === 'string' ? first : (first?.text ?? '');
      if (text.startsWith('select "id", "trigger", "installs", "tags" from "automations"'))
        readsOfAutomations++;
    }
    return query.apply(this, args);
  };
  h = await automationsApp();
  token = await h.token(h.seed.a.businessAdmin.email);
  h.t.app.deps.events.on(callCompleted, (p) => {
    completedCalls.push(p.callId);
  });
});
afterAll(async () => {
  await h?.close();
  proto.query = query;
});

/** A journey that waits a day: its run stays live, to be seen. */
const blocks = () => [block('w', 'Wait', { amount: 1, unit: 'days' })];
type Auto = Parameters<typeof addAutomation>[1];
const automation = (a: Omit<Auto, 'blocks'>) => addAutomation(h, { blocks: blocks(), ...a });

type Run = { contact_id: number; trigger: string; entry_key: string; trigger_data: Record<string, unknown> };
const runsOf = (automationId: number) =>
  h.q<Run>(
    'select contact_id, trigger, entry_key, trigger_data from automation_runs where automation_id = $1 order by id',
    [automationId],
  );
const contactId = async (phone: string, business = h.seed.a.business.id) =>
  (
    await h.q<{ id: number }>(
      'select id from contacts where business_id = $1 and phone = $2 and deleted_at is null',
      [business, phone],
    )
  )[0]?.id;
const numberOf = async (installId: number) =>
  (
    await h.q<{ phone_number: string }>('select phone_number from numbers where install_id = $1', [installId])
  )[0]?.phone_number as string;

describe('direct-call', () => {
  it('the contact call starts a direct-call run; a switched-off automation starts none', async () => {
    const on = await automation({ trigger: 'direct-call' });
    const off = await automation({ trigger: 'direct-call', active: false });
    const [x] = (await addContacts(h, { count: 1, first: 100 })) as [number];
    const res = await h.t.app.inject({
      method: 'POST',
      url: `/api/v1/contacts/${x}/automation/${on}`,
      headers: bearer(token),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await runsOf(on)).toMatchObject([{ contact_id: x, trigger: 'direct-call' }]);
    const refused = await h.t.app.inject({
      method: 'POST',
      url: `/api/v1/contacts/${x}/automation/${off}`,
      headers: bearer(token),
    });
    expect(refused.statusCode).toBe(422);
    expect(await runsOf(off)).toEqual([]);
  });
});

describe('missed-call and completed-call', () => {
  it('a missed callback enters the missed-call automations of its install (or of any), once', async () => {
    const one = await h.install({ timeout: 20 });
    const two = await h.install({ timeout: 20 });
    const onOne = await automation({ trigger: 'missed-call', installs: [one.id] });
    const onAny = await automation({ trigger: 'missed-call' });
    const onTwo = await automation({ trigger: 'missed-call', installs: [two.id] });
    const off = await automation({ trigger: 'missed-call', active: false });
    const theirs = await automation({ trigger: 'missed-call', tenant: 'b' });
    const completed = await automation({ trigger: 'completed-call' });

    const visitor = '+14155550161';
    const res = await h.callback(one.key, { phone: visitor, name: 'Max Missed' });
    expect(res.statusCode, res.body).toBe(200);
    const callId = res.json().data.call_id as number;
    await h.run(25_000);
    const [call] = await h.q<{ outcome: string }>('select outcome from calls where id = $1', [callId]);
    expect(call?.outcome).toBe('missed');

    const contact = await contactId(visitor);
    expect(contact).toBeDefined();
    for (const id of [onOne, onAny])
      await expect
        .poll(() => runsOf(id), SLOW)
        .toEqual([
          {
            contact_id: contact,
            trigger: 'missed-call',
            entry_key: `call-${callId}`,
            trigger_data: { call_id: callId, outcome: 'missed', install_id: one.id },
          },
        ]);
    for (const id of [onTwo, off, theirs, completed]) expect(await runsOf(id)).toEqual([]);
    // The missed-call message rings the visitor; the call is over whatever they do: nothing enters again.
    h.sandbox.phones.hangUp(visitor);
    await h.run(5_000);
    expect(await runsOf(onAny)).toHaveLength(1);
  });

  it('an answered callback enters the completed-call automations, once, and no missed-call one', async () => {
    const install = await h.install();
    const other = await h.install();
    const completed = await automation({ trigger: 'completed-call', installs: [install.id] });
    const elsewhere = await automation({ trigger: 'completed-call', installs: [other.id] });
    const off = await automation({ trigger: 'completed-call', active: false });
    const missed = await automation({ trigger: 'missed-call', installs: [install.id] });

    const visitor = '+14155550162';
    const callId = await answeredCall(h, install.key, visitor);
    const [call] = await h.q<{ outcome: string }>('select outcome from calls where id = $1', [callId]);
    expect(call?.outcome).toBe('completed');
    const contact = await contactId(visitor);
    await expect
      .poll(() => runsOf(completed), SLOW)
      .toEqual([
        {
          contact_id: contact,
          trigger: 'completed-call',
          entry_key: `call-${callId}`,
          trigger_data: { call_id: callId, outcome: 'completed', install_id: install.id },
        },
      ]);
    // The call's later status reports (the carrier's final ones) announce it no second time.
    await h.run(10_000);
    expect(completedCalls.filter((id) => id === callId)).toEqual([callId]);
    for (const id of [elsewhere, off, missed]) expect(await runsOf(id)).toEqual([]);
  });
  it('an inbound call someone took enters the completed-call automations of its install, once', async () => {
    const install = await installWithNumber(h);
    const number = install.phone;
    const completed = await automation({ trigger: 'completed-call', installs: [install.id] });
    const missed = await automation({ trigger: 'missed-call', installs: [install.id] });
    const caller = '+14155550163';
    h.sandbox.phones.dial(caller, number);
    await h.run(1000);
    await staffTakes(h, STAFF_2, 4000);
    await h.run(10_000);
    h.sandbox.phones.hangUp(caller);
    await h.run(2000);
    const [call] = await h.q<{ id: number; outcome: string }>(
      "select id, outcome from calls where kind = 'inbound' and visitor_phone = $1",
      [caller],
    );
    expect(call?.outcome).toBe('completed');
    await expect
      .poll(() => runsOf(completed), SLOW)
      .toMatchObject([
        {
          contact_id: await contactId(caller),
          entry_key: `call-${call?.id}`,
          trigger_data: { outcome: 'completed', install_id: install.id },
        },
      ]);
    // The test's own listener hears the event after the engine's (listeners run in turn): waited for, then
    // the carrier's final reports played out, and it is still once.
    await expect.poll(() => completedCalls.filter((id) => id === call?.id).length, SLOW).toBe(1);
    await h.run(10_000);
    expect(completedCalls.filter((id) => id === call?.id)).toHaveLength(1);
    expect(await runsOf(missed)).toEqual([]);
  });
});

describe('the triggers a business uses', () => {
  it('a call reads no automations when none of its business is on its trigger; one switched on through the API enters the very next call', async () => {
    // Business B: none of its automations starts on a completed call.
    const tokenB = await h.token(h.seed.b.businessAdmin.email);
    const install = await h.install({}, { tenant: 'b' });
    const send = (method: 'POST' | 'PUT', url: string, payload: object) =>
      h.t.app.inject({ method, url, headers: bearer(tokenB), payload });
    const created = await send('POST', '/api/v1/automations', {
      name: 'Thanks for the call',
      active: false,
      trigger: { kind: 'completed-call', config: {}, start: 'w' },
      blocks: [{ id: 'w', type: 'Wait', config: { amount: 1, unit: 'days' }, outputs: { next: null } }],
    });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().data.id as number;

    readsOfAutomations = 0;
    counting = true;
    const first = await answeredCall(h, install.key, '+14155550171');
    // The test's listener hears the call after the automations' (listeners run in turn).
    await expect.poll(() => completedCalls.includes(first), SLOW).toBe(true);
    counting = false;
    expect(readsOfAutomations).toBe(0);
    expect(await runsOf(id)).toEqual([]);

    // Switched on through the API: the next call enters it, however recently the business's triggers were read.
    const on = await send('PUT', `/api/v1/automations/${id}/toggle`, { active: true });
    expect(on.statusCode, on.body).toBe(200);
    const second = await answeredCall(h, install.key, '+14155550172');
    await expect
      .poll(() => runsOf(id), SLOW)
      .toMatchObject([{ trigger: 'completed-call', entry_key: `call-${second}` }]);
  });
});

describe('sms-keyword', () => {
  it('matches keywords exactly or as a word, case ignored', () => {
    const exact = { keywords: ['PRICE', 'Open hours'], match: 'exact' as const };
    const contains = { keywords: ['price', 'open hours'], match: 'contains' as const };
    expect(keywordMatches(exact, '  price ')).toBe(true);
    expect(keywordMatches(exact, 'open   HOURS')).toBe(true);
    expect(keywordMatches(exact, 'price?')).toBe(false);
    expect(keywordMatches(exact, 'the price')).toBe(false);
    expect(keywordMatches(contains, "What's the PRICE?")).toBe(true);
    expect(keywordMatches(contains, 'your open hours please')).toBe(true);
    expect(keywordMatches(contains, 'priceless')).toBe(false);
    expect(keywordMatches(contains, 'reprice')).toBe(false);
    expect(keywordMatches(contains, '')).toBe(false);
  });

  it('an inbound text enters the automations whose keywords it matches, on their installs', async () => {
    const one = await h.install();
    const two = await h.install();
    const exactOne = await automation({
      trigger: 'sms-keyword',
      triggerConfig: { keywords: ['PRICE', 'cost'], match: 'exact' },
      installs: [one.id],
    });
    const containsAny = await automation({
      trigger: 'sms-keyword',
      triggerConfig: { keywords: ['price'], match: 'contains' },
    });
    const exactTwo = await automation({
      trigger: 'sms-keyword',
      triggerConfig: { keywords: ['PRICE'] },
      installs: [two.id],
    });
    const off = await automation({
      trigger: 'sms-keyword',
      triggerConfig: { keywords: ['PRICE'] },
      active: false,
    });
    const theirs = await automation({
      trigger: 'sms-keyword',
      triggerConfig: { keywords: ['PRICE'] },
      tenant: 'b',
    });

    const from = '+14155550171';
    const text = async (body: string) => {
      const sid = `SM${crypto.randomBytes(16).toString('hex')}`;
      const res = await carrierWebhook(h, '/webhooks/twilio/sms-in', {
        MessageSid: sid,
        From: from,
        To: await numberOf(one.id),
        Body: body,
        NumMedia: '0',
      });
      expect(res.statusCode, res.body).toBe(200);
      await expect
        .poll(async () => (await h.q('select id from messages where carrier_sid = $1', [sid])).length, SLOW)
        .toBe(1);
      return (await h.q<{ id: number }>('select id from messages where carrier_sid = $1', [sid]))[0]?.id;
    };
    const first = await text('  price ');
    const contact = await contactId(from);
    await expect
      .poll(() => runsOf(exactOne), SLOW)
      .toEqual([
        {
          contact_id: contact,
          trigger: 'sms-keyword',
          entry_key: `text-${first}`,
          trigger_data: { message_id: first, body: '  price ', install_id: one.id },
        },
      ]);
    await expect
      .poll(async () => (await runsOf(containsAny)).map((r) => r.entry_key), SLOW)
      .toEqual([`text-${first}`]);

    // Not a keyword, a keyword inside a word: nothing more.
    await text('priceless smile');
    await text('hello');
    // A keyword as a word of a sentence: the contains automation only (its journey is live: not twice).
    await text('what is the price?');
    await expect.poll(async () => (await runsOf(containsAny)).length, SLOW).toBe(1);
    expect(await runsOf(exactOne)).toHaveLength(1);
    for (const id of [exactTwo, off, theirs]) expect(await runsOf(id)).toEqual([]);
  });
});

describe('new-tag', () => {
  it('a contact tagged enters the automations listening for that tag', async () => {
    const vip = await addTag(h, 'VIP trigger');
    const other = await addTag(h, 'Other trigger');
    const onVip = await automation({ trigger: 'new-tag', tags: [vip] });
    const onEither = await automation({ trigger: 'new-tag', tags: [other, vip] });
    const onOther = await automation({ trigger: 'new-tag', tags: [other] });
    const off = await automation({ trigger: 'new-tag', tags: [vip], active: false });
    const theirs = await automation({ trigger: 'new-tag', tags: [vip], tenant: 'b' });
    const [x] = (await addContacts(h, { count: 1, first: 200 })) as [number];

    const res = await h.t.app.inject({
      method: 'POST',
      url: `/api/v1/contacts/${x}/tag`,
      headers: bearer(token),
      payload: { tag_ids: [vip], mode: 'add' },
    });
    expect(res.statusCode, res.body).toBe(200);
    for (const id of [onVip, onEither]) {
      await expect.poll(async () => (await runsOf(id)).length, SLOW).toBe(1);
      const [run] = await runsOf(id);
      expect(run).toMatchObject({ contact_id: x, trigger: 'new-tag', trigger_data: { tag_id: vip } });
      expect(run?.entry_key).toMatch(new RegExp(`^tag-${vip}-\\d+$`));
    }
    for (const id of [onOther, off, theirs]) expect(await runsOf(id)).toEqual([]);
  });

  it('an import tagging 1,200 contacts enters each once, reading the automations once a chunk, not once a tag', async () => {
    const gold = await addTag(h, 'Imported gold');
    const silver = await addTag(h, 'Imported silver');
    const onBoth = await automation({ trigger: 'new-tag', tags: [gold, silver] });
    const onSilver = await automation({ trigger: 'new-tag', tags: [silver] });
    const N = 1_200;
    const lines = ['phone,first_name,tags'];
    // Every contact gets both tags; the automation on both enters each contact once, by its first tag.
    for (let i = 0; i < N; i++)
      lines.push(`+1500${String(7_000_000 + i).padStart(7, '0')},Imp${i},"Imported gold,Imported silver"`);
    readsOfAutomations = 0;
    counting = true;
    try {
      const res = await h.t.app.inject({
        method: 'POST',
        url: '/api/v1/contacts/import',
        headers: bearer(token),
        payload: { csv: lines.join('\n') },
      });
      expect(res.statusCode, res.body).toBe(200);
      for (const id of [onBoth, onSilver])
        await expect.poll(async () => (await runsOf(id)).length, { timeout: 60_000 }).toBe(N);
    } finally {
      counting = false;
    }
    const reads = readsOfAutomations;
    const runs = await runsOf(onBoth);
    expect(new Set(runs.map((r) => r.contact_id)).size).toBe(N);
    expect(runs.every((r) => r.trigger_data.tag_id === gold)).toBe(true);
    expect((await runsOf(onSilver)).every((r) => r.trigger_data.tag_id === silver)).toBe(true);
    // 2,400 taggings in three chunks of 500 rows: a read a chunk (a few more if the announcements of one
    // chunk reach the listener in two batches), never one a tagging.
    expect(reads).toBeGreaterThan(0);
    expect(reads).toBeLessThanOrEqual(6);
  });
});

describe('birthday, anniversary and date', () => {
  const job = () => platformSystemContext(h.t.app.deps, 'job', 'test date triggers');
  let c1: number;
  let c2: number;
  let c3: number;
  let leap: number;
  let tagged: number;
  let tag: number;
  beforeAll(async () => {
    await h.q(
      `update businesses set settings = settings || '{"timezone":"America/New_York"}' where id = $1`,
      [h.seed.a.business.id],
    );
    tag = await addTag(h, 'Date trigger');
    [c1, c2, c3, leap] = (await addContacts(h, { count: 4, first: 300 })) as [number, number, number, number];
    [tagged] = (await addContacts(h, { count: 1, first: 310, tagId: tag })) as [number];
    await h.q('update contacts set birthday = $2 where id = $1', [c1, '1990-03-15']);
    await h.q('update contacts set birthday = $2, anniversary = $3 where id = $1', [
      c2,
      '1985-03-16',
      '2010-03-15',
    ]);
    await h.q('update contacts set birthday = $2 where id = $1', [leap, '2000-02-29']);
  });

  it('birthday and anniversary: the contacts whose day it is in the business’s time zone, from its hour, once', async () => {
    const birthday = await automation({ trigger: 'birthday', triggerConfig: { hour: 9 } });
    const anniversary = await automation({ trigger: 'anniversary', triggerConfig: { hour: 10 } });
    const off = await automation({ trigger: 'birthday', triggerConfig: { hour: 9 }, active: false });
    const people = async (id: number) => (await runsOf(id)).map((r) => r.contact_id).sort();

    // 08:30 in New York (EDT, UTC-4) on 15 March: before the hour.
    await runDateTriggers(job(), new Date('2031-03-15T12:30:00Z'));
    expect(await runsOf(birthday)).toEqual([]);
    // 09:05 there: the birthday automation takes c1 (not c2, whose birthday is tomorrow, nor c3).
    await runDateTriggers(job(), new Date('2031-03-15T13:05:00Z'));
    expect(await runsOf(birthday)).toMatchObject([
      { contact_id: c1, trigger: 'birthday', entry_key: 'birthday-2031', trigger_data: { year: '2031' } },
    ]);
    expect(await runsOf(anniversary)).toEqual([]);
    // The job again (twice in a run, or in two processes), and later that day: nobody twice.
    await runDateTriggers(job(), new Date('2031-03-15T13:05:00Z'));
    await runDateTriggers(job(), new Date('2031-03-15T14:00:00Z'));
    expect(await people(birthday)).toEqual([c1]);
    expect(await runsOf(anniversary)).toMatchObject([{ contact_id: c2, entry_key: 'anniversary-2031' }]);
    // 22:00 on the 15th in New York is the 16th in UTC: still the 15th for this business.
    await runDateTriggers(job(), new Date('2031-03-16T02:00:00Z'));
    expect(await people(birthday)).toEqual([c1]);
    // The 16th there: c2's birthday.
    await runDateTriggers(job(), new Date('2031-03-16T13:00:00Z'));
    expect(await people(birthday)).toEqual([c1, c2].sort((a, b) => a - b));
    expect(await people(off)).toEqual([]);
    expect((await people(birthday)).includes(c3)).toBe(false);
  });

  it('a 29 February birthday is kept on the 28th in other years', async () => {
    const birthday = await automation({ trigger: 'birthday', triggerConfig: { hour: 9 } });
    await runDateTriggers(job(), new Date('2031-02-28T15:00:00Z'));
    expect((await runsOf(birthday)).map((r) => r.contact_id)).toEqual([leap]);
  });

  it('date: at its moment the contacts with any of its tags (none: all) enter, once; an old or future date does not', async () => {
    const at = '2031-03-15T09:00:00-04:00';
    const withTag = await automation({ trigger: 'date', triggerConfig: { at }, tags: [tag] });
    const everyone = await automation({ trigger: 'date', triggerConfig: { at } });
    const old = await automation({ trigger: 'date', triggerConfig: { at: '2031-03-13T09:00:00-04:00' } });
    const future = await automation({ trigger: 'date', triggerConfig: { at: '2031-03-16T09:00:00-04:00' } });
    const off = await automation({ trigger: 'date', triggerConfig: { at }, active: false });
    const theirs = await automation({ trigger: 'date', triggerConfig: { at }, tenant: 'b' });

    await runDateTriggers(job(), new Date('2031-03-15T12:59:00Z'));
    expect(await runsOf(withTag)).toEqual([]);
    await runDateTriggers(job(), new Date('2031-03-15T13:01:00Z'));
    expect(await runsOf(withTag)).toMatchObject([
      { contact_id: tagged, trigger: 'date', entry_key: `date-${at}` },
    ]);
    const all = await h.q<{ id: number }>(
      'select id from contacts where business_id = $1 and deleted_at is null order by id',
      [h.seed.a.business.id],
    );
    expect((await runsOf(everyone)).map((r) => r.contact_id).sort((a, b) => a - b)).toEqual(
      all.map((r) => r.id),
    );
    await runDateTriggers(job(), new Date('2031-03-15T14:01:00Z'));
    expect(await runsOf(withTag)).toHaveLength(1);
    expect(await runsOf(everyone)).toHaveLength(all.length);
    for (const id of [old, future, off]) expect(await runsOf(id)).toEqual([]);
    // Business B has contacts of its own only: none of A's.
    const bRuns = await runsOf(theirs);
    const bContacts = await h.q<{ id: number }>('select id from contacts where business_id = $1', [
      h.seed.b.business.id,
    ]);
    expect(bRuns.every((r) => bContacts.some((c) => c.id === r.contact_id))).toBe(true);
  });
});

describe('webhook and home-advisor', () => {
  const post = (tok: string, payload: unknown, headers: Record<string, string> = {}) =>
    h.t.app.inject({
      method: 'POST',
      url: `/webhooks/automations/${tok}`,
      headers,
      payload: payload as string,
    });
  const withToken = async (id: number) => {
    const tok = `tok_${crypto.randomBytes(12).toString('hex')}`;
    await h.q('update automations set webhook_token = $2 where id = $1', [id, tok]);
    return tok;
  };
  const TABLES = ['contacts', 'automation_runs', 'automation_steps'];
  /** Every journey started so far has settled (waiting its day), so only a post could change the tables. */
  const settled = () =>
    expect
      .poll(
        async () =>
          (await h.q("select 1 from automation_steps where status in ('pending', 'running')")).length,
        SLOW,
      )
      .toBe(0);

  it('webhook: JSON fields mapped to the contact (dotted paths), phone normalised; once per post', async () => {
    const field = await h.t.app.inject({
      method: 'POST',
      url: '/api/v1/contacts/fields',
      headers: bearer(token),
      payload: { label: 'Colour', key: 'colour' },
    });
    expect(field.statusCode, field.body).toBe(200);
    const id = await automation({
      trigger: 'webhook',
      triggerConfig: {
        mapping: {
          phone: 'lead.phone',
          first_name: 'lead.name.first',
          email: 'email',
          colour: 'extra.colour',
        },
      },
    });
    const tok = await withToken(id);
    const body = {
      lead: { phone: '(415) 555-0181', name: { first: 'Wendy' } },
      email: 'Wendy@Example.com',
      extra: { colour: 'teal' },
    };
    const res = await post(tok, body);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    const [contact] = await h.q<Record<string, unknown>>(
      'select id, first_name, email, fields, source from contacts where business_id = $1 and phone = $2',
      [h.seed.a.business.id, '+14155550181'],
    );
    expect(contact).toMatchObject({
      first_name: 'Wendy',
      email: 'wendy@example.com',
      fields: { colour: 'teal' },
      source: 'cms',
    });
    const runs = await runsOf(id);
    expect(runs).toMatchObject([{ contact_id: contact?.id, trigger: 'webhook' }]);
    expect(runs[0]?.entry_key).toMatch(/^wh-[0-9a-f]{40}$/);
    // The sender's retry of the same post enters nobody again.
    expect((await post(tok, body)).statusCode).toBe(200);
    expect(await runsOf(id)).toHaveLength(1);
  });

  it('webhook: form fields; 422 for a missing or invalid phone or a bad e-mail, changing nothing', async () => {
    const id = await automation({ trigger: 'webhook' });
    const tok = await withToken(id);
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const ok = await post(tok, 'phone=%2B1%20415%20555%200182&first_name=Fern&last_name=Form', form);
    expect(ok.statusCode, ok.body).toBe(200);
    const contact = await contactId('+14155550182');
    expect(await runsOf(id)).toMatchObject([{ contact_id: contact, trigger: 'webhook' }]);
    await settled();
    const before = await snapshot(h.t.pool, TABLES);
    const missing = await post(tok, { first_name: 'Nobody' });
    expect(missing.statusCode).toBe(422);
    expect(missing.json()).toMatchObject({
      ok: false,
      errors: { phone: 'A phone number is required: post it in the field the automation maps to phone.' },
    });
    const invalid = await post(tok, 'phone=12&email=not-an-email', form);
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json()).toEqual({
      ok: false,
      message: '“12” is not a valid phone number.',
      errors: {
        phone: '“12” is not a valid phone number.',
        email: 'The e-mail is not a valid e-mail address.',
      },
    });
    const notObject = await post(tok, [1, 2], { 'content-type': 'application/json' });
    expect(notObject.statusCode).toBe(422);
    expect(await snapshot(h.t.pool, TABLES)).toEqual(before);
  });

  it('404 for an unknown token or another kind’s, 409 while switched off; nothing changes', async () => {
    const off = await automation({ trigger: 'webhook', active: false });
    const offToken = await withToken(off);
    const notInbound = await automation({ trigger: 'direct-call' });
    const notInboundToken = await withToken(notInbound);
    await settled();
    const before = await snapshot(h.t.pool, TABLES);
    const body = { phone: '+14155550183' };
    for (const tok of [`tok_${'0'.repeat(24)}`, notInboundToken, 'short'])
      expect((await post(tok, body)).statusCode).toBe(404);
    const refused = await post(offToken, body);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ ok: false, message: expect.stringContaining('switched off') });
    // A sender posting in a loop is cut off at 120 a minute per URL (the bucket refills as time passes).
    const answers: number[] = [];
    while (answers.length < 400 && answers.at(-1) !== 429)
      answers.push((await post(offToken, body)).statusCode);
    expect(answers.at(-1)).toBe(429);
    expect(answers.length).toBeGreaterThanOrEqual(120);
    expect(new Set(answers.slice(0, -1))).toEqual(new Set([409]));
    expect(await snapshot(h.t.pool, TABLES)).toEqual(before);
  });

  it('home-advisor: a HomeAdvisor lead makes the contact and enters it once per lead (its retries)', async () => {
    const id = await automation({ trigger: 'home-advisor' });
    const tok = await withToken(id);
    const lead = {
      name: 'Fancy Nancy',
      firstName: 'Fancy',
      lastName: 'Nancy',
      address: '123 Main',
      city: 'USAville',
      stateProvince: 'PA',
      postalCode: '12345',
      primaryPhone: '4155550184',
      email: 'nancy@example.com',
      srOid: 98765,
      leadOid: 12345678,
      taskName: 'Roof Repair',
      comments: 'Leaks when it rains',
    };
    const res = await post(tok, lead);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    const [contact] = await h.q<Record<string, unknown>>(
      'select id, first_name, last_name, email, source from contacts where business_id = $1 and phone = $2',
      [h.seed.a.business.id, '+14155550184'],
    );
    expect(contact).toMatchObject({
      first_name: 'Fancy',
      last_name: 'Nancy',
      email: 'nancy@example.com',
      source: 'cms',
    });
    expect(await runsOf(id)).toMatchObject([
      {
        contact_id: contact?.id,
        trigger: 'home-advisor',
        entry_key: 'ha-12345678',
        trigger_data: {
          lead_oid: '12345678',
          sr_oid: '98765',
          task_name: 'Roof Repair',
          comments: 'Leaks when it rains',
          city: 'USAville',
          state: 'PA',
          postal_code: '12345',
        },
      },
    ]);
    // HomeAdvisor retries a lead it thinks failed: the same lead enters nobody twice.
    expect((await post(tok, lead)).statusCode).toBe(200);
    expect(await runsOf(id)).toHaveLength(1);
    // A lead with only a full name and no valid phone: 422.
    const bad = await post(tok, { name: 'No Phone', leadOid: 1 });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toHaveProperty('phone');
  });
});
