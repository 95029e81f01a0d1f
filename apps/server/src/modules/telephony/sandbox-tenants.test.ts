// The sandbox phones belong to each agency's sandbox account (ADR 030, 051): two agencies on the sandbox,
// the same staff phone number in both. Neither sees, hides, answers or hangs up the other's call, and no
// business plays another tenant's purchased number.

import type { TSandboxPhone } from '@stn/contracts/telephony';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../../test/helpers.ts';
import { platformSystemContext } from '../../platform/tenancy/context.ts';
import { agencyCarrierAccount } from '../agencies/service.ts';
import { sandboxNumberSid } from './sandbox-restore.ts';
import { restoreSandboxNumbers } from './service.ts';
import { STAFF_1, STAFF_2, type Telephony, telephonyApp } from './testing.ts';

let h: Telephony;
let aToken: string;
let bToken: string;
let aKey: string;
let bInstall: number;
const A_NUMBER = '+15005550006';
const B_NUMBER = '+15005550861';

beforeAll(async () => {
  h = await telephonyApp();
  aToken = await h.token(h.seed.a.businessAdmin.email);
  bToken = await h.token(h.seed.b.businessAdmin.email);
  aKey = (await h.install({}, { number: A_NUMBER })).key;
  // Business B (another agency) lists agency A's staff phone as one of its own.
  bInstall = (
    await h.install(
      { phoneAgents: [{ name: 'Mine now', phone: STAFF_1 }] },
      { tenant: 'b', number: B_NUMBER },
    )
  ).id;
  // The sandbox answers for both purchased numbers, as after a start.
  await restoreSandboxNumbers(platformSystemContext(h.t.app.deps, 'job', 'sandbox numbers'));
});
afterAll(() => h?.close());

const list = async (token: string) => {
  const res = await h.t.app.inject({ url: '/api/v1/sandbox/phones', headers: bearer(token) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as TSandboxPhone[];
};
const view = async (token: string, number: string) => (await list(token)).find((p) => p.number === number);
const act = (token: string, number: string, action: string, payload: object = {}) =>
  h.t.app.inject({
    method: 'POST',
    url: `/api/v1/sandbox/phones/${encodeURIComponent(number)}/${action}`,
    headers: bearer(token),
    payload,
  });
const legOf = async (visitor: string) =>
  (
    await h.t.pool.query(
      `select l.status from call_legs l join calls c on c.id = l.call_id
        where c.visitor_phone = $1 and l.role = 'staff' and l.to_number = $2`,
      [visitor, STAFF_1],
    )
  ).rows[0]?.status;

describe('sandbox phones per agency sandbox account', () => {
  it("another tenant's ringing call on the same number is neither shown, hidden nor answered", async () => {
    const aVisitor = '+14155550401';
    const bVisitor = '+14155550402';
    const asked = await h.callback(aKey, { phone: aVisitor });
    expect(asked.statusCode, asked.body).toBe(200);
    await h.run(1000);
    expect((await view(aToken, STAFF_1))?.state).toBe('ringing');

    // B lists the number as its staff phone: it sees it idle, and cannot answer A's call on it.
    const bSees = await view(bToken, STAFF_1);
    expect(bSees).toMatchObject({ state: 'idle', call: null });
    expect((await act(bToken, STAFF_1, 'answer')).statusCode).toBe(409);
    expect((await act(bToken, STAFF_1, 'hangup')).statusCode).toBe(409);

    // B's own callback rings the number too: A still sees (and answers) its own call, not B's.
    const bAsked = await h.t.app.inject({
      method: 'POST',
      url: '/api/v1/sandbox/callback',
      headers: bearer(bToken),
      payload: { install_id: bInstall, phone: bVisitor },
    });
    expect(bAsked.statusCode, bAsked.body).toBe(200);
    await h.run(1000);
    const aView = await view(aToken, STAFF_1);
    expect(aView?.state).toBe('ringing');
    expect(aView?.call?.from).toBe(A_NUMBER);
    const bView = await view(bToken, STAFF_1);
    expect(bView?.state).toBe('ringing');
    expect(bView?.call?.from).toBe(B_NUMBER);

    const answered = await act(aToken, STAFF_1, 'answer');
    expect(answered.statusCode, answered.body).toBe(200);
    await h.run(500);
    expect(await legOf(aVisitor)).toBe('in-progress');
    // B's leg is still unanswered: "Calling" (legs ask for no ringing event, ADR 125).
    expect(await legOf(bVisitor)).toBe('queued');
    // B's answer takes B's call, never A's (which A is already in).
    expect((await act(bToken, STAFF_1, 'answer')).statusCode).toBe(200);
    await h.run(500);
    expect(await legOf(bVisitor)).toBe('in-progress');
    expect((await view(aToken, STAFF_1))?.call?.from).toBe(A_NUMBER);

    await act(aToken, STAFF_1, 'hangup');
    await act(bToken, STAFF_1, 'hangup');
    h.sandbox.phones.reject(STAFF_2);
    await h.run(60_000);
    expect(await legOf(aVisitor)).toBe('completed');
    expect(await legOf(bVisitor)).toBe('completed');
  });

  it("a business cannot make another tenant's purchased number (or its own) text or call", async () => {
    for (const from of [A_NUMBER, B_NUMBER]) {
      const text = await act(bToken, from, 'texts', { to: B_NUMBER, body: 'Hi from a number' });
      expect(text.statusCode, text.body).toBe(404);
      const dial = await act(bToken, from, 'dial', { to: B_NUMBER });
      expect(dial.statusCode, dial.body).toBe(404);
    }
    const texts = await h.t.pool.query(
      "select count(*)::int as n from messages where body = 'Hi from a number'",
    );
    expect(texts.rows[0].n).toBe(0);
  });

  it('a number that moved to another tenant does not show the texts of its earlier holder', async () => {
    const recycled = '+15005550872';
    const visitor = '+14155550471';
    await h.install({}, { number: recycled });
    await restoreSandboxNumbers(platformSystemContext(h.t.app.deps, 'job', 'sandbox numbers'));
    h.sandbox.phones.sendText(visitor, recycled, 'Private note for A');
    await h.run(2000);
    expect((await view(aToken, visitor))?.texts.map((t) => t.body)).toEqual(['Private note for A']);

    // A releases the number (in the database and at the carrier); B gets it.
    const [row] = (
      await h.t.pool.query('update numbers set released_at = now() where phone_number = $1 returning *', [
        recycled,
      ])
    ).rows;
    const account = await agencyCarrierAccount(h.t.app.deps, h.seed.a.agency.id);
    if (!account) throw new Error('agency A has no sandbox account');
    await h.t.app.deps.carrier.forAccount(account).releaseNumber(sandboxNumberSid(row));
    await h.install({}, { tenant: 'b', number: recycled });
    await restoreSandboxNumbers(platformSystemContext(h.t.app.deps, 'job', 'sandbox numbers'));
    expect((await view(bToken, visitor))?.texts ?? []).toEqual([]);

    // What the phone texts the number now is B's, and A's earlier text stays A's alone.
    h.sandbox.phones.sendText(visitor, recycled, 'Hello B');
    await h.run(2000);
    expect((await view(bToken, visitor))?.texts.map((t) => t.body)).toEqual(['Hello B']);
    expect((await view(aToken, visitor))?.texts.map((t) => t.body)).toEqual(['Private note for A']);
  });
});
