// The pace of a broadcast on a ManualClock (the sandbox's, which the engine runs on): the throttle per
// sending number holds (the sandbox's own record of when it took each message), and quiet hours defer a
// recipient to 08:00 in their own time zone while one in daytime is sent at once. Time only moves when
// the test advances it, once every worker waits.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../platform/tenancy/context.ts';
import { sleepingWorkers } from './clock.ts';
import { rerunSending, stopSending } from './engine.ts';
import {
  addBroadcast,
  addBroadcaster,
  addContacts,
  addTag,
  type Broadcasts,
  broadcastsApp,
  installWithNumber,
  start,
  statesOf,
  statusOf,
  until,
} from './test-support.ts';

let h: Broadcasts;
let n1: { installId: number; phone: string; numberId: number };
let n2: { installId: number; phone: string; numberId: number };
let b1: number;
let b2: number;

beforeAll(async () => {
  h = await broadcastsApp();
  n1 = await installWithNumber(h);
  n2 = await installWithNumber(h);
  // One message a second from each number.
  b1 = await addBroadcaster(h, n1, 1);
  b2 = await addBroadcaster(h, n2, 1);
});
afterAll(async () => {
  // A worker still waiting on the clock (a failed test) is let go before the app closes.
  for (let i = 0; i < 20 && sleepingWorkers() > 0; i++) await h.clock.advance(3_600_000);
  await h?.close();
});

const taken = (from: string, prefix: string) =>
  h.sandbox.sentMessages({ from }).filter((m) => m.to.startsWith(prefix));

describe('the throttle', () => {
  it('hands the carrier at most one message a second from each number', async () => {
    const t = await addTag(h, 'Throttled');
    await addContacts(h, { count: 8, installId: n1.installId, tagId: t, prefix: '+1415710' });
    const id = await addBroadcast(h, { body: 'Paced', audience: { tag_ids: [t] }, broadcasterIds: [b1, b2] });
    const t0 = h.clock.now();
    await start(h, id);
    // Each number's first message goes at once; then both workers wait for their next slot.
    await until(() => sleepingWorkers() === 2, 20_000, 'both workers waiting');
    expect(taken(n1.phone, '+1415710')).toHaveLength(1);
    expect(taken(n2.phone, '+1415710')).toHaveLength(1);
    for (let i = 0; i < 10 && (await statusOf(h, id)) !== 'completed'; i++) {
      await h.clock.advance(1000);
      await until(
        async () => sleepingWorkers() === 2 || (await statesOf(h, id)).pending === undefined,
        20_000,
        'the workers waiting again',
      );
    }
    await until(async () => (await statusOf(h, id)) === 'completed', 20_000, 'completed');
    for (const n of [n1, n2]) {
      const times = taken(n.phone, '+1415710').map((m) => m.dateCreated);
      expect(times).toHaveLength(4);
      // A second apart exactly: never faster, and no slower than the number allows.
      expect(times.map((at) => at - t0)).toEqual([0, 1000, 2000, 3000]);
    }
    const to = [...taken(n1.phone, '+1415710'), ...taken(n2.phone, '+1415710')].map((m) => m.to);
    expect(new Set(to).size).toBe(8);
  });
});

describe('quiet hours', () => {
  it('defers a recipient at 22:00 local to 08:00 local, and texts one at 10:00 at once', async () => {
    const t = await addTag(h, 'Zones');
    const [bangkok, newYork] = await addContacts(h, {
      count: 2,
      installId: n1.installId,
      tagId: t,
      prefix: '+1415720',
    });
    await h.q("update contacts set time_zone = 'Asia/Bangkok' where id = $1", [bangkok]);
    await h.q("update contacts set time_zone = 'America/New_York' where id = $1", [newYork]);
    // Move the clock to a whole hour: 15:00 UTC is 22:00 in Bangkok and 10:00 in New York (January).
    const hour = 3_600_000;
    const now = h.clock.now();
    const fifteen = Math.ceil((now - 15 * hour) / (24 * hour)) * 24 * hour + 15 * hour;
    await h.clock.advance(fifteen - now);
    expect(new Date(h.clock.now()).toISOString()).toMatch(/T15:00:00/);
    const id = await addBroadcast(h, {
      body: 'Good morning',
      audience: { tag_ids: [t] },
      broadcasterIds: [b1],
    });
    const t0 = h.clock.now();
    await start(h, id);
    await until(() => sleepingWorkers() === 1, 20_000, 'the worker waiting for the morning');
    expect(taken(n1.phone, '+14157200001').map((m) => m.dateCreated)).toEqual([t0]);
    expect(taken(n1.phone, '+14157200000')).toHaveLength(0);
    expect(await statesOf(h, id)).toEqual({ sent: 1, pending: 1 });
    // Nothing before 08:00 in Bangkok (01:00 UTC), then the text at once.
    await h.clock.advance(10 * hour - 1000);
    expect(taken(n1.phone, '+14157200000')).toHaveLength(0);
    await h.clock.advance(1000);
    await until(async () => (await statusOf(h, id)) === 'completed', 20_000, 'completed');
    const [morning] = taken(n1.phone, '+14157200000');
    expect(morning?.dateCreated).toBe(t0 + 10 * hour);
    expect(
      new Intl.DateTimeFormat('en-GB', {
        timeZone: 'Asia/Bangkok',
        hour: '2-digit',
        minute: '2-digit',
      }).format(morning?.dateCreated),
    ).toBe('08:00');
  });
});

