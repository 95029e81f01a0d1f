// The widget's public API through HTTP on a real database and the sandbox carrier: the config, the visitor
// token, bookable times and a scheduled call in the install's time zone, 'text us' (the inbox, the SMS
// confirmation, refusals that store nothing, throttling, the honeypot), the reply and the conversation,
// and the languages of the answers.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../../test/helpers.ts';
import { platformSystemContext } from '../../platform/tenancy/context.ts';
import { messageReceived } from '../chats/service.ts';
import { bookableSlots, restoreSandboxNumbers } from '../telephony/service.ts';
import { closedHours, type Telephony, telephonyApp } from '../telephony/testing.ts';
import { visitorOf } from './testing.ts';
import { signToken } from './token.ts';

let h: Telephony;
const SITE = 'https://dental.example.test';
const received: { contactId: number; installId: number | null }[] = [];

const rows = async (text: string, values: unknown[] = []) => (await h.t.pool.query(text, values)).rows;

type Opts = { lang?: string; ip?: string };
const get = (key: string, url: string, o: Opts = {}) =>
  h.t.app.inject({
    method: 'GET',
    url: `/api/widget${url}`,
    headers: { 'x-install-key': key, origin: SITE, ...(o.lang ? { 'accept-language': o.lang } : {}) },
    ...(o.ip ? { remoteAddress: o.ip } : {}),
  });
const post = (key: string, url: string, payload: unknown, o: Opts = {}) =>
  h.t.app.inject({
    method: 'POST',
    url: `/api/widget${url}`,
    headers: { 'x-install-key': key, origin: SITE, ...(o.lang ? { 'accept-language': o.lang } : {}) },
    payload: payload as Record<string, unknown>,
    ...(o.ip ? { remoteAddress: o.ip } : {}),
  });

/** An install whose number also receives texts in the sandbox (as the messaging tests set it up). */
async function textingInstall(settings: Record<string, unknown> = {}) {
  const install = await h.install(settings);
  const [{ phone_number: number }] = await rows('select phone_number from numbers where install_id = $1', [
    install.id,
  ]);
  // The sandbox learns the number, as at start (texts to it reach the product).
  await restoreSandboxNumbers(platformSystemContext(h.t.app.deps, 'job', 'sandbox numbers'));
  return { ...install, number: number as string };
}

let counter = 0;
/** A fresh visitor phone for each test (the per-phone limits are the product's, not the test's). */
const visitorPhone = () => `+1415555${String(2000 + ++counter).padStart(4, '0')}`;

beforeAll(async () => {
  h = await telephonyApp({ WIDGET_RATE_PER_INSTALL: '100000' });
  h.t.app.deps.events.on(messageReceived, (p) => {
    received.push({ contactId: p.contactId, installId: p.installId });
  });
});
afterAll(() => h?.close());

