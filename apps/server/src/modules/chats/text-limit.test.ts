// The text-limit refusal names the agency's support address (spec 000 §8 "Contact us at the agency e-mail
// address"): the address itself, in the caller's language, not the words "the agency e-mail address".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, snapshot } from '../../../test/helpers.ts';
import { type Telephony, telephonyApp } from '../telephony/testing.ts';

let h: Telephony;
let contact: number;
const TABLES = ['messages', 'businesses'];

async function send(url: string, payload: object, headers: Record<string, string> = {}, method = 'POST') {
  return h.t.app.inject({
    method: method as 'POST' | 'PUT',
    url: `/api${url}`,
    headers: { ...bearer(await h.token(h.seed.a.businessAdmin.email)), ...headers },
    payload,
  });
}

beforeAll(async () => {
  h = await telephonyApp();
  const install = (await h.install()).id;
  const res = await send(`/v1/chats/installs/${install}/contacts`, { phone: '+14155550471', name: 'Lim' });
  expect(res.statusCode, res.body).toBe(200);
  contact = res.json().data.id;
  // The business has used every text of its month.
  await h.t.pool.query('update businesses set messages = 5, number_of_messages = 5 where id = $1', [
    h.seed.a.business.id,
  ]);
});
afterAll(async () => {
  await h?.close();
});

describe('the monthly text limit', () => {
  it("refuses a text with a 422 naming the agency's support address, sending nothing", async () => {
    await h.t.pool.query(
      `update agencies set branding = branding || '{"supportEmail": "help@acme-support.test"}' where id = $1`,
      [h.seed.a.agency.id],
    );
    const before = await snapshot(h.t.pool, TABLES);
    const res = await send(`/v1/chats/contacts/${contact}/messages`, { body: 'Over the limit' });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().message).toBe(
      'You have reached your monthly text message limit. Contact us at help@acme-support.test to increase your limit.',
    );
    const es = await send(
      `/v1/chats/contacts/${contact}/messages`,
      { body: 'Over the limit' },
      { 'accept-language': 'es' },
    );
    expect(es.json().message).toContain('help@acme-support.test');
    expect(await snapshot(h.t.pool, TABLES)).toEqual(before);
  });

  it("falls back to the agency's own e-mail when it has no support address", async () => {
    await h.t.pool.query(`update agencies set branding = branding - 'supportEmail' where id = $1`, [
      h.seed.a.agency.id,
    ]);
    const [agency] = (await h.t.pool.query('select email from agencies where id = $1', [h.seed.a.agency.id]))
      .rows;
    const res = await send(`/v1/chats/contacts/${contact}/messages`, { body: 'Over the limit' });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().message).toContain(agency.email ? ` ${agency.email} ` : 'Contact your agency');
    expect(res.json().message).not.toContain('the agency e-mail address');
  });
});
