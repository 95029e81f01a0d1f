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