describe('GET /v1/config', () => {
  it("answers the business's name, the modes narrowed by the business, open_now, images and public settings", async () => {
    const install = await h.install({ widget_type: 3, texts: { en: { title: 'Hi!' } } });
    await h.t.pool.query('update installs set logo = $1 where id = $2', [
      `/uploads/installs/${install.id}/logo.png?v=1`,
      install.id,
    ]);
    const res = await get(install.key, '/v1/config');
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({
      id: install.id,
      business_name: h.seed.a.business.name,
      widget_type: 3,
      open_now: true,
      // On the agency's own host (its custom domain), not the platform's (issue 17).
      logo: `http://calls-a.example.com:3000/uploads/installs/${install.id}/logo.png?v=1`,
      widget_icon: null,
    });
    expect(data.settings.timezone).toBe('UTC');
    // Staff phones and agents never leave.
    expect(data.settings.phoneAgents).toBeUndefined();
    expect(JSON.stringify(data)).not.toContain('+15005550101');
    expect(res.headers['access-control-allow-origin']).toBe(SITE);
    const etag = res.headers.etag as string;
    expect(
      (
        await h.t.app.inject({
          url: '/api/widget/v1/config',
          headers: { 'x-install-key': install.key, 'if-none-match': etag },
        })
      ).statusCode,
    ).toBe(304);

    // A business that may only take calls (its agency says so) narrows a 'both' install to calls.
    const agency = bearer(await h.token(h.seed.a.agencyAdmin.email));
    const widgetType = async (type: number) => {
      const res = await h.t.app.inject({
        method: 'PUT',
        url: `/api/v1/business/${h.seed.a.business.id}`,
        headers: agency,
        payload: { widget_type: type },
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    await widgetType(1);
    try {
      const narrowed = await get(install.key, '/v1/config');
      expect(narrowed.json().data.widget_type).toBe(1);
      expect(narrowed.headers.etag).not.toBe(etag);
      // And it refuses a text with a clear message, storing nothing.
      const text = await post(install.key, '/v1/text', { phone: visitorPhone(), message: 'Hello' });
      expect(text.statusCode, text.body).toBe(403);
      expect(text.json().message).toBe('Text messages are not available on this website.');
    } finally {
      await widgetType(3);
    }
  });

  it('is not open_now out of hours, nor when the month’s calls are used up', async () => {
    const closed = await h.install({
      hours: closedHours('Pacific/Kiritimati'),
      timezone: 'Pacific/Kiritimati',
    });
    const res = await get(closed.key, '/v1/config');
    expect(res.json().data.open_now).toBe(false);

    const open = await h.install();
    expect((await get(open.key, '/v1/config')).json().data.open_now).toBe(true);
    await h.t.pool.query('update businesses set calls = 5, number_of_calls = 5 where id = $1', [
      h.seed.a.business.id,
    ]);
    try {
      expect((await get(open.key, '/v1/config')).json().data.open_now).toBe(false);
    } finally {
      await h.t.pool.query('update businesses set calls = 200, number_of_calls = 0 where id = $1', [
        h.seed.a.business.id,
      ]);
    }
  });
});

describe('the visitor token', () => {
  it('is answered with a callback and follows only that install; tampered, expired or foreign tokens are 401', async () => {
    const install = await textingInstall();
    const other = await textingInstall();
    const callback = await h.callback(install.key, { phone: visitorPhone() });
    expect(callback.statusCode, callback.body).toBe(200);
    const data = callback.json().data;
    expect(data).toMatchObject({ status: 'calling', call_id: expect.any(Number), token: expect.any(String) });
    await h.run(1000);

    const ok = await get(install.key, `/v1/conversation?token=${encodeURIComponent(data.token)}`);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data).toEqual({ messages: [] });

    const [v, payload, sig] = (data.token as string).split('.');
    const claims = JSON.parse(Buffer.from(payload as string, 'base64url').toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, k: claims.k + 1 })).toString('base64url');
    const cases: [string, string, string][] = [
      [
        install.key,
        `${v}.${forged}.${sig}`,
        'This conversation link is not valid. Please start again from the widget.',
      ],
      [install.key, 'garbage', 'This conversation link is not valid. Please start again from the widget.'],
      [
        install.key,
        signToken(visitorOf(h, install), { contactId: 1 }, Date.now() - 25 * 3_600_000),
        'This conversation has expired. Please start again from the widget.',
      ],
      [other.key, data.token, "This conversation belongs to another website's widget."],
    ];
    for (const [key, token, message] of cases) {
      const res = await get(key, `/v1/conversation?token=${encodeURIComponent(token)}`);
      expect(res.statusCode, token).toBe(401);
      expect(res.json()).toMatchObject({ success: false, code: 'UNAUTHENTICATED', message });
      const reply = await post(key, '/v1/text/reply', { token, message: 'hi' });
      expect(reply.statusCode).toBe(401);
    }
    // In the visitor's language.
    const es = await get(install.key, '/v1/conversation?token=garbage', { lang: 'es-MX,es;q=0.9' });
    expect(es.json().message).toBe(
      'Este enlace de conversación no es válido. Vuelve a empezar desde el widget.',
    );
    await h.run(60_000);
  });
});

