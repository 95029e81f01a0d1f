// Two visitors on ONE install (issue 18): each visitor token reads, extends and follows only its own
// conversation, proven or not; the other visitor's messages never show, whichever way they are asked for.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../../test/helpers.ts';
import { platformSystemContext } from '../../platform/tenancy/context.ts';
import { restoreSandboxNumbers } from '../telephony/service.ts';
import { type Telephony, telephonyApp } from '../telephony/testing.ts';
import { openStream, SITE } from './testing.ts';

let h: Telephony;
let base: string;

beforeAll(async () => {
  h = await telephonyApp({ WIDGET_RATE_PER_INSTALL: '100000' });
  await h.t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(h.t.app.server.address() as AddressInfo).port}`;
});
afterAll(() => h?.close());

const headers = (key: string) => ({ 'x-install-key': key, origin: SITE });
const post = (key: string, url: string, payload: Record<string, unknown>) =>
  h.t.app.inject({ method: 'POST', url: `/api/widget${url}`, headers: headers(key), payload });
const conversation = async (key: string, token: string) => {
  const res = await h.t.app.inject({
    url: `/api/widget/v1/conversation?token=${encodeURIComponent(token)}`,
    headers: headers(key),
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data.messages as { body: string }[]).map((m) => m.body);
};

/** The business's admin writes to a contact from the inbox. */
async function agentSends(contactId: number, body: string): Promise<void> {
  const sent = await h.t.app.inject({
    method: 'POST',
    url: `/api/v1/chats/contacts/${contactId}/messages`,
    headers: bearer(await h.token(h.seed.a.businessAdmin.email)),
    payload: { body },
  });
  expect(sent.statusCode, sent.body).toBe(200);
}

/** A visitor texts the install from the widget, then enters the code texted to the phone. */
async function visitorTexts(key: string, phone: string, message: string) {
  const res = await post(key, '/v1/text', { phone, message });
  expect(res.statusCode, res.body).toBe(200);
  const unproven = res.json().data.token as string;
  await h.run(3000);
  const code = /(\d{6}) is your code/.exec(h.sandbox.phones.get(phone).texts[0]?.body ?? '')?.[1];
  const verified = await post(key, '/v1/text/verify', { token: unproven, code });
  expect(verified.statusCode, verified.body).toBe(200);
  const [contact] = (
    await h.t.pool.query('select id from contacts where business_id = $1 and phone = $2', [
      h.seed.a.business.id,
      phone,
    ])
  ).rows;
  return { unproven, proven: verified.json().data.token as string, contactId: contact.id as number };
}

describe('two visitors on one install', () => {
  it("each token reads, extends and follows only its own visitor's conversation", async () => {
    const install = await h.install();
    await restoreSandboxNumbers(platformSystemContext(h.t.app.deps, 'job', 'sandbox numbers'));
    const a = await visitorTexts(install.key, '+14155550801', 'A: my tooth hurts');
    const b = await visitorTexts(install.key, '+14155550802', 'B: price of whitening?');
    expect(a.contactId).not.toBe(b.contactId);

    // The business answers each of them from the inbox, A first.
    await agentSends(a.contactId, 'To A: come at 9');
    await agentSends(b.contactId, 'To B: $199');
    // B's stream, opened now, hears B's next reply and nothing of A's.
    const streamB = await openStream(base, install.key, b.proven);
    await agentSends(a.contactId, 'To A: bring your X-rays');
    await agentSends(b.contactId, 'To B: any weekday');
    await streamB.until(1);
    expect(streamB.events[0]?.data).toMatchObject({
      type: 'message',
      message: { body: 'To B: any weekday' },
    });
    streamB.close();

    // B replies with B's token: it lands in B's conversation, not A's.
    const reply = await post(install.key, '/v1/text/reply', { token: b.unproven, message: 'B: thanks' });
    expect(reply.statusCode, reply.body).toBe(200);
    const [landed] = (await h.t.pool.query("select contact_id from messages where body = 'B: thanks'")).rows;
    expect(landed.contact_id).toBe(b.contactId);

    // Proven tokens read the whole of their own conversation and nothing of the other's.
    const readA = await conversation(install.key, a.proven);
    const readB = await conversation(install.key, b.proven);
    expect(readA).toContain('A: my tooth hurts');
    expect(readA).toContain('To A: come at 9');
    expect(readA).toContain('To A: bring your X-rays');
    expect(readA.filter((m) => m.startsWith('B:') || m.startsWith('To B'))).toEqual([]);
    expect(readB).toEqual(expect.arrayContaining(['B: price of whitening?', 'To B: $199', 'B: thanks']));
    expect(readB.filter((m) => m.startsWith('A:') || m.startsWith('To A'))).toEqual([]);
    // Unproven tokens: only what each one typed into the widget.
    expect(await conversation(install.key, a.unproven)).toEqual(['A: my tooth hurts']);
    expect(await conversation(install.key, b.unproven)).toEqual(['B: price of whitening?', 'B: thanks']);
  });
});
