// The visitor's event stream over real HTTP (the app listening on 127.0.0.1), while the sandbox carrier's
// phones are driven: a callback's progress arrives in order, a page that connects late gets the current
// state first, and an agent's reply from the inbox reaches the stream of the visitor who texted.

import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../../test/helpers.ts';
import { platformSystemContext } from '../../platform/tenancy/context.ts';
import { restoreSandboxNumbers } from '../telephony/service.ts';
import { STAFF_1, STAFF_2, type Telephony, telephonyApp } from '../telephony/testing.ts';
import { STREAMS_PER_ADDRESS, STREAMS_PER_TOKEN } from './events.ts';
import { openStream, SITE, type Stream, visitorOf } from './testing.ts';
import { signToken, TOKEN_TTL_MS } from './token.ts';

let h: Telephony;
let base: string;

const statuses = (s: Stream) =>
  s.events.filter((e) => e.event === 'call').map((e) => (e.data as { status: string }).status);

beforeAll(async () => {
  h = await telephonyApp({ WIDGET_RATE_PER_INSTALL: '100000' });
  await h.t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(h.t.app.server.address() as AddressInfo).port}`;
});
afterAll(() => h?.close());

describe('GET /v1/events', () => {
  it('follows a callback in order: finding, calling_you, connected, completed; a late page sees connected first', async () => {
    const install = await h.install({ calling_type: 'simultaneous' });
    const visitor = '+14155550777';
    const res = await h.callback(install.key, { phone: visitor, name: 'Eve' });
    expect(res.statusCode, res.body).toBe(200);
    const { token, call_id: callId } = res.json().data as { token: string; call_id: number };

    const stream = await openStream(base, install.key, token);
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(stream.headers.get('access-control-allow-origin')).toBe(SITE);
    await stream.until(1);
    expect(stream.events[0]).toEqual({
      event: 'call',
      data: { type: 'call', call_id: callId, status: 'finding' },
    });

    await h.run(1000);
    h.sandbox.phones.answer(STAFF_2);
    await h.run(5000);
    h.sandbox.phones.press(STAFF_2, '1');
    await h.run(2000);
    await stream.until(2);
    expect(statuses(stream)).toEqual(['finding', 'calling_you']);
    expect(h.sandbox.phones.get(STAFF_1).state).toBe('idle');

    h.sandbox.phones.answer(visitor);
    await h.run(3000);
    await stream.until(3);
    expect(statuses(stream)).toEqual(['finding', 'calling_you', 'connected']);

    // A page opened now (another tab, a reload) is told the call is connected, first.
    const late = await openStream(base, install.key, token);
    await late.until(1);
    expect(late.events).toEqual([
      { event: 'call', data: { type: 'call', call_id: callId, status: 'connected' } },
    ]);

    h.sandbox.phones.hangUp(visitor);
    await h.run(2000);
    await stream.until(4);
    await late.until(2);
    expect(statuses(stream)).toEqual(['finding', 'calling_you', 'connected', 'completed']);
    expect(statuses(late)).toEqual(['connected', 'completed']);
    stream.close();
    late.close();
  });

  it('tells the visitor a call nobody takes is missed', async () => {
    const install = await h.install({ timeout: 20 });
    const res = await h.callback(install.key, { phone: '+14155550778' });
    const { token } = res.json().data as { token: string };
    const stream = await openStream(base, install.key, token);
    await stream.until(1);
    await h.run(1000);
    await h.run(30_000);
    await h.run(30_000);
    await stream.until(2);
    expect(statuses(stream)).toEqual(['finding', 'missed']);
    stream.close();
    await h.run(60_000);
  });

  it('carries the agent’s reply from the inbox and its status changes to the visitor who texted', async () => {
    const install = await h.install();
    const [{ phone_number: number }] = (
      await h.t.pool.query('select phone_number from numbers where install_id = $1', [install.id])
    ).rows;
    // The sandbox learns the number, as at start (texts to it reach the product).
    await restoreSandboxNumbers(platformSystemContext(h.t.app.deps, 'job', 'sandbox numbers'));
    const phone = '+14155550779';
    const text = await fetch(`${base}/api/widget/v1/text`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-install-key': install.key, origin: SITE },
      body: JSON.stringify({ phone, message: 'Can I book a cleaning?' }),
    });
    expect(text.status).toBe(200);
    expect(text.headers.get('access-control-allow-origin')).toBe(SITE);
    const { token: unproven } = ((await text.json()) as { data: { token: string } }).data;
    await h.run(3000);
    // The visitor enters the code texted to the phone (ADR 048): the stream then carries the replies.
    const code = /(\d{6}) is your code/.exec(h.sandbox.phones.get(phone).texts[0]?.body ?? '')?.[1];
    const verified = await fetch(`${base}/api/widget/v1/text/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-install-key': install.key, origin: SITE },
      body: JSON.stringify({ token: unproven, code }),
    });
    expect(verified.status).toBe(200);
    const { token } = ((await verified.json()) as { data: { token: string } }).data;

    const stream = await openStream(base, install.key, token);
    const [contact] = (
      await h.t.pool.query('select id from contacts where business_id = $1 and phone = $2', [
        h.seed.a.business.id,
        phone,
      ])
    ).rows;
    const admin = bearer(await h.token(h.seed.a.businessAdmin.email));
    const sent = await h.t.app.inject({
      method: 'POST',
      url: `/api/v1/chats/contacts/${contact.id}/messages`,
      headers: admin,
      payload: { body: 'Sure, Tuesday at 10?' },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const id = sent.json().data.id as number;
    await stream.until(1);
    expect(stream.events[0]).toEqual({
      event: 'message',
      data: {
        type: 'message',
        message: expect.objectContaining({
          id,
          direction: 'out',
          body: 'Sure, Tuesday at 10?',
          status: 'queued',
        }),
      },
    });
    // The carrier delivers it: the visitor's stream hears the status.
    await h.run(5000);
    await stream.until(2);
    const mine = stream.events.filter(
      (e) => e.event === 'message' && (e.data as { message: { id: number } }).message.id === id,
    );
    expect(mine.map((e) => (e.data as { message: { status: string } }).message.status).at(-1)).toBe(
      'delivered',
    );

    // The visitor's SMS answer from the phone shows in the widget too.
    h.sandbox.phones.sendText(phone, number, 'Tuesday works');
    await h.run(1000);
    await stream.until(mine.length + 1);
    expect(
      stream.events.some(
        (e) =>
          e.event === 'message' && (e.data as { message: { body: string } }).message.body === 'Tuesday works',
      ),
    ).toBe(true);
    stream.close();
  });

  it('refuses a bad token with 401 and ends the stream when the token expires', async () => {
    const install = await h.install();
    const bad = await fetch(`${base}/api/widget/v1/events?token=nope&key=${install.key}`);
    expect(bad.status).toBe(401);
    expect(((await bad.json()) as { message: string }).message).toMatch(/not valid/);

    // A token with a second and a half left: the stream says so and ends.
    const soon = signToken(visitorOf(h, install), { contactId: 900_500 }, Date.now() - TOKEN_TTL_MS + 1500);
    const stream = await openStream(base, install.key, soon);
    expect(stream.status).toBe(200);
    const started = Date.now();
    await stream.closed;
    expect(Date.now() - started).toBeLessThan(5000);
    expect(stream.events.map((e) => e.event)).toEqual(['expired']);
  });

  it('bounds open streams per token and per address with a 429, and releases every subscription when pages go away', async () => {
    const install = await h.install();
    const hub = h.t.app.deps.realtime;
    const before = hub.subscriptions();
    const tokenOf = (contactId: number) => signToken(visitorOf(h, install), { contactId });
    const open: Stream[] = [];
    const first = tokenOf(900_001);
    for (let i = 0; i < STREAMS_PER_TOKEN; i++) open.push(await openStream(base, install.key, first));
    expect(open.map((s) => s.status)).toEqual(Array(STREAMS_PER_TOKEN).fill(200));
    const sameToken = await fetch(
      `${base}/api/widget/v1/events?token=${encodeURIComponent(first)}&key=${install.key}`,
      { headers: { origin: SITE } },
    );
    expect(sameToken.status).toBe(429);
    expect(sameToken.headers.get('access-control-allow-origin')).toBe(SITE);
    expect(((await sameToken.json()) as { message: string }).message).toMatch(/Too many live conversations/);

    // Other tokens from the same address, up to the address's bound.
    for (let i = open.length; i < STREAMS_PER_ADDRESS; i++)
      open.push(await openStream(base, install.key, tokenOf(900_100 + i)));
    expect(open.every((s) => s.status === 200)).toBe(true);
    expect(hub.subscriptions()).toBe(before + STREAMS_PER_ADDRESS);
    const over = await openStream(base, install.key, tokenOf(900_999));
    expect(over.status).toBe(429);
    expect(hub.subscriptions()).toBe(before + STREAMS_PER_ADDRESS);

    // The pages go away: every subscription is released and the address may open streams again.
    for (const s of open) s.close();
    await Promise.all(open.map((s) => s.closed));
    const deadline = Date.now() + 5000;
    while (hub.subscriptions() !== before && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    expect(hub.subscriptions()).toBe(before);
    const again = await openStream(base, install.key, first);
    expect(again.status).toBe(200);
    again.close();
  });
});