describe('GET /v1/slots and POST /v1/schedule', () => {
  it('offers every 30 minutes inside the hours in the install’s zone, from 30 minutes from now, at most 14 days', async () => {
    const nine = { open: true, from: '09:00AM', to: '05:00PM' };
    const hours = Object.fromEntries(
      ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [
        d,
        d === 'sunday' ? { ...nine, open: false } : nine,
      ]),
    );
    const install = await h.install({ timezone: 'America/New_York', hours });
    const before = Date.now();
    const res = await get(install.key, '/v1/slots?days=3');
    expect(res.statusCode, res.body).toBe(200);
    const { timezone, slots } = res.json().data as { timezone: string; slots: string[] };
    expect(timezone).toBe('America/New_York');
    expect(slots.length).toBeGreaterThan(8);
    const fmt = new Intl.DateTimeFormat('en-US', {
      timeZone: 'America/New_York',
      weekday: 'long',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    for (const s of slots) {
      expect(s).toMatch(/^\d{4}-\d\d-\d\dT\d\d:(00|30):00-0[45]:00$/);
      const at = new Date(s);
      expect(at.getTime()).toBeGreaterThanOrEqual(before + 30 * 60_000 - 1000);
      expect(at.getTime()).toBeLessThan(before + 3 * 86_400_000 + 1000);
      const parts = fmt.formatToParts(at);
      const hour = Number(parts.find((p) => p.type === 'hour')?.value);
      expect(hour).toBeGreaterThanOrEqual(9);
      expect(hour).toBeLessThan(17);
      expect(parts.find((p) => p.type === 'weekday')?.value).not.toBe('Sunday');
      // The offset written is New York's at that instant, so the local time reads as in New York.
      expect(s.slice(11, 13)).toBe(String(hour).padStart(2, '0'));
    }
    expect(new Set(slots).size).toBe(slots.length);
    const sorted = [...slots].sort((a, b) => new Date(a).getTime() - new Date(b).getTime());
    expect(slots).toEqual(sorted);

    expect((await get(install.key, '/v1/slots?days=15')).statusCode).toBe(422);
    const two = (await get(install.key, '/v1/slots?days=14')).json().data.slots as string[];
    expect(new Date(two.at(-1) as string).getTime()).toBeLessThan(Date.now() + 14 * 86_400_000);
  });

  it('skips the wall-clock times a DST change removes and keeps the offsets right', () => {
    const always = Object.fromEntries(
      ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [
        d,
        { open: true, from: '12:00AM', to: '11:59PM' },
      ]),
    ) as never;
    // New York springs forward on Sunday 8 March 2026 at 02:00 (to 03:00).
    const slots = bookableSlots(
      { timezone: 'America/New_York', hours: always },
      new Date('2026-03-08T04:00:00Z'),
      1,
    );
    expect(slots[0]).toBe('2026-03-07T23:30:00-05:00');
    expect(slots).toContain('2026-03-08T01:30:00-05:00');
    expect(slots).not.toContain('2026-03-08T02:00:00-05:00');
    expect(slots.some((s) => s.startsWith('2026-03-08T02:'))).toBe(false);
    expect(slots).toContain('2026-03-08T03:00:00-04:00');
    // Every slot 30 minutes after the one before, across the change.
    for (let i = 1; i < slots.length; i++)
      expect(new Date(slots[i] as string).getTime() - new Date(slots[i - 1] as string).getTime()).toBe(
        30 * 60_000,
      );
  });

  it('schedules a slot in the install’s zone (not the server’s) and refuses a time outside its hours', async () => {
    expect(Intl.DateTimeFormat().resolvedOptions().timeZone).not.toBe('Asia/Tokyo');
    const nine = { open: true, from: '09:00AM', to: '05:00PM' };
    const hours = Object.fromEntries(
      ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [d, nine]),
    );
    const install = await h.install({ timezone: 'Asia/Tokyo', hours });
    const slots = (await get(install.key, '/v1/slots?days=2')).json().data.slots as string[];
    const pick = slots.find((s) => s.includes('T10:00:00+09:00')) as string;
    expect(pick).toBeTruthy();
    const phone = visitorPhone();
    const ok = await post(install.key, '/v1/schedule', { phone, name: 'Kenji', scheduled_at: pick });
    expect(ok.statusCode, ok.body).toBe(200);
    const id = ok.json().data.id as number;
    expect(new Date(ok.json().data.scheduled_for).getTime()).toBe(new Date(pick).getTime());
    const [call] = await rows('select scheduled_for, outcome from calls where id = $1', [id]);
    expect(call.outcome).toBe('scheduled');
    expect(new Date(call.scheduled_for).toISOString()).toBe(new Date(pick).toISOString());

    // 20:00 in Tokyo is 11:00 UTC: open by the server's clock, closed by the install's.
    const evening = pick.replace('T10:00:00', 'T20:00:00');
    const refused = await post(install.key, '/v1/schedule', { phone, scheduled_at: evening });
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json().errors.scheduled_at[0]).toBe(
      'The business is closed at that time. Please choose another time.',
    );
    const [n] = await rows('select count(*)::int as n from calls where install_id = $1', [install.id]);
    expect(n.n).toBe(1);
  });
});

