// The effectful actions of an automation (ADR 071) through the engine: an automation of the block, the
// contact entered, the engine working the step on the manual clock; the step's record (status, detail,
// error) and the effects at their real places: the sandbox carrier's texts and calls, the mail outbox, the
// contact's tags, the tasks, a local HTTP receiver.
import { localParts } from '@stn/contracts/installs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainJobs } from '../../../test/helpers.ts';
import { contactTagged } from '../contacts/service.ts';
import { staffAlerted } from '../notifications/service.ts';
import { ACTIONS } from './actions/index.ts';
import { CALL_POLL_MS } from './actions/send-call.ts';
import { nextLocalTime } from './actions/send-voicemail.ts';
import { type Receiver, startReceiver } from './actions/test-fixtures.ts';
import {
  type ActionsApp,
  actionsApp,
  addContact,
  addTag,
  block,
  runBlock,
  settle,
  startJourney,
} from './actions/test-support.ts';
import { WEBHOOK_BACKOFF_MS } from './actions/webhook.ts';
import { moveClock, stepsOf, untilStep } from './test-support.ts';

let h: ActionsApp;
let rx: Receiver;
/** An allowed origin where nothing listens (a network failure). */
let closedOrigin: string;
let ann: number;
const ANN = '+14155550142';

beforeAll(async () => {
  rx = await startReceiver();
  const closed = await startReceiver();
  closedOrigin = closed.origin;
  await closed.close();
  h = await actionsApp({ AUTOMATION_WEBHOOK_ALLOW_ORIGINS: `${rx.origin},${closedOrigin}` });
  ann = await addContact(h, {
    phone: ANN,
    first_name: 'Ann',
    last_name: 'Lee',
    email: 'ann@example.test',
    birthday: '1990-04-02',
  });
});
afterAll(async () => {
  await h?.close();
  await rx?.close();
});

/** Waits until the run's first step failed an attempt and waits for its retry. */
async function untilRetry(runId: number): Promise<void> {
  await expect
    .poll(async () => {
      const [s] = await stepsOf(h, runId);
      return s?.status === 'pending' && s.error !== null;
    })
    .toBe(true);
}

/** The texts the sandbox sent to `phone` (its queue worked first: a number sends at its pace). */
async function textsTo(phone: string): Promise<{ body: string; from: string }[]> {
  await h.run(5_000);
  return h.sandbox.sentMessages({ to: phone }).map((m) => ({ body: m.body, from: m.from }));
}

