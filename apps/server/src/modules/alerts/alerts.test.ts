// Staff notifications (issue 24, ADR 082) on a real database, the sandbox carrier, the mail outbox and a local
// push service: a missed callback e-mails, texts and pushes; its voicemail e-mails; the callback request is a
// new lead; a text notifies while nobody who may see it is online, and not once someone is; an install set
// to `none` and a business switch that is off notify nobody.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, drainJobs, login } from '../../../test/helpers.ts';
import { businessSystemContext, platformSystemContext } from '../../platform/tenancy/context.ts';
import { browser } from '../push/test-support.ts';
import { restoreSandboxNumbers } from '../telephony/service.ts';
import { STAFF_2, type Telephony, telephonyApp, voicemailCall } from '../telephony/testing.ts';
import { sendAlertText } from './service.ts';

let h: Telephony;
const q = async (text: string, values: unknown[] = []) => (await h.t.pool.query(text, values)).rows;
const POLL = { timeout: 20_000, interval: 100 };

/** The local push service: what it was sent, decrypted by the admin's browser. */
const pushed: { path: string; payload: Record<string, string> }[] = [];
const b = browser();
let server: ReturnType<typeof createServer>;

beforeAll(async () => {
  h = await telephonyApp();
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (d) => chunks.push(d));
    req.on('end', () => {
      pushed.push({ path: req.url ?? '', payload: JSON.parse(b.decrypt(Buffer.concat(chunks))) });
      res.statusCode = 201;
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const s = b.subscription(`http://127.0.0.1:${(server.address() as AddressInfo).port}/admin`);
  const { a } = h.seed;
  await q(
    'insert into push_subscriptions (user_id, business_id, endpoint, p256dh, auth) values ($1, $2, $3, $4, $5)',
    [a.businessAdmin.id, a.business.id, s.endpoint, s.keys.p256dh, s.keys.auth],
  );
});
afterAll(async () => {
  server?.close();
  await h?.close();
});

/** The install's number, known to the sandbox (a text to it reaches our webhook). */
async function numberOf(installId: number): Promise<string> {
  await restoreSandboxNumbers(platformSystemContext(h.t.app.deps, 'job', 'sandbox numbers'));
  return (await q('select phone_number from numbers where install_id = $1', [installId]))[0]?.phone_number;
}
const mailsTo = (to: string) => q('select subject, text from mail_outbox where "to" = $1 order by id', [to]);

/** Waits until the text from `phone` is in the business's inbox (recorded, its events on their way). */
async function textStored(phone: string): Promise<void> {
  await h.run(1000);
  await expect
    .poll(
      async () =>
        (
          await q(
            `select m.id from messages m join contacts c on c.id = m.contact_id
              where m.business_id = $1 and c.phone = $2`,
            [h.seed.a.business.id, phone],
          )
        ).length,
      POLL,
    )
    .toBeGreaterThan(0);
}

let afterwards = 0;
/**
 * A text to a new install of the business that notifies always (even with an agent online): by e-mail to
 * `email`, or when the business has e-mail off, by SMS to `phone`. Waits for that notice, then for the jobs
 * it and the notices before it enqueued. The business's notices are worked in their events' order, and a
 * notice that sends nothing leaves no trace: once this one is there, every event before it was noticed.
 */
async function afterwardsNotified(to: { email: string } | { phone: string }): Promise<void> {
  const install = await h.install({
    widget_type: 2,
    sms_notification_type: 'always',
    ...('email' in to
      ? { notification_type: 'email', notification_email: to.email }
      : { notification_type: 'sms', notification_phone: to.phone }),
  });
  const number = await numberOf(install.id);
  h.sandbox.phones.sendText(`+1415555079${afterwards++}`, number, 'after');
  await h.run(1000);
  if ('email' in to) await expect.poll(async () => (await mailsTo(to.email)).length, POLL).toBe(1);
  else await expect.poll(() => h.sandbox.sentMessages({ to: to.phone, from: number }).length, POLL).toBe(1);
  await drainJobs(h.t, 20_000);
}

/** Every session of the business's users last used an hour ago: nobody is online. */
const everyoneAway = () =>
  q(
    `update auth_tokens set last_used_at = now() - interval '1 hour', created_at = now() - interval '1 hour'
     where business_id = $1`,
    [h.seed.a.business.id],
  );

describe('staff notifications', () => {
  it('a missed callback e-mails, texts and pushes the staff; its voicemail e-mails; the request is a new lead', async () => {
    const install = await h.install({
      timeout: 20,
      notification_type: 'both',
      notification_email: 'desk@alerts.test',
      notification_phone: STAFF_2,
    });
    const from = await numberOf(install.id);
    const visitor = '+14155550701';
    const callId = await voicemailCall(h, install.key, visitor);

    await expect
      .poll(async () => (await mailsTo('desk@alerts.test')).map((m) => m.subject).sort(), POLL)
      .toEqual([
        `Missed call from ${visitor}`,
        `New lead from ${visitor}: callback request`,
        `New voicemail from ${visitor}`,
      ]);
    const mails = await mailsTo('desk@alerts.test');
    expect(mails.find((m) => m.subject.startsWith('Missed'))?.text).toContain(
      `${visitor} (${visitor}) called Site`,
    );
    // The SMS from the install's number to the notification phone, at the sandbox carrier.
    await expect
      .poll(() => h.sandbox.sentMessages({ to: STAFF_2, from }).map((m) => m.body), POLL)
      .toEqual(
        expect.arrayContaining([
          expect.stringContaining(`${visitor} (${visitor}) called Site`),
          expect.stringContaining('left a voicemail'),
          expect.stringContaining('asked Site'),
        ]),
      );
    // The admin's registered browser (they see the conversation).
    await expect
      .poll(() => pushed.filter((p) => p.payload.tag === `missed_call-${callId}`).map((p) => p.payload), POLL)
      .toEqual([expect.objectContaining({ title: `Missed call from ${visitor}`, url: '/business/calls' })]);
    const [voice] = await q('select id from voice_records where call_id = $1', [callId]);
    await expect
      .poll(() => pushed.filter((p) => p.payload.tag === `voicemail-${voice?.id}`).length, POLL)
      .toBe(1);
    // Each event once: every notice worked, nothing more in the outbox.
    await afterwardsNotified({ email: 'after-missed@alerts.test' });
    expect(await mailsTo('desk@alerts.test')).toHaveLength(3);
  });

  it("texts in the install's language, e-mailed while nobody is online and not once an agent is", async () => {
    const install = await h.install({
      widget_type: 2,
      language: 'es',
      notification_type: 'email',
      notification_email: 'texts@alerts.test',
      sms_notification_type: 'offline',
    });
    const number = await numberOf(install.id);
    await everyoneAway();
    h.sandbox.phones.sendText('+14155550702', number, '¿Abren el sábado?');
    await h.run(1000);
    await expect
      .poll(async () => (await mailsTo('texts@alerts.test')).map((m) => [m.subject, m.text]), POLL)
      .toEqual([
        [
          'Nuevo mensaje de texto de +14155550702',
          expect.stringContaining('+14155550702 (+14155550702) escribió a Site'),
        ],
      ]);
    expect((await mailsTo('texts@alerts.test'))[0]?.text).toContain('¿Abren el sábado?');

    // The admin signs in (a session used now): they may see the conversation, so nobody is e-mailed.
    await login(h.t.app, h.seed.a.businessAdmin.email);
    h.sandbox.phones.sendText('+14155550703', number, 'Hola');
    await textStored('+14155550703');
    // A text that notices are decided for after it (the business's texts are sorted in their order, and
    // a text nobody is told of leaves no job): once its mail is there, the text above was decided.
    await afterwardsNotified({ email: 'after-agent@alerts.test' });
    expect(await mailsTo('texts@alerts.test')).toHaveLength(1);
  });

  it('sms_notification_type none never notifies of a text; always does even with an agent online', async () => {
    const quiet = await h.install({
      widget_type: 2,
      notification_email: 'quiet@alerts.test',
      sms_notification_type: 'none',
    });
    const loud = await h.install({
      widget_type: 2,
      notification_email: 'loud@alerts.test',
      sms_notification_type: 'always',
    });
    await login(h.t.app, h.seed.a.businessAdmin.email);
    const loudNumber = await numberOf(loud.id);
    h.sandbox.phones.sendText('+14155550704', await numberOf(quiet.id), 'one');
    await textStored('+14155550704');
    // The loud install's text is decided after the quiet one's (in their order): its mail says both were.
    h.sandbox.phones.sendText('+14155550705', loudNumber, 'two');
    await h.run(1000);
    await expect.poll(async () => (await mailsTo('loud@alerts.test')).length, POLL).toBe(1);
    expect(await mailsTo('quiet@alerts.test')).toEqual([]);
  });

  it('a notice that fails where its event was seen is retried by a job, and written once', async () => {
    const install = await h.install({
      widget_type: 2,
      notification_type: 'email',
      notification_email: 'flaky@alerts.test',
      sms_notification_type: 'always',
    });
    const number = await numberOf(install.id);
    // The database refuses the notice's first e-mail (a sequence is not undone with the transaction).
    await q(`create sequence flaky_mail_seq;
      grant usage on sequence flaky_mail_seq to public;
      create function flaky_mail() returns trigger language plpgsql as $$
      begin
        if new."to" = 'flaky@alerts.test' and nextval('flaky_mail_seq') = 1 then
          raise exception 'the first try fails';
        end if;
        return new;
      end $$;
      create trigger flaky_mail before insert on mail_outbox for each row execute function flaky_mail();`);
    try {
      h.sandbox.phones.sendText('+14155550708', number, 'Are you there?');
      await h.run(1000);
      await expect.poll(async () => (await mailsTo('flaky@alerts.test')).length, POLL).toBe(1);
      expect((await q(`select nextval('flaky_mail_seq') as n`))[0]?.n).toBe('3');
      await afterwardsNotified({ email: 'after-flaky@alerts.test' });
      expect(await mailsTo('flaky@alerts.test')).toHaveLength(1);
    } finally {
      await q(
        `drop trigger flaky_mail on mail_outbox; drop function flaky_mail(); drop sequence flaky_mail_seq;`,
      );
    }
  });

  it("notification_type none, or the business's switch off, notifies nobody", async () => {
    const none = await h.install({
      timeout: 20,
      notification_type: 'none',
      notification_email: 'none@alerts.test',
      notification_phone: STAFF_2,
    });
    const noneFrom = await numberOf(none.id);
    const noneCall = await voicemailCall(h, none.key, '+14155550706');
    await afterwardsNotified({ email: 'after-none@alerts.test' });
    expect(await mailsTo('none@alerts.test')).toEqual([]);
    expect(h.sandbox.sentMessages({ to: STAFF_2, from: noneFrom })).toEqual([]);
    expect(pushed.filter((p) => p.payload.tag?.endsWith(`-${noneCall}`))).toEqual([]);

    // The business turns missed calls and e-mail off (its settings screen's save): a missed call texts
    // nobody and e-mails nobody, but the lead (its callback request) still texts.
    const admin = await login(h.t.app, h.seed.a.businessAdmin.email);
    const notifications = async (set: Record<string, boolean>) => {
      const res = await h.t.app.inject({
        method: 'PUT',
        url: '/api/v1/businesses/setting',
        headers: bearer(admin),
        payload: { notifications: set },
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    await notifications({ missed_call: false, email_notifications: false });
    try {
      const off = await h.install({
        timeout: 20,
        notification_type: 'both',
        notification_email: 'off@alerts.test',
        notification_phone: STAFF_2,
      });
      const offFrom = await numberOf(off.id);
      await voicemailCall(h, off.key, '+14155550707');
      await afterwardsNotified({ phone: STAFF_2 });
      expect(await mailsTo('off@alerts.test')).toEqual([]);
      expect(h.sandbox.sentMessages({ to: STAFF_2, from: offFrom }).map((m) => m.body)).toEqual([
        expect.stringContaining('asked Site'),
      ]);
    } finally {
      await notifications({ missed_call: true, email_notifications: true });
    }
  });
});

describe('the staff text', () => {
  const ctx = () =>
    businessSystemContext(
      h.t.app.deps,
      { agencyId: h.seed.a.agency.id, businessId: h.seed.a.business.id },
      'job',
      'staff alert text',
    );
  const sentTo = (to: string) => h.sandbox.sentMessages({ to }).map((m) => m.body);

  it('is retried when the carrier refused it for a moment (429, 401), not when it may have it (5xx)', async () => {
    const install = await h.install({});
    const from = await numberOf(install.id);
    const staff = '+14155550781';
    const fail = (status: number, after = false) =>
      h.sandbox.failCreations('Messages', {
        status,
        code: status === 429 ? 20429 : 20500,
        message: `failed ${status}`,
        after,
      });
    try {
      // A rate limit: nothing sent, the job's attempt fails (pg-boss tries it again).
      fail(429);
      await expect(sendAlertText(ctx(), { to: staff, from, body: 'Call Ann back' })).rejects.toThrow();
      fail(401);
      await expect(sendAlertText(ctx(), { to: staff, from, body: 'Call Ann back' })).rejects.toThrow();
      expect(sentTo(staff)).toEqual([]);
      // A 5xx after the carrier took it: not tried again, so never twice.
      fail(500, true);
      await expect(sendAlertText(ctx(), { to: staff, from, body: 'Call Ann back' })).resolves.toBeUndefined();
      expect(sentTo(staff)).toEqual(['Call Ann back']);
    } finally {
      h.sandbox.fault = null;
    }
    // The carrier back: the retry sends it.
    await sendAlertText(ctx(), { to: staff, from, body: 'Call Bo back' });
    expect(sentTo(staff)).toEqual(['Call Ann back', 'Call Bo back']);
  });

  it("holds nothing of the business while the carrier answers: the team's texts go on; a refusal is not counted", async () => {
    const install = await h.install({});
    const from = await numberOf(install.id);
    const staff = '+14155550782';
    const counted = async () =>
      (await q('select number_of_messages as n from businesses where id = $1', [h.seed.a.business.id]))[0]
        ?.n as number;
    const start = await counted();
    const visitor = '+14155550783';
    h.sandbox.phones.sendText(visitor, from, 'Are you open?');
    await textStored(visitor);
    const [{ id: contactId }] = await q('select id from contacts where phone = $1 and business_id = $2', [
      visitor,
      h.seed.a.business.id,
    ]);
    // The carrier takes its time over the staff text: its request waits at the carrier until let go.
    const http = h.sandbox.httpClient as unknown as {
      request: (o: Record<string, unknown>) => Promise<unknown>;
    };
    const request = http.request;
    let arrived = false;
    let letGo = () => {};
    const held = new Promise<void>((resolve) => {
      letGo = resolve;
    });
    http.request = async (o) => {
      if (((o.data ?? {}) as Record<string, string>).To === staff) {
        arrived = true;
        await held;
      }
      return request.call(http, o);
    };
    try {
      const sending = sendAlertText(ctx(), { to: staff, from, body: 'Call Cy back' });
      await expect.poll(() => arrived, POLL).toBe(true);
      // Meanwhile the team answers the visitor from the inbox: the reply is counted and sent at once (it
      // waited for the carrier's answer to the staff text before).
      let answered: { statusCode: number; body: string } | null = null;
      void h.t.app
        .inject({
          method: 'POST',
          url: `/api/v1/chats/contacts/${contactId}/messages`,
          headers: bearer(await h.token(h.seed.a.businessAdmin.email)),
          payload: { body: 'Yes, until 6pm.' },
        })
        .then((r) => {
          answered = r;
        });
      await expect.poll(() => answered?.statusCode, POLL).toBe(200);
      expect(sentTo(visitor)).toEqual(['Yes, until 6pm.']);
      letGo();
      await sending;
      expect(sentTo(staff)).toEqual(['Call Cy back']);
    } finally {
      http.request = request;
      letGo();
    }
    // The visitor's text, the staff text and the reply: three counted.
    await expect.poll(counted, POLL).toBe(start + 3);
    // A text the carrier refuses (certainly not sent) leaves the month's count as it was.
    const before = await counted();
    h.sandbox.failCreations('Messages', { status: 400, code: 21211, message: 'Invalid To number' }, 1);
    try {
      await sendAlertText(ctx(), { to: staff, from, body: 'Call Di back' });
    } finally {
      h.sandbox.fault = null;
    }
    expect(sentTo(staff)).toEqual(['Call Cy back']);
    expect(await counted()).toBe(before);
  });
});