describe('text us', () => {
  it('starts a conversation in the inbox, confirms by SMS, and goes on by reply and SMS', async () => {
    const install = await textingInstall();
    const phone = visitorPhone();
    const admin = bearer(await h.token(h.seed.a.businessAdmin.email));
    const res = await post(install.key, '/v1/text', {
      phone: phone.replace('+1', ''),
      name: 'Tina Text',
      email: 'tina@example.test',
      message: 'Do you take new patients?',
    });
    expect(res.statusCode, res.body).toBe(200);
    const { token, message } = res.json().data;
    expect(token).toMatch(/^v1\./);
    expect(message).toMatchObject({ direction: 'in', body: 'Do you take new patients?', status: 'received' });

    const [contact] = await rows('select * from contacts where business_id = $1 and phone = $2', [
      h.seed.a.business.id,
      phone,
    ]);
    expect(contact).toMatchObject({
      install_id: install.id,
      first_name: 'Tina',
      last_name: 'Text',
      email: 'tina@example.test',
    });
    // Announced like an inbound SMS (realtime, push and automations listen to it).
    expect(received).toContainEqual({ contactId: contact.id, installId: install.id });
    // In the agent's inbox.
    const inbox = await h.t.app.inject({
      url: `/api/v1/chats/contacts/${contact.id}/messages`,
      headers: admin,
    });
    expect(inbox.statusCode, inbox.body).toBe(200);
    expect(JSON.stringify(inbox.json())).toContain('Do you take new patients?');

    // The confirmation and the code that shows the replies in the widget reach the visitor's phone, in
    // one text from the install's number.
    await h.run(5_000);
    const texts = h.sandbox.phones.get(phone).texts;
    expect(texts).toHaveLength(1);
    const code = /(\d{6}) is your code/.exec(texts[0]?.body ?? '')?.[1] ?? '';
    expect(texts[0]?.body).toBe(
      `${h.seed.a.business.name}: thanks for your message! We will reply to you here by text. Reply STOP to opt out.\n` +
        `${code} is your code to see ${h.seed.a.business.name}'s replies in the chat on their website. Did not write to us? Ignore this text.`,
    );
    expect(res.json().data).toMatchObject({ verified: false, code_sent: true });

    // The visitor writes again: another inbound message; no second confirmation.
    const reply = await post(install.key, '/v1/text/reply', { token, message: 'Tomorrow morning ideally' });
    expect(reply.statusCode, reply.body).toBe(200);
    expect(reply.json().data).toMatchObject({ direction: 'in', body: 'Tomorrow morning ideally' });
    // The agent answers from the inbox; the visitor answers by SMS after leaving the page.
    const agent = await h.t.app.inject({
      method: 'POST',
      url: `/api/v1/chats/contacts/${contact.id}/messages`,
      headers: admin,
      payload: { body: 'Yes! 9am works.' },
    });
    expect(agent.statusCode, agent.body).toBe(200);
    await h.run(5_000);
    h.sandbox.phones.sendText(phone, install.number, 'Great, see you');
    await h.run(1_000);
    expect(h.sandbox.phones.get(phone).texts.map((t) => t.body)).toContain('Yes! 9am works.');

    // Before the code: only what the visitor typed into the widget.
    const mine = await get(install.key, `/v1/conversation?token=${encodeURIComponent(token)}`);
    expect(mine.statusCode, mine.body).toBe(200);
    expect((mine.json().data.messages as { body: string }[]).map((m) => m.body)).toEqual([
      'Do you take new patients?',
      'Tomorrow morning ideally',
    ]);
    // With the code texted to the phone: the whole conversation since the first text.
    const verified = await post(install.key, '/v1/text/verify', { token, code });
    expect(verified.statusCode, verified.body).toBe(200);
    const proven = verified.json().data.token as string;
    const conv = await get(install.key, `/v1/conversation?token=${encodeURIComponent(proven)}`);
    expect(conv.statusCode, conv.body).toBe(200);
    const msgs = conv.json().data.messages as { direction: string; body: string }[];
    expect(msgs.map((m) => [m.direction, m.body])).toEqual([
      ['in', 'Do you take new patients?'],
      ['out', texts[0]?.body],
      ['in', 'Tomorrow morning ideally'],
      ['out', 'Yes! 9am works.'],
      ['in', 'Great, see you'],
    ]);

    // A second 'text us' from the same phone the same day: same conversation, no new confirmation.
    const again = await post(install.key, '/v1/text', { phone, message: 'One more thing' });
    expect(again.statusCode, again.body).toBe(200);
    await h.run(2_000);
    expect(
      h.sandbox.phones.get(phone).texts.filter((t) => t.body.includes('thanks for your message')),
    ).toHaveLength(1);
  });

  it("sends the install's auto-responder instead, in the visitor's language otherwise", async () => {
    const install = await textingInstall({ auto_responder: 'Bright Dental here: we reply within the hour.' });
    const phone = visitorPhone();
    expect((await post(install.key, '/v1/text', { phone, message: 'Hola' })).statusCode).toBe(200);
    await h.run(3_000);
    const [auto] = h.sandbox.phones.get(phone).texts.map((t) => t.body);
    expect(auto).toMatch(/^Bright Dental here: we reply within the hour\.\n\d{6} is your code/);

    const plain = await textingInstall();
    const es = visitorPhone();
    expect(
      (await post(plain.key, '/v1/text', { phone: es, message: 'Hola' }, { lang: 'es' })).statusCode,
    ).toBe(200);
    await h.run(3_000);
    expect(h.sandbox.phones.get(es).texts[0]?.body).toContain('¡gracias por tu mensaje!');
  });

  it('refuses opted-out, blocked and blacklisted numbers and a full month, storing and sending nothing', async () => {
    const install = await textingInstall();
    const admin = bearer(await h.token(h.seed.a.businessAdmin.email));
    const optedOut = visitorPhone();
    const blocked = visitorPhone();
    const listed = visitorPhone();
    // STOP by SMS first.
    h.sandbox.phones.sendText(optedOut, install.number, 'STOP');
    await h.run(3_000);
    const stopReplies = h.sandbox.phones.get(optedOut).texts.length;
    expect((await post(install.key, '/v1/text', { phone: blocked, message: 'first' })).statusCode).toBe(200);
    const [b] = await rows('select id from contacts where phone = $1', [blocked]);
    await h.t.pool.query('update contacts set blocked_at = now() where id = $1', [b.id]);
    const listRes = await h.t.app.inject({
      method: 'POST',
      url: '/api/v1/blacklist',
      headers: admin,
      payload: { phone: listed },
    });
    expect(listRes.statusCode, listRes.body).toBeLessThan(300);
    await h.run(3_000);

    const count = async () =>
      (await rows('select count(*)::int as n from messages where install_id = $1', [install.id]))[0].n;
    const before = await count();
    const cases: [string, string][] = [
      [optedOut, 'This contact has opted out of text messages'],
      [blocked, 'This contact is blocked.'],
      [listed, 'This phone number is on the blacklist and cannot receive messages.'],
    ];
    for (const [phone, message] of cases) {
      const res = await post(install.key, '/v1/text', { phone, message: 'Let me in' });
      expect(res.statusCode, phone).toBe(422);
      expect(res.json().message).toContain(message);
    }
    expect(await rows('select * from contacts where phone = $1', [listed])).toHaveLength(0);

    // The month's messages used up: refused before anything is stored or sent.
    await h.t.pool.query('update businesses set messages = 10, number_of_messages = 10 where id = $1', [
      h.seed.a.business.id,
    ]);
    const full = visitorPhone();
    try {
      const res = await post(install.key, '/v1/text', { phone: full, message: 'Anyone?' });
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json().message).toBe(
        'This business cannot take text messages right now. Please try again later or call us.',
      );
    } finally {
      await h.t.pool.query('update businesses set messages = 2000, number_of_messages = 0 where id = $1', [
        h.seed.a.business.id,
      ]);
    }
    await h.run(3_000);
    expect(await count()).toBe(before);
    expect(await rows('select * from contacts where phone = $1', [full])).toHaveLength(0);
    expect(h.sandbox.phones.get(full).texts).toHaveLength(0);
    expect(h.sandbox.phones.get(optedOut).texts).toHaveLength(stopReplies);
    expect(h.sandbox.phones.get(listed).texts).toHaveLength(0);
  });

  it('throttles one phone, ignores a honeypot, and validates the phone in the visitor’s language', async () => {
    const install = await textingInstall();
    const phone = visitorPhone();
    const codes: number[] = [];
    for (let i = 0; i < 7; i++)
      codes.push((await post(install.key, '/v1/text', { phone, message: `msg ${i}` })).statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(5);
    const limited = await post(install.key, '/v1/text', { phone, message: 'again' });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().message).toBe('Too many messages. Please wait a minute and try again.');
    await h.run(2_000);
    // Five texts in, one confirmation out, and codes to see the replies three times a day at most.
    const out = h.sandbox.phones.get(phone).texts.map((t) => t.body);
    expect(out).toHaveLength(3);
    expect(out.filter((b) => b.includes('thanks for your message'))).toHaveLength(1);
    expect(out.every((b) => /\d{6} is your code/.test(b))).toBe(true);

    const bot = visitorPhone();
    const trap = await post(install.key, '/v1/text', {
      phone: bot,
      message: 'Buy now',
      website: 'http://spam',
    });
    expect(trap.statusCode).toBe(200);
    expect(trap.json().data.token).toMatch(/^v1\./);
    expect(await rows('select * from contacts where phone = $1', [bot])).toHaveLength(0);

    const bad = await post(install.key, '/v1/text', { phone: '12', message: 'x' }, { lang: 'br' });
    expect(bad.statusCode).toBe(422);
    expect(JSON.stringify(bad.json())).toContain('Formato de número de telefone errado!!');
  });
});

