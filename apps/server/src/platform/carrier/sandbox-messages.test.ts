// The sandbox's record of messages as the broadcasts' engine needs it (issue 19): listing an account's
// messages from one number to another since a time (the production adapter, through the official SDK,
// against the sandbox's REST emulation, paged as Twilio's).
import { beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from './sandbox/clock.ts';
import { type SandboxAccount, TwilioSandbox } from './sandbox/sandbox.ts';

const FROM = '+15550100001';
const OTHER_FROM = '+15550100002';
const TO = '+15557770001';

let clock: ManualClock;
let sandbox: TwilioSandbox;
let account: SandboxAccount;

beforeEach(() => {
  clock = new ManualClock();
  sandbox = new TwilioSandbox({ clock });
  account = sandbox.createAccount({ friendlyName: 'Agency' });
});

describe('listMessages', () => {
  it("lists the account's messages from one number to another since a time, newest first", async () => {
    const carrier = sandbox.carrier(account.sid);
    const early = await carrier.createMessage({ to: TO, from: FROM, body: 'early' });
    await clock.advance(60_000);
    const since = new Date(clock.now());
    const first = await carrier.createMessage({ to: TO, from: FROM, body: 'one' });
    await clock.advance(1_000);
    const second = await carrier.createMessage({ to: TO, from: FROM, body: 'two' });
    // Other senders, other recipients and other accounts are not listed.
    await carrier.createMessage({ to: TO, from: OTHER_FROM, body: 'other number' });
    await carrier.createMessage({ to: '+15557770002', from: FROM, body: 'other recipient' });
    const stranger = sandbox.createAccount();
    await sandbox.carrier(stranger.sid).createMessage({ to: TO, from: FROM, body: 'other account' });

    // Still queued (no time sent yet): listed by when the carrier took it.
    const queued = await carrier.listMessages({ to: TO, from: FROM, sentAfter: since });
    expect(queued.map((m) => m.sid)).toEqual([second.sid, first.sid]);

    await clock.runAll();
    const sent = await carrier.listMessages({ to: TO, from: FROM, sentAfter: since });
    expect(sent.map((m) => [m.sid, m.body, m.status, m.to, m.from])).toEqual([
      [second.sid, 'two', 'delivered', TO, FROM],
      [first.sid, 'one', 'delivered', TO, FROM],
    ]);
    const all = await carrier.listMessages({ to: TO, from: FROM, sentAfter: new Date(0) });
    expect(all.map((m) => m.sid)).toEqual([second.sid, first.sid, early.sid]);
    expect(
      await carrier.listMessages({ to: TO, from: FROM, sentAfter: new Date(clock.now() + 1000) }),
    ).toEqual([]);
  });

  it('pages like Twilio: every page followed, none twice, new messages shift nothing', async () => {
    const carrier = sandbox.carrier(account.sid);
    const sids: string[] = [];
    for (let i = 0; i < 7; i++) {
      sids.push((await carrier.createMessage({ to: TO, from: FROM, body: `m${i}` })).sid);
      await clock.advance(10);
    }
    const pages: string[][] = [];
    let page = await carrier.client.messages.page({ to: TO, from: FROM, pageSize: 3 });
    for (;;) {
      pages.push(page.instances.map((m) => m.sid));
      // A message arriving between pages is newer than all: it does not move the next page.
      if (pages.length === 1) await carrier.createMessage({ to: TO, from: FROM, body: 'late' });
      const next = await page.nextPage();
      if (!next) break;
      page = next as typeof page;
    }
    expect(pages).toEqual([sids.slice(4).reverse(), sids.slice(1, 4).reverse(), [sids[0]]]);
    // The SDK's list() follows the pages itself.
    const listed = await carrier.client.messages.list({ to: TO, from: FROM, pageSize: 2 });
    expect(listed).toHaveLength(8);
  });

  it("refuses another account's credentials", async () => {
    const wrong = sandbox.carrier(account.sid, 'not-the-token');
    await expect(wrong.listMessages({ to: TO, from: FROM, sentAfter: new Date(0) })).rejects.toMatchObject({
      name: 'CarrierError',
      status: 401,
    });
  });
});

describe("the sending number's rate", () => {
  it('takes every message at once and lets them leave at the rate, per number; its record keeps the times', async () => {
    const carrier = sandbox.carrier(account.sid);
    sandbox.setSendingRate(FROM, 1);
    sandbox.setSendingRate(OTHER_FROM, 2);
    const start = clock.now();
    for (let i = 0; i < 3; i++) {
      const m = await carrier.createMessage({ to: `+1555777000${i}`, from: FROM, body: `a${i}` });
      expect(m.status).toBe('queued');
      await carrier.createMessage({ to: `+1555777000${i}`, from: OTHER_FROM, body: `b${i}` });
    }
    // A number without a rate: as before.
    await carrier.createMessage({ to: TO, from: '+15550100003', body: 'free' });
    await clock.advance(1_000);
    const at = (from: string) => sandbox.sentMessages({ from }).map((m) => m.status);
    expect(at(FROM)).toEqual(['sent', 'queued', 'queued']);
    expect(at(OTHER_FROM)).toEqual(['sent', 'sent', 'queued']);
    await clock.runAll();
    const sentAt = (from: string) => sandbox.sentMessages({ from }).map((m) => (m.dateSent ?? 0) - start);
    const created = sandbox.sentMessages({ from: FROM }).map((m) => m.dateCreated - start);
    expect(created).toEqual([0, 0, 0]);
    expect(sentAt(FROM)).toEqual([300, 1300, 2300]);
    expect(sentAt(OTHER_FROM)).toEqual([300, 800, 1300]);
    expect(sentAt('+15550100003')).toEqual([300]);
    expect(sandbox.sentMessages({ from: FROM })).toMatchObject([
      { to: '+15557770000', from: FROM, body: 'a0', status: 'delivered', errorCode: null },
      { to: '+15557770001', body: 'a1' },
      { to: '+15557770002', body: 'a2' },
    ]);
    // The rate holds for messages taken later too: none leaves before the previous one's slot.
    sandbox.setSendingRate(FROM, 0.5);
    const t0 = clock.now();
    await carrier.createMessage({ to: TO, from: FROM, body: 'c0' });
    await carrier.createMessage({ to: TO, from: FROM, body: 'c1' });
    await clock.runAll();
    const late = sandbox.sentMessages({ from: FROM }).slice(3);
    expect(late.map((m) => (m.dateSent ?? 0) - t0)).toEqual([300, 2300]);
    expect(() => sandbox.setSendingRate(FROM, 0)).toThrow(RangeError);
  });
});

describe('failing numbers', () => {
  it('refuses a message to a number made to fail with a refusal code, as Twilio answers it', async () => {
    const carrier = sandbox.carrier(account.sid);
    for (const [code, status] of [
      [21610, 400],
      [21211, 400],
      [21614, 400],
    ] as const) {
      sandbox.failNumber(TO, code);
      await expect(carrier.createMessage({ to: TO, from: FROM, body: `x${code}` })).rejects.toMatchObject({
        name: 'CarrierError',
        code,
        status,
      });
    }
    expect(sandbox.sentMessages()).toEqual([]);
    expect(sandbox.refusedMessages().map((r) => r.code)).toEqual([21610, 21211, 21614]);
    // 21610 means an opt-out to the product.
    sandbox.failNumber(TO, 21610);
    await expect(carrier.createMessage({ to: TO, from: FROM, body: 'y' })).rejects.toMatchObject({
      kind: 'opted-out',
    });
    expect(sandbox.failingNumbers()).toEqual([{ phone: TO, code: 21610 }]);
    sandbox.clearFailingNumber(TO);
    expect(sandbox.failingNumbers()).toEqual([]);
    const ok = await carrier.createMessage({ to: TO, from: FROM, body: 'works again' });
    await clock.runAll();
    expect((await carrier.fetchMessage(ok.sid)).status).toBe('delivered');
  });

  it('accepts a message to a number failing delivery, then reports it undelivered or failed with ErrorCode', async () => {
    const callbacks: Record<string, string>[] = [];
    const s = new TwilioSandbox({
      clock,
      transport: async (_url, _headers, body) => {
        callbacks.push(Object.fromEntries(new URLSearchParams(body)));
        return { status: 200, body: '' };
      },
    });
    const acc = s.createAccount();
    const carrier = s.carrier(acc.sid);
    const phones = ['+15557770003', '+15557770005', '+15557770006', '+15557770007', '+15557770008'];
    const codes = [30003, 30005, 30006, 30007, 30001];
    for (const [i, p] of phones.entries()) s.failNumber(p, codes[i] ?? null);
    const sids: string[] = [];
    for (const to of phones) {
      const m = await carrier.createMessage({
        to,
        from: FROM,
        body: 'hi',
        statusCallback: 'http://x.test/cb',
      });
      expect(m.status).toBe('queued');
      sids.push(m.sid);
    }
    await clock.runAll();
    const fetched = await Promise.all(sids.map((sid) => carrier.fetchMessage(sid)));
    expect(fetched.map((m) => [m.status, m.errorCode])).toEqual([
      ['undelivered', 30003],
      ['undelivered', 30005],
      ['undelivered', 30006],
      ['undelivered', 30007],
      ['failed', 30001],
    ]);
    expect(fetched[3]?.errorMessage).toBe('Message filtered');
    const last = (sid: string) =>
      callbacks.filter((c) => c.MessageSid === sid).map((c) => [c.MessageStatus, c.ErrorCode]);
    expect(last(sids[0] ?? '')).toEqual([
      ['queued', undefined],
      ['sent', undefined],
      ['undelivered', '30003'],
    ]);
    expect(last(sids[4] ?? '')).toEqual([
      ['queued', undefined],
      ['failed', '30001'],
    ]);
    // The phones never got the texts; the record has them with their codes.
    for (const p of phones) expect(s.phones.get(p).texts).toEqual([]);
    expect(s.sentMessages().map((m) => m.errorCode)).toEqual(codes);
    expect(s.sentMessages()[4]?.dateSent).toBeNull();
  });
});

describe("an account's own failing numbers", () => {
  it("fail that account's texts only", async () => {
    const other = sandbox.createAccount();
    sandbox.failNumber(TO, 21610, { accountSid: account.sid });
    await expect(
      sandbox.carrier(account.sid).createMessage({ to: TO, from: FROM, body: 'x' }),
    ).rejects.toMatchObject({ code: 21610 });
    await sandbox.carrier(other.sid).createMessage({ to: TO, from: FROM, body: 'x' });
    expect(sandbox.failingNumbers({ accountSid: account.sid })).toEqual([{ phone: TO, code: 21610 }]);
    expect(sandbox.failingNumbers({ accountSid: other.sid })).toEqual([]);
    expect(sandbox.failingNumbers()).toEqual([]);
    sandbox.clearFailingNumber(TO, { accountSid: account.sid });
    await sandbox.carrier(account.sid).createMessage({ to: TO, from: FROM, body: 'x' });
  });
});