describe('quiet hours at send time', () => {
  it('holds a throttled message that would go out after 21:00 until 08:00', async () => {
    const t = await addTag(h, 'Evening');
    const ids = await addContacts(h, { count: 3, installId: n1.installId, tagId: t, prefix: '+1415750' });
    await h.q("update contacts set time_zone = 'UTC' where id = any($1)", [ids]);
    // 20:59:58.5 UTC: two messages fit before 21:00 at one a second, the third does not.
    const hour = 3_600_000;
    const now = h.clock.now();
    const target = Math.ceil((now - 21 * hour + 1500) / (24 * hour)) * 24 * hour + 21 * hour - 1500;
    await h.clock.advance(target - now);
    const id = await addBroadcast(h, { body: 'Evening', audience: { tag_ids: [t] }, broadcasterIds: [b1] });
    await start(h, id);
    for (let i = 0; i < 3; i++) {
      await until(() => sleepingWorkers() === 1, 20_000, 'the worker waiting');
      if (taken(n1.phone, '+1415750').length === 2 && (await statesOf(h, id)).pending === 1) break;
      await h.clock.advance(1000);
    }
    const times = taken(n1.phone, '+1415750').map((m) => new Date(m.dateCreated).toISOString().slice(11, 23));
    expect(times).toEqual(['20:59:58.500', '20:59:59.500']);
    expect(await statesOf(h, id)).toMatchObject({ pending: 1 });
    await h.clock.advance(11 * hour);
    await until(async () => (await statusOf(h, id)) === 'completed', 20_000, 'completed');
    const [last] = taken(n1.phone, '+1415750').slice(2);
    expect(new Date(last?.dateCreated ?? 0).toISOString().slice(11, 23)).toBe('08:00:00.000');
  });
});

describe('stop and rerun', () => {
  it('sends nothing more once stopped, and a rerun sends only to those not sent yet', async () => {
    const t = await addTag(h, 'Stopped');
    await addContacts(h, { count: 4, installId: n1.installId, tagId: t, prefix: '+1415730' });
    const id = await addBroadcast(h, { body: 'Stop me', audience: { tag_ids: [t] }, broadcasterIds: [b1] });
    // The number's last slot (the previous test's) is past.
    await h.clock.advance(5000);
    await start(h, id);
    await until(() => sleepingWorkers() === 1, 20_000, 'the worker waiting for its next slot');
    expect(taken(n1.phone, '+1415730')).toHaveLength(1);
    await inTransaction(h.ctx, (tx) => stopSending(tx, { broadcastId: id }));
    await h.clock.advance(1000);
    await until(() => sleepingWorkers() === 0, 20_000, 'the worker gone');
    await h.clock.advance(5000);
    expect(taken(n1.phone, '+1415730')).toHaveLength(1);
    expect(await statusOf(h, id)).toBe('stopped');
    expect(await statesOf(h, id)).toEqual({ delivered: 1, pending: 3 });
    await inTransaction(h.ctx, (tx) => rerunSending(tx, { broadcastId: id, includeNew: false }));
    for (let i = 0; i < 10 && (await statusOf(h, id)) !== 'completed'; i++) {
      await until(
        async () => sleepingWorkers() === 1 || (await statusOf(h, id)) === 'completed',
        20_000,
        'the worker waiting',
      );
      await h.clock.advance(1000);
    }
    await until(async () => (await statusOf(h, id)) === 'completed', 20_000, 'completed');
    const to = taken(n1.phone, '+1415730').map((m) => m.to);
    expect(to).toHaveLength(4);
    expect(new Set(to).size).toBe(4);
  });
});

describe('while it sends', () => {
  it('skips a contact opted out or blacklisted after the start', async () => {
    await h.clock.advance(5000);
    const t = await addTag(h, 'Changed');
    const [, , third, fourth] = await addContacts(h, {
      count: 4,
      installId: n1.installId,
      tagId: t,
      prefix: '+1415740',
    });
    const id = await addBroadcast(h, { body: 'Changes', audience: { tag_ids: [t] }, broadcasterIds: [b1] });
    await start(h, id);
    await until(() => sleepingWorkers() === 1, 20_000, 'the worker waiting for its next slot');
    // The first two are claimed (one sent); the other two change their minds before their turn.
    await h.q('update contacts set opted_out_at = now() where id = $1', [third]);
    await h.q(
      "insert into phone_lists (list, agency_id, business_id, phone) select 'blacklist', agency_id, business_id, phone from contacts where id = $1",
      [fourth],
    );
    for (let i = 0; i < 10 && (await statusOf(h, id)) !== 'completed'; i++) {
      await h.clock.advance(1000);
      await until(
        async () => sleepingWorkers() === 1 || (await statusOf(h, id)) === 'completed',
        20_000,
        'the worker waiting',
      );
    }
    expect(await statusOf(h, id)).toBe('completed');
    expect(taken(n1.phone, '+1415740').map((m) => m.to)).toEqual(['+14157400000', '+14157400001']);
    const skipped = await h.q<{ phone: string; skip_reason: string }>(
      "select phone, skip_reason from broadcast_recipients where broadcast_id = $1 and state = 'skipped' order by phone",
      [id],
    );
    expect(skipped).toEqual([
      { phone: '+14157400002', skip_reason: 'opted_out' },
      { phone: '+14157400003', skip_reason: 'blacklisted' },
    ]);
  });
});