describe("the visitor's fields and consents, as the install asks for them", () => {
  it('checks required name and e-mail, the name check and the GDPR consent on the server; refused = nothing stored', async () => {
    const install = await textingInstall({
      gdpr_consent: true,
      promotion_consent: true,
      input: {
        IsRequiredName: true,
        IsEnableNameValidation: true,
        IsEnableEmail: true,
        IsRequiredEmail: true,
      },
    });
    const phone = visitorPhone();
    const tables =
      'select (select count(*) from messages) m, (select count(*) from contacts) c, (select count(*) from calls) k';
    const before = await rows(tables);
    for (const [payload, errors] of [
      [{ phone, message: 'Hi' }, ['name', 'email', 'gdpr_consent']],
      [{ phone, message: 'Hi', name: 'R2D2', email: 'r@x.test', gdpr_consent: true }, ['name']],
      [{ phone, message: 'Hi', name: 'Rita', email: 'r@x.test' }, ['gdpr_consent']],
    ] as const) {
      const res = await post(install.key, '/v1/text', payload);
      expect(res.statusCode, res.body).toBe(422);
      expect(Object.keys(res.json().errors).sort()).toEqual([...errors].sort());
    }
    const call = await post(install.key, '/v1/callback', { phone, name: 'Rita', email: 'r@x.test' });
    expect(call.statusCode, call.body).toBe(422);
    expect(Object.keys(call.json().errors)).toEqual(['gdpr_consent']);
    expect(await rows(tables)).toEqual(before);
  });

  it("keeps the visitor's consents in the business's audit trail (install, phone, address, time)", async () => {
    const install = await textingInstall({ gdpr_consent: true, promotion_consent: true });
    const phone = visitorPhone();
    const res = await post(
      install.key,
      '/v1/text',
      { phone, message: 'Offers please', gdpr_consent: true, promotion_consent: true },
      { ip: '198.51.100.7' },
    );
    expect(res.statusCode, res.body).toBe(200);
    const logged = await rows(
      `select business_id, ip, data from audit_logs where action = 'widget.consent' and data->>'phone' = $1`,
      [phone],
    );
    expect(logged).toEqual([
      {
        business_id: h.seed.a.business.id,
        ip: '198.51.100.7',
        data: { install_id: install.id, phone, via: 'text', gdpr: true, promotion: true },
      },
    ]);
  });
});
