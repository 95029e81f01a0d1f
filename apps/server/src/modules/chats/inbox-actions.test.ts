// The inbox API's actions, end to end with the sandbox carrier: start a conversation, send (now, with an
// image, scheduled), cancel, resend, refresh, e-mail, send-ics, block and unblock, edit and delete; role
// checks, cross-tenant 404s, bad input 422 with nothing changed.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addBusinessUser, bearer, expectCrossTenant404, snapshot } from '../../../test/helpers.ts';
import { businessSystemContext, platformSystemContext } from '../../platform/tenancy/context.ts';
import { agencyCarrierAccount } from '../agencies/service.ts';
import { carrierFor } from '../telephony/service.ts';
import { INSTALL_NUMBER, type Telephony, telephonyApp } from '../telephony/testing.ts';
import { settleUnhandedTexts } from './service.ts';

let h: Telephony;
let installA: number;
let installB: number;
let support: { id: number; email: string };
const ANN = '+14155550401';
const ZED = '+14155550499';
let ann: number;
let zed: number;

const PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const TABLES = ['contacts', 'messages', 'conversation_reads', 'mail_outbox'];

const q = async (text: string, values: unknown[] = []) => (await h.t.pool.query(text, values)).rows;
const as = async (email: string) => bearer(await h.token(email));
const admin = () => h.seed.a.businessAdmin.email;
async function send(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: object,
  email = admin(),
) {
  return h.t.app.inject({
    method,
    url: `/api${url}`,
    headers: await as(email),
    ...(payload ? { payload } : {}),
  });
}

beforeAll(async () => {
  h = await telephonyApp(process.env.DEBUG_INBOX ? { LOG_LEVEL: 'error' } : {});
  installA = (await h.install()).id;
  installB = (await h.install({}, { tenant: 'b' })).id;
  support = await addBusinessUser(h.t, h.seed.a.business.id, 'support-actions@a.test', '1');
  const res = await send('POST', `/v1/chats/installs/${installA}/contacts`, {
    phone: ANN,
    name: 'Ann Marie Lee',
  });
  expect(res.statusCode, res.body).toBe(200);
  ann = res.json().data.id;
  const b = await send(
    'POST',
    `/v1/chats/installs/${installB}/contacts`,
    { phone: ZED, name: 'Zed' },
    h.seed.b.businessAdmin.email,
  );
  expect(b.statusCode, b.body).toBe(200);
  zed = b.json().data.id;
});
afterAll(async () => {
  await h?.run(60_000);
  await h?.t.app.close();
  await h?.close();
});

describe('starting a conversation', () => {
  it('creates the contact on the install with its name split', async () => {
    const [row] = await q('select * from contacts where id = $1', [ann]);
    expect(row).toMatchObject({
      phone: ANN,
      first_name: 'Ann Marie',
      last_name: 'Lee',
      install_id: installA,
    });
    const list = await send('GET', `/v1/chats/installs/${installA}/contacts`);
    expect(list.json().data.map((c: { id: number }) => c.id)).toContain(ann);
  });

  it('refuses a bad phone with a 422 and changes nothing (a taken one opens its contact, ADR 052)', async () => {
    const before = await snapshot(h.t.pool, TABLES);
    for (const payload of [{ phone: 'not a phone' }, {}, { phone: '+14155550402', name: 5 }]) {
      const res = await send('POST', `/v1/chats/installs/${installA}/contacts`, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json().success).toBe(false);
    }
    expect(await snapshot(h.t.pool, TABLES)).toEqual(before);
  });

  it('assigns a conversation a sales user starts to that user, so it sees it', async () => {
    const sales = h.seed.a.businessUser;
    const res = await send(
      'POST',
      `/v1/chats/installs/${installA}/contacts`,
      { phone: '+14155550403' },
      sales.email,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.agent_user_id).toBe(sales.id);
    // It does not see Ann's conversation.
    expect((await send('GET', `/v1/chats/contacts/${ann}`, undefined, sales.email)).statusCode).toBe(404);
  });
});

