// The business's contacts and messages settings (ADR 094), each through the API and its effect in the
// product: the default country of phone numbers (contacts typed and imported), the opt-out message (the
// STOP reply), the signature on texts sent from the inbox, and the away auto-reply to a text that arrives
// while its install is closed. Bad input is a 422 with the message and changes nothing.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, expect403, snapshot } from '../../../test/helpers.ts';
import { agencyCarrierAccount } from '../agencies/service.ts';
import { closedHours, type Telephony, telephonyApp } from '../telephony/testing.ts';

let h: Telephony;
let openNumber: string;
let closedNumber: string;
const PUBLIC = 'http://localhost:3000';
const TABLES = ['businesses', 'contacts', 'messages'];

const q = async (text: string, values: unknown[] = []) => (await h.t.pool.query(text, values)).rows;
const admin = () => h.seed.a.businessAdmin.email;
async function api(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, email = admin()) {
  return h.t.app.inject({
    method,
    url: `/api${url}`,
    headers: bearer(await h.token(email)),
    ...(payload ? { payload } : {}),
  });
}
const setting = (payload: object, email = admin()) => api('PUT', '/v1/businesses/setting', payload, email);
const storedSettings = async () =>
  (await q('select settings, opt_out_msg from businesses where id = $1', [h.seed.a.business.id]))[0];

const MESSAGES_OFF = {
  signature_enabled: false,
  signature: '',
  away_enabled: false,
  away_message: '',
  away_every_hours: 12,
};

/** Texts the phone received from the business's numbers, oldest first. */
const textsTo = (phone: string) =>
  h.sandbox.phones
    .get(phone)
    .texts.filter((t) => t.direction === 'in')
    .map((t) => t.body);

/** A new install (open all week, or closed all week) and its sandbox number. */
async function installWithNumber(settings: Record<string, unknown>): Promise<string> {
  const install = await h.install(settings);
  const [{ phone_number }] = await q('select phone_number from numbers where install_id = $1', [install.id]);
  const account = await agencyCarrierAccount(h.t.app.deps, h.seed.a.agency.id);
  if (!account) throw new Error('no account');
  h.sandbox.restoreIncomingNumber(account.accountSid, {
    sid: `PN${crypto.randomBytes(16).toString('hex')}`,
    phoneNumber: phone_number,
    voiceUrl: `${PUBLIC}/webhooks/twilio/voice`,
    smsUrl: `${PUBLIC}/webhooks/twilio/sms-in`,
  });
  return phone_number;
}

/** Waits (polling the state, at most 10 s) until `check` holds. */
async function until(check: () => Promise<boolean> | boolean) {
  const end = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await h.run(100);
  }
}

beforeAll(async () => {
  h = await telephonyApp();
  openNumber = await installWithNumber({});
  closedNumber = await installWithNumber({
    hours: closedHours('America/New_York'),
    timezone: 'America/New_York',
  });
  // The agency may keep British and Brazilian contacts (the reach rule, ADR 051).
  await q('update agencies set allowed_countries = $1 where id = $2', [
    JSON.stringify(['GB', 'BR']),
    h.seed.a.agency.id,
  ]);
});
afterAll(async () => {
  await h?.close();
});