describe('Webhook', () => {
  it('posts the contact as JSON with the step key as Idempotency-Key and records the answer', async () => {
    const vip = await addTag(h, 'VIP');
    await h.q('insert into contact_tags (contact_id, tag_id) values ($1, $2)', [ann, vip]);
    rx.received.length = 0;
    rx.answers.push({ status: 201, body: '{"received":true}' });
    const j = await runBlock(
      h,
      'Webhook',
      { url: `${rx.origin}/hooks/lead?secret=s3`, headers: { 'X-Api-Key': 'k-1' } },
      ann,
    );
    expect(j.status).toBe('completed');
    expect(j.step).toMatchObject({
      status: 'done',
      attempts: 1,
      detail: { status: 201, body: '{"received":true}', url: `${rx.origin}/hooks/lead` },
    });
    expect(rx.received).toHaveLength(1);
    const got = rx.received[0];
    expect(got?.method).toBe('POST');
    expect(got?.url).toBe('/hooks/lead?secret=s3');
    expect(got?.headers['idempotency-key']).toBe(j.key);
    expect(got?.headers['x-api-key']).toBe('k-1');
    expect(got?.headers['content-type']).toBe('application/json');
    expect(JSON.parse(got?.body ?? '{}')).toMatchObject({
      id: ann,
      phone: ANN,
      first_name: 'Ann',
      last_name: 'Lee',
      email: 'ann@example.test',
      birthday: '1990-04-02',
      tags: [{ id: vip, name: 'VIP' }],
      run_id: j.runId,
    });
  });

  it('retries a 5xx with backoff and the same key, then goes on with the failure recorded', async () => {
    rx.received.length = 0;
    rx.answers.push({ status: 503, body: 'busy' }, { status: 500 }, { status: 502, body: 'still' });
    const runId = await startJourney(
      h,
      [
        block('hook', 'Webhook', { url: `${rx.origin}/flaky` }),
        block('tag', 'AddTag', { add: [await addTag(h, 'After')] }),
      ],
      ann,
    );
    await expect.poll(() => rx.received.length).toBe(1);
    await untilStep(h, runId, 1, 'pending');
    await moveClock(h, WEBHOOK_BACKOFF_MS[0]);
    await expect.poll(() => rx.received.length).toBe(2);
    await untilStep(h, runId, 1, 'pending');
    await moveClock(h, WEBHOOK_BACKOFF_MS[1]);
    const j = await settle(h, runId, 'completed');
    expect(rx.received).toHaveLength(3);
    expect(new Set(rx.received.map((r) => r.headers['idempotency-key']))).toEqual(new Set([j.key]));
    expect(j.steps).toMatchObject([
      {
        block_id: 'hook',
        status: 'failed',
        attempts: 3,
        error: 'automations.action.webhook_status',
        detail: { status: 502, body: 'still', attempt: 3 },
      },
      // The journey went on.
      { block_id: 'tag', status: 'done' },
    ]);
  });

  it('retries a network failure, then goes on with it recorded', async () => {
    const runId = await startJourney(h, [block('hook', 'Webhook', { url: `${closedOrigin}/down` })], ann);
    await untilRetry(runId);
    expect((await stepsOf(h, runId))[0]).toMatchObject({
      error: 'automations.action.webhook_failed',
      detail: { reason: 'network', attempt: 1 },
    });
    await moveClock(h, WEBHOOK_BACKOFF_MS[0]);
    await expect.poll(async () => (await stepsOf(h, runId))[0]?.attempts).toBe(2);
    await untilRetry(runId);
    await moveClock(h, WEBHOOK_BACKOFF_MS[1]);
    const j = await settle(h, runId, 'completed');
    expect(j.step).toMatchObject({
      status: 'failed',
      attempts: 3,
      error: 'automations.action.webhook_failed',
      detail: { reason: 'network', attempt: 3 },
    });
  });

  it('retries a name that does not resolve', async () => {
    const runId = await startJourney(
      h,
      [block('hook', 'Webhook', { url: 'http://no-such-host.invalid/x' })],
      ann,
    );
    await untilRetry(runId);
    expect((await stepsOf(h, runId))[0]).toMatchObject({
      error: 'automations.action.webhook_failed',
      detail: { reason: 'dns' },
    });
  });

  it('does not retry a 4xx', async () => {
    rx.received.length = 0;
    rx.answers.push({ status: 404, body: 'no such hook' });
    const j = await runBlock(h, 'Webhook', { url: `${rx.origin}/gone` }, ann);
    expect(j.status).toBe('completed');
    expect(j.step).toMatchObject({
      status: 'failed',
      attempts: 1,
      detail: { status: 404, body: 'no such hook' },
    });
    expect(rx.received).toHaveLength(1);
  });

  it('refuses a header the block may not set, sending nothing', async () => {
    rx.received.length = 0;
    const j = await runBlock(
      h,
      'Webhook',
      { url: `${rx.origin}/h`, headers: { 'Idempotency-Key': 'mine' } },
      ann,
    );
    expect(j.step).toMatchObject({ status: 'failed', error: 'automations.action.webhook_header_invalid' });
    expect(rx.received).toHaveLength(0);
  });
});

