// Sandbox Phones: a person makes a phone fail the agency's texts with a chosen carrier error code (issue
// 19), for the agency's own sandbox account only; another agency's texts to that phone go through.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../../test/helpers.ts';
import { agencyCarrierAccount } from '../agencies/service.ts';
import { type Telephony, telephonyApp } from './testing.ts';

let h: Telephony;
let aToken: string;
let bToken: string;
const PHONE = '+15557771234';
const FROM = '+15005550006';

beforeAll(async () => {
  h = await telephonyApp();
  aToken = await h.token(h.seed.a.businessAdmin.email);
  bToken = await h.token(h.seed.b.businessAdmin.email);
});
afterAll(() => h?.close());

const path = (n: string) => `/api/v1/sandbox/failing-numbers/${encodeURIComponent(n)}`;
const list = async (token: string) => {
  const res = await h.t.app.inject({ url: '/api/v1/sandbox/failing-numbers', headers: bearer(token) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
};
const carrierOf = async (agencyId: number) => {
  const account = await agencyCarrierAccount(h.t.app.deps, agencyId);
  if (!account) throw new Error('no account');
  return h.t.app.deps.carrier.forAccount(account);
};

describe('failing numbers on the Sandbox Phones API', () => {
  it("makes the agency's texts to a phone fail with the chosen code, and work again", async () => {
    expect(await list(aToken)).toEqual([]);
    const put = await h.t.app.inject({
      method: 'PUT',
      url: path(PHONE),
      headers: bearer(aToken),
      payload: { code: 21610 },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().data).toEqual([{ phone: PHONE, code: 21610 }]);
    expect(await list(aToken)).toEqual([{ phone: PHONE, code: 21610 }]);
    // Another agency's view and texts are its own.
    expect(await list(bToken)).toEqual([]);
    const a = await carrierOf(h.seed.a.agency.id);
    const b = await carrierOf(h.seed.b.agency.id);
    await expect(a.createMessage({ to: PHONE, from: FROM, body: 'hi' })).rejects.toMatchObject({
      code: 21610,
      kind: 'opted-out',
    });
    await expect(b.createMessage({ to: PHONE, from: FROM, body: 'hi' })).resolves.toMatchObject({
      status: 'queued',
    });

    // A delivery error: taken, then undelivered with its code.
    await h.t.app.inject({
      method: 'PUT',
      url: path(PHONE),
      headers: bearer(aToken),
      payload: { code: 30007 },
    });
    const sent = await a.createMessage({ to: PHONE, from: FROM, body: 'hi' });
    await h.run(5_000);
    expect(await a.fetchMessage(sent.sid)).toMatchObject({ status: 'undelivered', errorCode: 30007 });

    const del = await h.t.app.inject({ method: 'DELETE', url: path(PHONE), headers: bearer(aToken) });
    expect(del.statusCode, del.body).toBe(200);
    expect(del.json().data).toEqual([]);
    await expect(a.createMessage({ to: PHONE, from: FROM, body: 'hi' })).resolves.toMatchObject({
      status: 'queued',
    });
  });

  it('refuses a code the sandbox does not play, and what is not a phone', async () => {
    const bad = await h.t.app.inject({
      method: 'PUT',
      url: path(PHONE),
      headers: bearer(aToken),
      payload: { code: 12345 },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('not one of the error codes');
    const notPhone = await h.t.app.inject({
      method: 'PUT',
      url: path('12345'),
      headers: bearer(aToken),
      payload: { code: 21610 },
    });
    expect([400, 422]).toContain(notPhone.statusCode);
    expect(await list(aToken)).toEqual([]);
  });
});