describe('contacts settings: the default country', () => {
  it('reads a number typed without its country code in the business’s country (US when never set)', async () => {
    // Never set: a British number written nationally is no number.
    const before = await api('POST', '/v1/contacts', { phone: '020 7946 0018', first_name: 'Tom' });
    expect(before.statusCode).toBe(422);
    expect(before.json().errors.phone).toEqual(['Wrong phone number format!!']);
    const us = await api('POST', '/v1/contacts', { phone: '(512) 555-0177', first_name: 'Al' });
    expect(us.statusCode, us.body).toBe(200);
    expect(us.json().data.phone).toBe('+15125550177');

    const res = await setting({ contacts: { default_country: 'gb' } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Contacts settings updated successfully.');
    expect((await storedSettings()).settings.contacts).toEqual({ default_country: 'GB' });

    const uk = await api('POST', '/v1/contacts', { phone: '020 7946 0018', first_name: 'Tom' });
    expect(uk.statusCode, uk.body).toBe(200);
    expect(uk.json().data.phone).toBe('+442079460018');
    // A number with its country code is that country's whatever the default; an edit reads the same way.
    const intl = await api('POST', '/v1/contacts', { phone: '+1 512 555 0178' });
    expect(intl.json().data.phone).toBe('+15125550178');
    const edit = await api('PUT', `/v1/contacts/${intl.json().data.id}`, { phone: '020 7946 0019' });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(edit.json().data.phone).toBe('+442079460019');
  });

  it('reads the import file’s numbers in the business’s country', async () => {
    await setting({ contacts: { default_country: 'BR' } });
    const csv = 'phone,first_name\n(11) 91234-5678,Ana\n+14155550188,Bob\n';
    const started = await api('POST', '/v1/contacts/import', { csv });
    expect(started.statusCode, started.body).toBe(200);
    const id = started.json().import_id;
    await until(async () => (await api('GET', `/v1/contacts/import/${id}`)).json().status === 'done');
    const report = (await api('GET', `/v1/contacts/import/${id}`)).json();
    expect(report).toMatchObject({ imported: 2, errors: [] });
    const phones = (
      await q('select phone from contacts where business_id = $1 and first_name in ($2, $3) order by phone', [
        h.seed.a.business.id,
        'Ana',
        'Bob',
      ])
    ).map((r) => r.phone);
    expect(phones).toEqual(['+14155550188', '+5511912345678']);
  });

  it('refuses a country that is none with a 422 and changes nothing; the business admin only', async () => {
    const before = await snapshot(h.t.pool, TABLES);
    for (const default_country of ['XX', 'Britain', '']) {
      const res = await setting({ contacts: { default_country } });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors['contacts.default_country']).toEqual(['Choose a country from the list.']);
    }
    expect(await snapshot(h.t.pool, TABLES)).toEqual(before);
    await expect403(
      h.t,
      TABLES,
      await h.token(h.seed.a.businessUser.email),
      'PUT',
      '/v1/businesses/setting',
      {
        contacts: { default_country: 'US' },
      },
    );
    await setting({ contacts: { default_country: 'US' } });
  });
});

describe('messages settings', () => {
  it('stores the opt-out message, signature and away reply, and refuses a switch on without its text', async () => {
    const res = await setting({
      messages: {
        opt_out_msg: 'Bright Dental: you will get no more texts. Reply START to come back.',
        signature_enabled: true,
        signature: '- Bright Dental',
        away_enabled: false,
        away_message: 'We are closed, we will text you back when we open.',
        away_every_hours: 6,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Messages settings updated successfully.');
    expect(res.json().data.opt_out_msg).toBe(
      'Bright Dental: you will get no more texts. Reply START to come back.',
    );
    const stored = await storedSettings();
    expect(stored.settings.messages).toEqual({
      signature_enabled: true,
      signature: '- Bright Dental',
      away_enabled: false,
      away_message: 'We are closed, we will text you back when we open.',
      away_every_hours: 6,
    });

    const before = await snapshot(h.t.pool, TABLES);
    const bad = [
      [
        { ...MESSAGES_OFF, signature_enabled: true, signature: '  ' },
        'messages.signature',
        'Type the signature, or turn it off.',
      ],
      [
        { ...MESSAGES_OFF, away_enabled: true },
        'messages.away_message',
        'Type the away message, or turn it off.',
      ],
      [{ ...MESSAGES_OFF, away_every_hours: 0 }, 'messages.away_every_hours', null],
      [{ ...MESSAGES_OFF, signature: 'x'.repeat(61) }, 'messages.signature', null],
    ] as const;
    for (const [messages, field, message] of bad) {
      const r = await setting({ messages });
      expect(r.statusCode, JSON.stringify(messages)).toBe(422);
      const errors = r.json().errors[field];
      expect(errors, r.body).toHaveLength(1);
      if (message) expect(errors).toEqual([message]);
    }
    expect(await snapshot(h.t.pool, TABLES)).toEqual(before);
  });

  it('signs texts sent from the inbox, once, and only while the signature is on', async () => {
    const phone = '+14155550601';
    h.sandbox.phones.sendText(phone, openNumber, 'Can I come at 3?');
    await until(async () => (await q('select id from contacts where phone = $1', [phone])).length > 0);
    const [{ id }] = await q('select id from contacts where phone = $1', [phone]);
    const sent = await api('POST', `/v1/chats/contacts/${id}/messages`, { body: 'See you at 3.' });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().data.body).toBe('See you at 3.\n- Bright Dental');
    const again = await api('POST', `/v1/chats/contacts/${id}/messages`, { body: 'Bye\n- Bright Dental' });
    expect(again.json().data.body).toBe('Bye\n- Bright Dental');
    await until(() => textsTo(phone).length >= 2);
    expect(textsTo(phone)).toEqual(['See you at 3.\n- Bright Dental', 'Bye\n- Bright Dental']);

    await setting({ messages: { ...MESSAGES_OFF, signature: '- Bright Dental' } });
    const unsigned = await api('POST', `/v1/chats/contacts/${id}/messages`, { body: 'Plain.' });
    expect(unsigned.json().data.body).toBe('Plain.');
  });

  it('answers STOP with the business’s opt-out message', async () => {
    const phone = '+14155550602';
    h.sandbox.phones.sendText(phone, openNumber, 'STOP');
    await until(() => textsTo(phone).length > 0);
    expect(textsTo(phone)).toEqual(['Bright Dental: you will get no more texts. Reply START to come back.']);
    expect(
      (await q('select opted_out_at from contacts where phone = $1', [phone]))[0].opted_out_at,
    ).not.toBeNull();
  });

  it('answers a text to a closed install once with the away message; an open install, or the reply off, not', async () => {
    const away = 'We are closed now: we will text you back at 8am.';
    const phone = '+14155550603';
    // Off: nothing.
    h.sandbox.phones.sendText(phone, closedNumber, 'Hello?');
    await until(
      async () => (await q('select id from messages where from_number = $1', [phone])).length === 1,
    );
    await h.run(1_000);
    expect(textsTo(phone)).toEqual([]);

    const on = await setting({
      messages: { ...MESSAGES_OFF, away_enabled: true, away_message: away, away_every_hours: 4 },
    });
    expect(on.statusCode, on.body).toBe(200);
    h.sandbox.phones.sendText(phone, closedNumber, 'Anyone there?');
    await until(() => textsTo(phone).length === 1);
    expect(textsTo(phone)).toEqual([away]);
    // A second text within the hours: no second reply.
    h.sandbox.phones.sendText(phone, closedNumber, 'Hello again');
    await until(
      async () => (await q('select id from messages where from_number = $1', [phone])).length === 3,
    );
    await h.run(1_000);
    expect(textsTo(phone)).toEqual([away]);
    // Past the hours, the conversation is answered again.
    await q(
      "update messages set created_at = now() - interval '5 hours' where to_number = $1 and direction = 'out'",
      [phone],
    );
    h.sandbox.phones.sendText(phone, closedNumber, 'Still there?');
    await until(() => textsTo(phone).length === 2);
    expect(textsTo(phone)).toEqual([away, away]);

    // An open install: no away reply.
    const other = '+14155550604';
    h.sandbox.phones.sendText(other, openNumber, 'Open?');
    await until(
      async () => (await q('select id from messages where from_number = $1', [other])).length === 1,
    );
    await h.run(1_000);
    expect(textsTo(other)).toEqual([]);
  });
});