describe('sending', () => {
  it('sends a text and an image through the carrier; the phone receives them and the status moves on', async () => {
    const res = await send('POST', `/v1/chats/contacts/${ann}/messages`, { body: 'Hello Ann' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ direction: 'out', body: 'Hello Ann', to_number: ANN });
    const image = await send('POST', `/v1/chats/contacts/${ann}/messages`, {
      body: 'A picture',
      media: [PNG],
    });
    expect(image.statusCode, image.body).toBe(200);
    expect(image.json().data.media).toHaveLength(1);
    await h.run(30_000);
    const texts = h.sandbox.phones.get(ANN).texts;
    expect(texts.map((t) => t.body)).toEqual(expect.arrayContaining(['Hello Ann', 'A picture']));
    expect(texts[0]?.other).toBe(INSTALL_NUMBER);
    const files = await send('GET', `/v1/chats/contacts/${ann}/files`);
    expect(files.json().data).toHaveLength(1);
    // The uploaded image joins the media library, tied to Ann and to its message.
    const library = await send('GET', `/v1/medias?contact_id=${ann}`);
    expect(library.json().data).toEqual([
      expect.objectContaining({
        url: image.json().data.media[0].url,
        contact_id: ann,
        source: 'message',
      }),
    ]);
    const refresh = await send('POST', `/v1/chats/contacts/${ann}/refresh`);
    expect(refresh.statusCode, refresh.body).toBe(200);
    const [row] = await q('select status from messages where id = $1', [res.json().data.id]);
    expect(row.status).toBe('delivered');
  });

  it('refuses an empty message and bad media with a 422, sending nothing', async () => {
    const before = await snapshot(h.t.pool, TABLES);
    for (const payload of [
      { body: '' },
      {},
      { body: 'x', media: ['https://evil.test/x.png'] },
      { body: 'x'.repeat(1601) },
    ]) {
      const res = await send('POST', `/v1/chats/contacts/${ann}/messages`, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
    }
    expect(await snapshot(h.t.pool, TABLES)).toEqual(before);
  });

  it('schedules a message and cancels it; a second cancel is refused', async () => {
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const res = await send('POST', `/v1/chats/contacts/${ann}/messages`, { body: 'Later', send_at: at });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.status).toBe('scheduled');
    const id = res.json().data.id;
    const history = await send('GET', `/v1/chats/contacts/${ann}/conversations`);
    expect(history.json().data.at(-1).message.id).toBe(id);
    const cancel = await send('POST', `/v1/chats/contacts/${ann}/cancel-schedule`, { message_id: id });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(cancel.json().data.status).toBe('canceled');
    const again = await send('POST', `/v1/chats/contacts/${ann}/cancel-schedule`, { message_id: id });
    expect(again.statusCode).toBe(422);
    expect(
      (await send('POST', `/v1/chats/contacts/${ann}/cancel-schedule`, { message_id: 'x' })).statusCode,
    ).toBe(422);
  });

  it('resends a failed message as a new one, and refuses to resend a delivered one', async () => {
    const res = await send('POST', `/v1/chats/contacts/${ann}/messages`, { body: 'Try me' });
    const id = res.json().data.id;
    await h.run(30_000);
    const delivered = await send('POST', `/v1/chats/contacts/${ann}/resend-messages`, { message_id: id });
    expect(delivered.statusCode).toBe(422);
    await q("update messages set status = 'failed', error_code = 30003 where id = $1", [id]);
    const resent = await send('POST', `/v1/chats/contacts/${ann}/resend-messages`, { message_id: id });
    expect(resent.statusCode, resent.body).toBe(200);
    expect(resent.json().data.id).not.toBe(id);
    expect(resent.json().data.body).toBe('Try me');
  });

  it('a text the carrier took though it answered with a failure is never sent again by a resend', async () => {
    // The carrier takes the text and answers 500 (its answer lost or broken).
    h.sandbox.failCreations(
      'Messages',
      { status: 500, code: 20500, message: 'Internal Server Error', after: true },
      1,
    );
    let res: Awaited<ReturnType<typeof send>>;
    try {
      res = await send('POST', `/v1/chats/contacts/${ann}/messages`, { body: 'Did it go?' });
    } finally {
      h.sandbox.fault = null;
    }
    expect(res.statusCode, res.body).toBe(422);
    const [row] = await q("select id, status, carrier_sid from messages where body = 'Did it go?'");
    expect(row).toMatchObject({ status: 'failed', carrier_sid: null });
    const atCarrier = () => h.sandbox.sentMessages({ to: ANN }).filter((m) => m.body === 'Did it go?');
    expect(atCarrier()).toHaveLength(1);
    // Resend: the carrier is asked first, has it, and nothing is sent again.
    const before = await q('select count(*)::int as n from messages');
    const resent = await send('POST', `/v1/chats/contacts/${ann}/resend-messages`, { message_id: row.id });
    expect(resent.statusCode, resent.body).toBe(422);
    expect(resent.json().message).toBe('The carrier had this text after all: it was not sent again.');
    expect(atCarrier()).toHaveLength(1);
    expect(await q('select count(*)::int as n from messages')).toEqual(before);
    const [after] = await q('select status, carrier_sid, error_code from messages where id = $1', [row.id]);
    expect(after).toMatchObject({ carrier_sid: atCarrier()[0]?.sid, error_code: null });
    expect(after.status).not.toBe('failed');
    // The carrier's news moves it on as any text's.
    await h.run(30_000);
    expect(await q('select status from messages where id = $1', [row.id])).toEqual([{ status: 'delivered' }]);
  });

  it("a text failed with the carrier's answer lost, then its news: shown as the carrier tells", async () => {
    h.sandbox.failCreations('Messages', { status: 502, code: 20500, message: 'Bad Gateway', after: true }, 1);
    try {
      expect(
        (await send('POST', `/v1/chats/contacts/${ann}/messages`, { body: 'Went out?' })).statusCode,
      ).toBe(422);
    } finally {
      h.sandbox.fault = null;
    }
    const [row] = await q("select id, status from messages where body = 'Went out?'");
    expect(row.status).toBe('failed');
    await h.run(30_000);
    const [after] = await q('select status, carrier_sid from messages where id = $1', [row.id]);
    expect(after.status).toBe('delivered');
    expect(after.carrier_sid).toBe(
      h.sandbox.sentMessages({ to: ANN }).find((m) => m.body === 'Went out?')?.sid,
    );
  });

  it('a text a dead process left stored but not handed to the carrier is settled by the sweep', async () => {
    const sent = await send('POST', `/v1/chats/contacts/${ann}/messages`, { body: 'A model' });
    expect(sent.statusCode, sent.body).toBe(200);
    // Rows as a process dying between the text's commit and the carrier's call leaves them: queued, no id.
    const stuck = async (body: string, minutesAgo: number) =>
      (
        await q(
          `insert into messages (agency_id, business_id, contact_id, install_id, direction, body, status,
                                 from_number, to_number, segments, sent_at, created_at, updated_at)
           select agency_id, business_id, contact_id, install_id, 'out', $2, 'queued', from_number, to_number, 1,
                  now() - make_interval(mins => $3), now() - make_interval(mins => $3), now() - make_interval(mins => $3)
             from messages where id = $1 returning id, from_number, to_number`,
          [sent.json().data.id, body, minutesAgo],
        )
      )[0] as { id: number; from_number: string; to_number: string };
    const lost = await stuck('Never left', 20);
    const went = await stuck('Left after all', 20);
    const fresh = await stuck('Still on its way', 1);
    // The carrier took the second one (its answer was never recorded).
    const business = businessSystemContext(
      h.t.app.deps,
      { agencyId: h.seed.a.agency.id, businessId: h.seed.a.business.id },
      'job',
      'test',
    );
    const taken = await (await carrierFor(business)).createMessage({
      to: went.to_number,
      from: went.from_number,
      body: 'Left after all',
    });
    const before = h.sandbox.sentMessages({ to: ANN }).length;
    expect(await settleUnhandedTexts(platformSystemContext(h.t.app.deps, 'job', 'test'))).toBe(2);
    const rows = await q(
      'select id, status, carrier_sid, error_message from messages where id = any($1) order by id',
      [[lost.id, went.id, fresh.id]],
    );
    expect(rows[0]).toMatchObject({
      status: 'failed',
      carrier_sid: null,
      error_message: 'messages.not_handed_over',
    });
    expect(rows[1]).toMatchObject({ carrier_sid: taken.sid, error_message: null });
    expect(rows[1].status).not.toBe('failed');
    expect(rows[2]).toMatchObject({ status: 'queued', carrier_sid: null });
    // Nothing was sent by the sweep; the failed one can be sent again by a person.
    expect(h.sandbox.sentMessages({ to: ANN }).length).toBe(before);
    const resent = await send('POST', `/v1/chats/contacts/${ann}/resend-messages`, { message_id: lost.id });
    expect(resent.statusCode, resent.body).toBe(200);
    await q('delete from messages where id = $1', [fresh.id]);
  });

  it('blocks and unblocks: a blocked contact is never texted', async () => {
    const block = await send('POST', `/v1/chats/contacts/${ann}/block`);
    expect(block.statusCode, block.body).toBe(200);
    expect(block.json().data.blocked).toBe(true);
    const before = await q('select count(*)::int as n from messages');
    const refused = await send('POST', `/v1/chats/contacts/${ann}/messages`, { body: 'Blocked?' });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toMatch(/block/i);
    expect(await q('select count(*)::int as n from messages')).toEqual(before);
    const unblock = await send('POST', `/v1/chats/contacts/${ann}/unblock`);
    expect(unblock.json().data.blocked).toBe(false);
    expect((await send('POST', `/v1/chats/contacts/${ann}/messages`, { body: 'Back' })).statusCode).toBe(200);
  });
});