describe('SendMessage', () => {
  it('texts the contact from the install number with merge fields, stored in the conversation', async () => {
    const j = await runBlock(h, 'SendMessage', { body: 'Hi {first_name}, {business_name} here' }, ann);
    expect(j.step).toMatchObject({ status: 'done' });
    expect(await textsTo(ANN)).toContainEqual({ body: 'Hi Ann, Business A here', from: h.number });
    const [row] = await h.q<{ body: string; direction: string; user_id: number | null }>(
      'select body, direction, user_id from messages where id = $1',
      [j.step.detail.message_id],
    );
    expect(row).toEqual({ body: 'Hi Ann, Business A here', direction: 'out', user_id: null });
  });

  it('sends a template with its merge fields', async () => {
    const res = await h.t.app.inject({
      method: 'POST',
      url: '/api/v1/templates',
      headers: { authorization: `Bearer ${h.adminToken}` },
      payload: { name: 'Welcome', body: 'Welcome {name}!', provider: 'sms' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const j = await runBlock(h, 'SendMessage', { template_id: res.json().data.id }, ann);
    expect(j.step.status).toBe('done');
    expect((await textsTo(ANN)).at(-1)?.body).toBe('Welcome Ann Lee!');
  });

  it('an opted-out contact: the step fails without a retry, the journey goes on, nothing is sent', async () => {
    const bob = await addContact(h, { phone: '+14155550143', first_name: 'Bob' });
    await h.q('update contacts set opted_out_at = now() where id = $1', [bob]);
    const j = await runBlock(h, 'SendMessage', { body: 'Hello' }, bob);
    expect(j.status).toBe('completed');
    expect(j.step).toMatchObject({ status: 'failed', attempts: 1, error: 'messages.opted_out' });
    expect(await textsTo('+14155550143')).toHaveLength(0);
    const [n] = await h.q<{ n: number }>('select count(*)::int as n from messages where contact_id = $1', [
      bob,
    ]);
    expect(n?.n).toBe(0);
  });

  /**
   * Runs `work` while SendMessage's first attempt sends, then loses its transaction (as when the process
   * dies before the commit); a retry's attempt runs as it is.
   */
  async function firstAttemptLost(work: () => Promise<void>): Promise<void> {
    const real = ACTIONS.SendMessage;
    ACTIONS.SendMessage = async (input) => {
      const result = await real(input);
      if (input.step.attempt === 1) throw new Error('worker died');
      return result;
    };
    try {
      await work();
    } finally {
      ACTIONS.SendMessage = real;
    }
  }

  /** A one-block journey of the SendMessage `config` for the contact, through its lost first attempt. */
  async function sentAfterCrash(contactId: number, config: Record<string, unknown>) {
    const runId = await startJourney(h, [block('text', 'SendMessage', config)], contactId);
    await untilRetry(runId);
    await moveClock(h, 60_000);
    return settle(h, runId, 'completed');
  }

  it('a worker dying after the carrier took the text: the retry does not send it again', async () => {
    const dee = '+14155550144';
    const id = await addContact(h, { phone: dee, first_name: 'Dee' });
    await firstAttemptLost(async () => {
      const j = await sentAfterCrash(id, { body: 'Hi {first_name}' });
      expect(j.step).toMatchObject({ status: 'done', attempts: 2, detail: { recovered: true } });
      expect((await textsTo(dee)).map((m) => m.body)).toEqual(['Hi Dee']);
    });
  });

  it('a worker dying after the carrier took a text with an image (or an image alone): not sent again', async () => {
    const [media] = await h.q<{ id: number }>(
      "insert into medias (agency_id, business_id, url, name, mime, size) values ($1, $2, '/uploads/menu.png', 'menu.png', 'image/png', 1) returning id",
      [h.seed.a.agency.id, h.seed.a.business.id],
    );
    await firstAttemptLost(async () => {
      for (const [phone, body] of [
        ['+14155550146', 'Our menu, {first_name}'],
        ['+14155550147', ''],
      ] as const) {
        const id = await addContact(h, { phone, first_name: 'Flo' });
        const j = await sentAfterCrash(id, { body, media_ids: [media?.id] });
        expect(j.step).toMatchObject({ status: 'done', attempts: 2, detail: { recovered: true } });
        const sent = h.sandbox.sentMessages({ to: phone });
        expect(sent.map((m) => m.body)).toEqual([body ? 'Our menu, Flo' : '']);
      }
    });
  });

  it('a worker dying before the text went out: the retry sends it', async () => {
    const eve = '+14155550145';
    const id = await addContact(h, { phone: eve, first_name: 'Eve' });
    const real = ACTIONS.SendMessage;
    ACTIONS.SendMessage = async (input) => {
      if (input.step.attempt === 1) throw new Error('worker died');
      return real(input);
    };
    try {
      const runId = await startJourney(h, [block('text', 'SendMessage', { body: 'Hi {first_name}' })], id);
      await untilRetry(runId);
      await moveClock(h, 60_000);
      const j = await settle(h, runId, 'completed');
      expect(j.step).toMatchObject({ status: 'done', attempts: 2 });
      expect(j.step.detail.message_id).toBeTruthy();
      expect((await textsTo(eve)).map((m) => m.body)).toEqual(['Hi Eve']);
    } finally {
      ACTIONS.SendMessage = real;
    }
  });

  it('restricted content is refused the same way', async () => {
    const j = await runBlock(h, 'SendMessage', { body: 'Buy cheap weed and cannabis now' }, ann);
    expect(j.step).toMatchObject({ status: 'failed', error: 'messages.restricted_content' });
  });
});

describe('AddTag', () => {
  it('adds and removes tags, announcing each tag added (a new-tag automation can follow)', async () => {
    const lead = await addTag(h, 'Lead');
    const cold = await addTag(h, 'Cold');
    const hot = await addTag(h, 'Hot');
    await h.q('insert into contact_tags (contact_id, tag_id) values ($1, $2)', [ann, cold]);
    const heard: { contactId: number; tagId: number }[] = [];
    h.t.app.deps.events.on(contactTagged, (p) => {
      heard.push({ contactId: p.contactId, tagId: p.tagId });
    });
    const j = await runBlock(h, 'AddTag', { add: [lead, hot], remove: [cold] }, ann);
    expect(j.step).toMatchObject({ status: 'done', detail: { added: [lead, hot], removed: [cold] } });
    const tags = await h.q<{ tag_id: number }>('select tag_id from contact_tags where contact_id = $1', [
      ann,
    ]);
    expect(tags.map((t) => t.tag_id)).toEqual(expect.arrayContaining([lead, hot]));
    expect(tags.map((t) => t.tag_id)).not.toContain(cold);
    await expect
      .poll(() =>
        heard
          .filter((e) => e.contactId === ann)
          .map((e) => e.tagId)
          .sort(),
      )
      .toEqual([lead, hot].sort());
    // A tag it has already is not announced again; a tag deleted since is passed over and named.
    heard.length = 0;
    await h.q('delete from tags where id = $1', [hot]);
    const again = await runBlock(h, 'AddTag', { add: [lead, hot] }, ann);
    expect(again.step).toMatchObject({ status: 'done', detail: { added: [lead], missing: [hot] } });
    expect(heard).toEqual([]);
  });
});

describe('SendEmail', () => {
  it('queues the e-mail in the outbox with merge fields, from the business, answers to its owner', async () => {
    const j = await runBlock(
      h,
      'SendEmail',
      { subject: 'Hello {first_name}', body: 'Dear {name},\nsee you at {business_name}.' },
      ann,
    );
    expect(j.step).toMatchObject({ status: 'done', detail: { to: 'ann@example.test' } });
    const mail = await h.q<{ from: string; reply_to: string | null; subject: string; text: string }>(
      `select "from", reply_to, subject, text from mail_outbox where "to" = 'ann@example.test' order by id desc limit 1`,
    );
    expect(mail[0]).toMatchObject({ reply_to: h.seed.a.businessAdmin.email, subject: 'Hello Ann' });
    expect(mail[0]?.from).toContain('Business A');
  });

  it('a contact without an e-mail is skipped: the step fails, the journey goes on, nothing is queued', async () => {
    const noMail = await addContact(h, { phone: '+14155550150', first_name: 'Nomail' });
    const before = await h.q<{ n: number }>('select count(*)::int as n from mail_outbox');
    const j = await runBlock(h, 'SendEmail', { subject: 'Hi', body: 'Hello' }, noMail);
    expect(j.status).toBe('completed');
    expect(j.step).toMatchObject({ status: 'failed', error: 'automations.action.no_email' });
    expect(await h.q<{ n: number }>('select count(*)::int as n from mail_outbox')).toEqual(before);
  });
});

describe('SendCall', () => {
  it('calls the contact and says the text; the phone hears it; the outcome goes to call_outcome', async () => {
    const cat = '+14155550160';
    const id = await addContact(h, { phone: cat, first_name: 'Cat' });
    h.sandbox.phones.configure(cat, { autoAnswer: 'human' });
    const runId = await startJourney(
      h,
      [block('call', 'SendCall', { mode: 'say', text: 'Hello {first_name}, this is {business_name}.' })],
      id,
    );
    const waiting = await settle(h, runId, 'waiting');
    expect(waiting.step).toMatchObject({
      status: 'waiting',
      detail: { said: 'Hello Cat, this is Business A.' },
    });
    const sid = String(waiting.step.detail.call_sid);
    expect(h.sandbox.calls.get(sid)).toMatchObject({ to: cat, from: h.number });
    await h.run(CALL_POLL_MS);
    expect(h.sandbox.calls.get(sid)?.heard).toContain('Hello Cat, this is Business A.');
    const j = await settle(h, runId, 'completed');
    expect(j.vars).toMatchObject({ call_outcome: 'completed', call_sid: sid });
    expect(j.step).toMatchObject({ status: 'done', detail: { call_sid: sid, outcome: 'completed' } });
    // Placed once: the wake only asked the carrier.
    expect(h.sandbox.phones.callSids(cat)).toEqual([sid]);
    // The Sandbox Phones screen still shows what the call said once it hung up.
    const res = await h.t.app.inject({
      method: 'GET',
      url: '/api/v1/sandbox/phones',
      headers: { authorization: `Bearer ${h.adminToken}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    const phone = (res.json().data as { number: string }[]).find((p) => p.number === cat);
    expect(phone).toMatchObject({
      state: 'idle',
      call: null,
      last_call: { sid, from: h.number, to: cat, heard: ['Hello Cat, this is Business A.'] },
    });
  });

  it('a placing answered with a 5xx after the carrier placed it: the retry finds that call, none twice', async () => {
    const eve = '+14155550170';
    const id = await addContact(h, { phone: eve, first_name: 'Eve' });
    h.sandbox.failCreations('Calls', { status: 502, code: 20500, message: 'Bad Gateway', after: true }, 1);
    try {
      const runId = await startJourney(h, [block('call', 'SendCall', { mode: 'say', text: 'Hi' })], id);
      await untilRetry(runId);
      const [first] = await stepsOf(h, runId);
      expect(first?.detail).toMatchObject({ refused: 'automations.action.call_failed' });
      expect(typeof first?.detail.unclear_since).toBe('string');
      // The carrier has the call, though its answer said otherwise.
      expect(h.sandbox.phones.callSids(eve)).toHaveLength(1);
      await moveClock(h, 60_000);
      const waiting = await settle(h, runId, 'waiting');
      expect(waiting.step.detail).toMatchObject({ recovered: true });
      expect(h.sandbox.phones.callSids(eve)).toEqual([String(waiting.step.detail.call_sid)]);
    } finally {
      h.sandbox.fault = null;
    }
  });

  it('a placing answered with a 5xx before the carrier placed it: the retry places the call', async () => {
    const fay = '+14155550171';
    const id = await addContact(h, { phone: fay, first_name: 'Fay' });
    h.sandbox.failCreations('Calls', { status: 503, code: 20500, message: 'Service unavailable' }, 1);
    try {
      const runId = await startJourney(h, [block('call', 'SendCall', { mode: 'say', text: 'Hi' })], id);
      await untilRetry(runId);
      expect(h.sandbox.phones.callSids(fay)).toHaveLength(0);
      await moveClock(h, 60_000);
      const waiting = await settle(h, runId, 'waiting');
      expect(waiting.step.detail.recovered).toBeUndefined();
      expect(h.sandbox.phones.callSids(fay)).toEqual([String(waiting.step.detail.call_sid)]);
    } finally {
      h.sandbox.fault = null;
    }
  });

  it('a call nobody answers is missed', async () => {
    const cal = await addContact(h, { phone: '+14155550151', first_name: 'Cal' });
    const runId = await startJourney(h, [block('call', 'SendCall', { mode: 'say', text: 'Hi' })], cal);
    await settle(h, runId, 'waiting');
    await h.run(CALL_POLL_MS + 30_000);
    await moveClock(h, CALL_POLL_MS);
    const j = await settle(h, runId, 'completed');
    expect(j.vars).toMatchObject({ call_outcome: 'missed' });
  });

  it('plays a recording of the media library; an image or a deleted file is refused', async () => {
    const dan = '+14155550161';
    const id = await addContact(h, { phone: dan, first_name: 'Dan' });
    h.sandbox.phones.configure(dan, { autoAnswer: 'human' });
    const a = h.seed.a;
    const [audio] = await h.q<{ id: number }>(
      `insert into medias (agency_id, business_id, url, name, mime) values ($1, $2, '/uploads/media/1/hello.mp3', 'hello.mp3', 'audio/mpeg') returning id`,
      [a.agency.id, a.business.id],
    );
    const [image] = await h.q<{ id: number }>(
      `insert into medias (agency_id, business_id, url, name, mime) values ($1, $2, '/uploads/media/1/a.png', 'a.png', 'image/png') returning id`,
      [a.agency.id, a.business.id],
    );
    const runId = await startJourney(
      h,
      [block('call', 'SendCall', { mode: 'recording', media_id: audio?.id })],
      id,
    );
    const waiting = await settle(h, runId, 'waiting');
    const sid = String(waiting.step.detail.call_sid);
    await h.run(CALL_POLL_MS);
    expect(h.sandbox.calls.get(sid)?.heard).toEqual([
      '[audio http://localhost:3000/uploads/media/1/hello.mp3]',
    ]);
    const refused = await runBlock(h, 'SendCall', { mode: 'recording', media_id: image?.id }, id);
    expect(refused.step).toMatchObject({ status: 'failed', error: 'automations.action.recording_not_found' });
    expect(h.sandbox.phones.callSids(dan)).toEqual([sid]);
    h.sandbox.phones.configure(dan, { autoAnswer: null });
  });

  it('a blocked contact is not called', async () => {
    const blocked = await addContact(h, { phone: '+14155550152', first_name: 'Blocked' });
    await h.q('update contacts set blocked_at = now() where id = $1', [blocked]);
    const j = await runBlock(h, 'SendCall', { mode: 'say', text: 'Hi' }, blocked);
    expect(j.step).toMatchObject({ status: 'failed', error: 'automations.action.contact_blocked' });
    expect(h.sandbox.phones.callSids('+14155550152')).toEqual([]);
  });
});

describe('SendVoiceMail', () => {
  it('finds the next time of day in a zone, across DST changes', () => {
    const next = (now: string, at: string, zone: string) =>
      nextLocalTime(new Date(now), at, zone).toISOString();
    const LA = 'America/Los_Angeles';
    // The day clocks go forward (PST to PDT) and back (PDT to PST).
    expect(next('2026-03-08T06:00:00Z', '09:00', LA)).toBe('2026-03-08T16:00:00.000Z');
    expect(next('2026-11-01T06:00:00Z', '09:00', LA)).toBe('2026-11-01T17:00:00.000Z');
    // Within its minute it is now; a minute later, tomorrow.
    expect(next('2026-07-01T16:00:30Z', '09:00', LA)).toBe('2026-07-01T16:00:00.000Z');
    expect(next('2026-07-01T16:01:00Z', '09:00', LA)).toBe('2026-07-02T16:00:00.000Z');
    expect(next('2026-07-01T10:00:00Z', '09:30', 'Asia/Kolkata')).toBe('2026-07-02T04:00:00.000Z');
  });

  it('waits for the next 09:00 in Los Angeles by default', async () => {
    const now = h.clock.now();
    const j = await runBlock(h, 'SendVoiceMail', { text: 'Hi' }, ann);
    // Unless this very minute is 09:00 there (then it drops at once).
    if (j.status === 'waiting') {
      const due = new Date(j.step.due_at);
      expect(localParts(due, 'America/Los_Angeles').minutes).toBe(9 * 60);
      expect(due.getTime()).toBeGreaterThan(now);
      expect(due.getTime() - now).toBeLessThanOrEqual(86_400_000);
    }
  });

  it('at its time drops the message on the voicemail', async () => {
    const vic = '+14155550153';
    const id = await addContact(h, { phone: vic, first_name: 'Vic' });
    h.sandbox.phones.configure(vic, { autoAnswer: 'machine' });
    const later = new Date(h.clock.now() + 2 * 3_600_000);
    const at = `${String(later.getUTCHours()).padStart(2, '0')}:${String(later.getUTCMinutes()).padStart(2, '0')}`;
    const runId = await startJourney(
      h,
      [block('vm', 'SendVoiceMail', { text: 'Hi {first_name}, call us back.', at, time_zone: 'UTC' })],
      id,
    );
    const waiting = await settle(h, runId, 'waiting');
    expect(waiting.step).toMatchObject({ status: 'waiting', detail: { at, time_zone: 'UTC' } });
    expect(new Date(waiting.step.due_at).getTime() - h.clock.now()).toBeGreaterThan(2 * 3_600_000 - 120_000);
    expect(h.sandbox.phones.callSids(vic)).toEqual([]);
    await moveClock(h, 2 * 3_600_000);
    const j = await settle(h, runId, 'completed');
    const sid = String(j.step.detail.call_sid);
    await h.run(30_000);
    const heard = h.sandbox.calls.get(sid)?.heard ?? [];
    expect(heard[0]).toBe('[voicemail greeting]');
    expect(heard).toContain('Hi Vic, call us back.');
  });

  it('reached within a minute of its time, drops at once', async () => {
    const now = new Date(h.clock.now());
    const at = `${String(now.getUTCHours()).padStart(2, '0')}:${String(now.getUTCMinutes()).padStart(2, '0')}`;
    const j = await runBlock(h, 'SendVoiceMail', { text: 'Now', at, time_zone: 'UTC' }, ann);
    expect(j.status).toBe('completed');
    expect(j.step.detail.call_sid).toBeTruthy();
  });
});

describe('Alert', () => {
  it('tells the business admins (none chosen) by e-mail, text, push and a task', async () => {
    const admin = h.seed.a.businessAdmin;
    await h.q(`update users set phone = '+14155550199' where id = $1`, [admin.id]);
    const pushed: number[][] = [];
    h.t.app.deps.events.on(staffAlerted, (p) => {
      pushed.push(p.userIds);
    });
    const j = await runBlock(
      h,
      'Alert',
      { channels: ['email', 'sms', 'push', 'task'], message: '{name} asked for prices' },
      ann,
    );
    expect(j.step).toMatchObject({
      status: 'done',
      detail: {
        recipients: [admin.id],
        sent: { email: [admin.id], sms: [admin.id], push: [admin.id], task: [admin.id] },
      },
    });
    const mail = await h.q<{ text: string }>(
      `select text from mail_outbox where "to" = $1 order by id desc limit 1`,
      [admin.email],
    );
    expect(mail[0]?.text).toContain('Ann Lee asked for prices');
    // Texted by a job once the step committed.
    await expect
      .poll(async () => (await textsTo('+14155550199')).at(-1), { timeout: 15_000, interval: 50 })
      .toEqual({ from: h.number, body: 'Ann Lee asked for prices' });
    await expect.poll(() => pushed).toEqual([[admin.id]]);
    const tasks = await h.q<{ user_id: number; contact_id: number; description: string }>(
      'select user_id, contact_id, description from tasks order by id desc limit 1',
    );
    expect(tasks[0]).toEqual({ user_id: admin.id, contact_id: ann, description: 'Ann Lee asked for prices' });
  });

  it('a step tried again after a failure texts the staff once', async () => {
    const admin = h.seed.a.businessAdmin;
    const phone = '+14155550198';
    await h.q('update users set phone = $2 where id = $1', [admin.id, phone]);
    const real = ACTIONS.Alert;
    // The first attempt does its work, then its transaction is lost (as when the process dies before the commit).
    ACTIONS.Alert = async (input) => {
      const result = await real(input);
      if (input.step.attempt === 1) throw new Error('worker died');
      return result;
    };
    try {
      const runId = await startJourney(
        h,
        [block('alert', 'Alert', { channels: ['sms'], message: 'Call {first_name} back' })],
        ann,
      );
      await untilRetry(runId);
      await moveClock(h, 60_000);
      const j = await settle(h, runId, 'completed');
      expect(j.step).toMatchObject({ status: 'done', attempts: 2 });
      await expect.poll(async () => (await textsTo(phone)).length, { timeout: 15_000, interval: 50 }).toBe(1);
      await drainJobs(h.t, 20_000);
      expect((await textsTo(phone)).map((m) => m.body)).toEqual(['Call Ann back']);
    } finally {
      ACTIONS.Alert = real;
    }
  });

  it('a chosen user without a phone is passed over for texts and named', async () => {
    const user = h.seed.a.businessUser;
    await h.q('update users set phone = null where id = $1', [user.id]);
    const j = await runBlock(h, 'Alert', { channels: ['sms'], user_ids: [user.id], message: 'Hi' }, ann);
    expect(j.step).toMatchObject({
      status: 'done',
      detail: { recipients: [user.id], skipped: [{ user_id: user.id, channel: 'sms', reason: 'no_phone' }] },
    });
  });

  it("nobody to tell (another business's user) fails the step and the journey goes on", async () => {
    const other = h.seed.b.businessAdmin;
    const j = await runBlock(h, 'Alert', { channels: ['email'], user_ids: [other.id], message: 'Hi' }, ann);
    expect(j.status).toBe('completed');
    expect(j.step).toMatchObject({ status: 'failed', error: 'automations.action.no_recipients' });
  });
});