describe('a text in', () => {
  it('lands in the conversation as unread until the agent opens it', async () => {
    // The sandbox routes a text to the number's SMS webhook once it knows the number (as after a purchase).
    const account = await agencyCarrierAccount(h.t.app.deps, h.seed.a.agency.id);
    if (!account) throw new Error('no carrier account');
    h.sandbox.restoreIncomingNumber(account.accountSid, {
      sid: `PN${crypto.randomBytes(16).toString('hex')}`,
      phoneNumber: INSTALL_NUMBER,
      voiceUrl: 'http://localhost:3000/webhooks/twilio/voice',
      smsUrl: 'http://localhost:3000/webhooks/twilio/sms-in',
    });
    const sent = h.sandbox.phones.sendText(ANN, INSTALL_NUMBER, 'Is Tuesday OK?');
    expect(sent).not.toBeNull();
    await h.run(1000);
    const fresh = await send('GET', `/v1/chats/installs/${installA}/inbox-new`);
    expect(fresh.statusCode, fresh.body).toBe(200);
    const conv = fresh.json().data.find((c: { id: number }) => c.id === ann);
    expect(conv).toMatchObject({ unread: 1, last_message: { body: 'Is Tuesday OK?', direction: 'in' } });
    expect((await send('GET', `/v1/chats/installs/${installA}/inbox`)).json().data[0].id).toBe(ann);
    await send('GET', `/v1/chats/contacts/${ann}`);
    const after = await send('GET', `/v1/chats/installs/${installA}/inbox-new`);
    expect(after.json().data.map((c: { id: number }) => c.id)).not.toContain(ann);
  });
});

describe('e-mail, calendar, edit and delete', () => {
  it('e-mails a contact once it has an address', async () => {
    const none = await send('POST', `/v1/chats/contacts/${ann}/email`, { subject: 'Hi', body: 'Hello' });
    expect(none.statusCode).toBe(422);
    const put = await send('PUT', `/v1/chats/contacts/${ann}`, {
      email: 'ann@example.test',
      name: 'Ann Lee',
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().data).toMatchObject({ first_name: 'Ann', last_name: 'Lee', email: 'ann@example.test' });
    const res = await send('POST', `/v1/chats/contacts/${ann}/email`, {
      subject: 'Your visit',
      body: 'See you',
    });
    expect(res.statusCode, res.body).toBe(200);
    const [mail] = await q('select * from mail_outbox where "to" = $1', ['ann@example.test']);
    expect(mail).toMatchObject({ subject: 'Your visit', text: 'See you', business_id: h.seed.a.business.id });
    const bad = await send('POST', `/v1/chats/contacts/${ann}/email`, { subject: '', body: 'x' });
    expect(bad.statusCode).toBe(422);
    const badEdit = await send('PUT', `/v1/chats/contacts/${ann}`, { email: 'not-an-email' });
    expect(badEdit.statusCode).toBe(422);
  });

  it('sends a calendar invitation: a real .ics file and a text with its link', async () => {
    const res = await send('POST', `/v1/chats/contacts/${ann}/send-ics`, {
      title: 'Cleaning, Dr. Bright',
      start: '2030-01-05T14:00:00Z',
      end: '2030-01-05T15:00:00Z',
      description: 'Bring your card; arrive early',
    });
    expect(res.statusCode, res.body).toBe(200);
    const url: string = res.json().data.ics_file;
    expect(url).toMatch(/\/uploads\/ics\/\d+\/[0-9a-f]{32}\.ics$/);
    const file = await h.t.app.inject({ url: new URL(url).pathname });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toMatch(/text\/calendar/);
    expect(file.body).toContain('BEGIN:VEVENT');
    expect(file.body).toContain('DTSTART:20300105T140000Z');
    expect(file.body).toContain('SUMMARY:Cleaning\\, Dr. Bright');
    expect(res.json().data.message.body).toContain(url);
    const bad = await send('POST', `/v1/chats/contacts/${ann}/send-ics`, {
      title: 'x',
      start: '2030-01-05T15:00:00Z',
      end: '2030-01-05T14:00:00Z',
    });
    expect(bad.statusCode).toBe(422);
  });

  it('deletes the contact: its conversation is gone', async () => {
    const made = await send('POST', `/v1/chats/installs/${installA}/contacts`, { phone: '+14155550409' });
    const id = made.json().data.id;
    const del = await send('DELETE', `/v1/chats/contacts/${id}`);
    expect(del.statusCode, del.body).toBe(200);
    expect((await send('GET', `/v1/chats/contacts/${id}`)).statusCode).toBe(404);
  });
});

describe('access', () => {
  const actions = (id: number): [string, string, object | undefined][] => [
    ['POST', `/v1/chats/contacts/${id}/messages`, { body: 'x' }],
    ['POST', `/v1/chats/contacts/${id}/resend-messages`, { message_id: 1 }],
    ['POST', `/v1/chats/contacts/${id}/cancel-schedule`, { message_id: 1 }],
    ['POST', `/v1/chats/contacts/${id}/refresh`, undefined],
    ['POST', `/v1/chats/contacts/${id}/email`, { subject: 's', body: 'b' }],
    [
      'POST',
      `/v1/chats/contacts/${id}/send-ics`,
      { title: 't', start: '2030-01-05T14:00:00Z', end: '2030-01-05T15:00:00Z' },
    ],
    ['POST', `/v1/chats/contacts/${id}/block`, undefined],
    ['POST', `/v1/chats/contacts/${id}/unblock`, undefined],
    ['PUT', `/v1/chats/contacts/${id}`, { name: 'X' }],
    ['DELETE', `/v1/chats/contacts/${id}`, undefined],
  ];

  it('keeps every action from users without inbox.use', async () => {
    const before = await snapshot(h.t.pool, TABLES);
    for (const [method, url, payload] of actions(ann)) {
      const res = await send(method as 'POST', url, payload, support.email);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
    }
    const start = await send(
      'POST',
      `/v1/chats/installs/${installA}/contacts`,
      { phone: '+14155550410' },
      support.email,
    );
    expect(start.statusCode).toBe(403);
    expect(await snapshot(h.t.pool, TABLES)).toEqual(before);
  });

  it("answers 404 for another tenant's conversation and install, changing nothing", async () => {
    const token = await h.token(admin());
    for (const [method, url, payload] of actions(zed)) {
      if (method === 'DELETE') continue;
      await expectCrossTenant404(h.t, {
        token,
        method: method as 'POST',
        url: `/api${url}`,
        ...(payload ? { payload } : {}),
        control: { method: 'GET', url: `/api/v1/chats/contacts/${ann}` },
        tables: TABLES,
      });
    }
    await expectCrossTenant404(h.t, {
      token,
      method: 'DELETE',
      url: `/api/v1/chats/contacts/${zed}`,
      control: { method: 'GET', url: `/api/v1/chats/contacts/${ann}` },
      tables: TABLES,
    });
    await expectCrossTenant404(h.t, {
      token,
      method: 'POST',
      url: `/api/v1/chats/installs/${installB}/contacts`,
      payload: { phone: '+14155550411' },
      control: { method: 'GET', url: `/api/v1/chats/installs/${installA}/contacts` },
      tables: TABLES,
    });
  });
});
