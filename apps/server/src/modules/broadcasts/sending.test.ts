// The broadcasts engine end to end on the sandbox carrier (throttle off here; throttle and quiet hours have
// their own files): who is skipped and why, the snapshot, one message to each eligible recipient as the
// sandbox records it, the conversation's messages, delivery from the status callbacks, carrier errors per
// recipient, the monthly messages, stop and rerun.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSocket } from '../../../test/helpers.ts';
import { inTransaction } from '../../platform/tenancy/context.ts';
import { sleepingWorkers } from './clock.ts';
import { broadcastCounts, countAudience, refreshStatuses, rerunSending, stopSending } from './engine.ts';
import {
  addBroadcast,
  addBroadcaster,
  addContacts,
  addTag,
  type Broadcasts,
  broadcastsApp,
  installWithNumber,
  sandboxSent,
  start,
  statesOf,
  statusOf,
  until,
} from './test-support.ts';

let h: Broadcasts;
let tag: number;
let other: number;
let n1: { installId: number; phone: string; numberId: number };

beforeAll(async () => {
  h = await broadcastsApp({ BROADCAST_THROTTLE: 'off' });
  n1 = await installWithNumber(h);
  tag = await addTag(h, 'Customers');
  other = await addTag(h, 'Staff');
});
afterAll(() => h?.close());

describe('the audience', () => {
  it('counts the eligible and the skipped by reason', async () => {
    const ids = await addContacts(h, { count: 10, installId: n1.installId, tagId: tag, prefix: '+1415700' });
    const [optedOut, blocked, black, white, excluded] = ids as [number, number, number, number, number];
    await h.q('update contacts set opted_out_at = now() where id = $1', [optedOut]);
    await h.q('update contacts set blocked_at = now() where id = $1', [blocked]);
    const phoneOf = async (id: number) =>
      (
        (await h.q<{ phone: string }>('select phone from contacts where id = $1', [id]))[0] as {
          phone: string;
        }
      ).phone;
    for (const [list, id] of [
      ['blacklist', black],
      ['blacklist', white],
      ['whitelist', white],
    ] as const)
      await h.q('insert into phone_lists (list, agency_id, business_id, phone) values ($1, $2, $3, $4)', [
        list,
        h.seed.a.agency.id,
        h.seed.a.business.id,
        await phoneOf(id),
      ]);
    await h.q('insert into contact_tags (contact_id, tag_id) values ($1, $2)', [excluded, other]);
    // A premium-rate number is never texted (the reach rule); a contact of no install has no number.
    const [premium] = await addContacts(h, {
      count: 1,
      installId: n1.installId,
      tagId: tag,
      prefix: '+1900234',
    });
    await addContacts(h, { count: 2, installId: null, tagId: tag, prefix: '+1415701' });
    const count = await countAudience(h.ctx, {
      tag_ids: [tag],
      exclude_tag_ids: [other],
      install_ids: [],
      contact_ids: [],
    });
    expect(premium).toBeGreaterThan(0);
    expect(count).toEqual({
      recipients: 6,
      skipped: 6,
      reasons: { opted_out: 1, blocked: 1, blacklisted: 1, unreachable: 1, no_number: 2 },
    });
    // Picked contacts join the audience; an install limits the tag's.
    const picked = await countAudience(h.ctx, {
      tag_ids: [],
      exclude_tag_ids: [],
      install_ids: [],
      contact_ids: [excluded, optedOut],
    });
    expect(picked).toEqual({ recipients: 1, skipped: 1, reasons: { opted_out: 1 } });
    // With a broadcaster, a contact of no install is sent from it.
    const b = await addBroadcaster(h, n1);
    const withSender = await countAudience(h.ctx, {
      tag_ids: [tag],
      exclude_tag_ids: [other],
      install_ids: [],
      contact_ids: [],
    });
    expect(withSender.recipients).toBe(8);
    await h.q('delete from broadcasters where id = $1', [b]);
  });
});

describe('sending', () => {
  it('sends each eligible recipient one message, writes the conversation and follows delivery', async () => {
    const t = await addTag(h, 'Sale');
    const ids = await addContacts(h, { count: 40, installId: n1.installId, tagId: t, prefix: '+1415702' });
    await h.q('update contacts set opted_out_at = now() where id = $1', [ids[0]]);
    const id = await addBroadcast(h, {
      body: 'Hi {first_name|friend}, 20% off today',
      audience: { tag_ids: [t] },
    });
    const before = sandboxSent(h).length;
    await start(h, id);
    expect(await statusOf(h, id)).toBe('sending');
    await until(async () => (await statusOf(h, id)) === 'completed', 20_000, 'completed');
    const sent = sandboxSent(h).slice(before);
    expect(sent).toHaveLength(39);
    expect(new Set(sent.map((m) => m.to)).size).toBe(39);
    expect(sent.every((m) => m.from === n1.phone)).toBe(true);
    expect(sent.find((m) => m.to === '+14157020001')?.body).toBe('Hi Ann1, 20% off today');
    // The conversation's messages, marked with the broadcast, with the carrier's sid.
    const msgs = await h.q<{ n: number; sids: number }>(
      `select count(*)::int as n, count(carrier_sid)::int as sids from messages
        where broadcast_id = $1 and direction = 'out'`,
      [id],
    );
    expect(msgs[0]).toEqual({ n: 39, sids: 39 });
    expect(await statesOf(h, id)).toEqual({ sent: 39, skipped: 1 });
    // The sandbox delivers: each recipient follows its text's status.
    await h.run(2000);
    await until(async () => (await statesOf(h, id)).delivered === 39, 10_000, 'delivered');
    const counts = (await broadcastCounts(h.ctx, [id])).get(id);
    expect(counts).toMatchObject({ total: 40, sent: 39, delivered: 39, skipped: 1, pending: 0, failed: 0 });
    expect(counts?.credits_used).toBe(39);
  });

  it('records carrier errors per recipient and sends the rest; 21610 opts the contact out', async () => {
    const t = await addTag(h, 'Errors');
    await addContacts(h, { count: 12, installId: n1.installId, tagId: t, prefix: '+1415703' });
    const id = await addBroadcast(h, { body: 'Hello', audience: { tag_ids: [t] } });
    // The sandbox fails chosen numbers: two refused at create, one accepted then reported undelivered.
    h.sandbox.failNumber('+14157030002', 21610);
    h.sandbox.failNumber('+14157030005', 21211);
    h.sandbox.failNumber('+14157030008', 30007);
    try {
      await start(h, id);
      await until(async () => (await statusOf(h, id)) === 'completed', 20_000, 'completed');
      await h.run(2000);
      await until(async () => (await statesOf(h, id)).failed === 3, 10_000, 'the undelivered one failed');
    } finally {
      for (const p of ['+14157030002', '+14157030005', '+14157030008']) h.sandbox.failNumber(p, null);
    }
    expect(await statesOf(h, id)).toEqual({ delivered: 9, failed: 3 });
    // The sandbox's own record: the refused two never left, every other number got exactly one message.
    const record = h.sandbox.sentMessages({ from: n1.phone }).filter((m) => m.to.startsWith('+1415703'));
    expect(record.map((m) => m.to).sort()).toEqual(
      Array.from({ length: 12 }, (_, i) => `+1415703${String(i).padStart(4, '0')}`).filter(
        (p) => p !== '+14157030002' && p !== '+14157030005',
      ),
    );
    const failed = await h.q<{ phone: string; error_code: number; opted: boolean; status: string }>(
      `select r.phone, r.error_code, c.opted_out_at is not null as opted, m.status
         from broadcast_recipients r join contacts c on c.id = r.contact_id join messages m on m.id = r.message_id
        where r.broadcast_id = $1 and r.state = 'failed' order by r.phone`,
      [id],
    );
    expect(failed).toEqual([
      { phone: '+14157030002', error_code: 21610, opted: true, status: 'failed' },
      { phone: '+14157030005', error_code: 21211, opted: false, status: 'failed' },
      { phone: '+14157030008', error_code: 30007, opted: false, status: 'undelivered' },
    ]);
  });

  it('asks the carrier after it failed, and sends again only what it does not have, once', async () => {
    const t = await addTag(h, 'Outage');
    await addContacts(h, { count: 5, installId: n1.installId, tagId: t, prefix: '+1415709' });
    const id = await addBroadcast(h, { body: 'After the outage', audience: { tag_ids: [t] } });
    // The carrier answers 503 to the first two sends, without taking them.
    h.sandbox.failCreations('Messages', { status: 503, code: 20500, message: 'Service unavailable' }, 2);
    try {
      await start(h, id);
      await until(async () => (await statesOf(h, id)).sent === 3, 20_000, 'the others sent');
      await until(() => sleepingWorkers() === 1, 20_000, 'the worker waiting to ask the carrier');
    } finally {
      h.sandbox.fault = null;
    }
    // The two wait, claimed: the carrier may have them.
    expect(await statesOf(h, id)).toEqual({ sent: 3, sending: 2 });
    await h.clock.advance(30_000);
    await until(async () => (await statusOf(h, id)) === 'completed', 20_000, 'completed');
    const to = sandboxSent(h)
      .filter((m) => m.to.startsWith('+1415709'))
      .map((m) => m.to);
    expect(to).toHaveLength(5);
    expect(new Set(to).size).toBe(5);
  });

  it('pauses while the carrier fails a whole batch, then sends everyone once', async () => {
    const t = await addTag(h, 'Carrier down');
    await addContacts(h, { count: 30, installId: n1.installId, tagId: t, prefix: '+1415729' });
    const id = await addBroadcast(h, { body: 'Down and up', audience: { tag_ids: [t] } });
    let asked = 0;
    h.sandbox.fault = ({ method, path }) => {
      if (method !== 'POST' || !path.endsWith('/Messages.json')) return undefined;
      asked++;
      return { status: 503, code: 20500, message: 'Service unavailable' };
    };
    try {
      await start(h, id);
      await until(() => sleepingWorkers() === 1, 20_000, 'the worker waiting for the carrier');
    } finally {
      h.sandbox.fault = null;
    }
    // The first batch (20) failed whole: the other ten were not tried in the outage.
    expect(asked).toBe(20);
    expect(await statesOf(h, id)).toEqual({ sending: 20, pending: 10 });
    await h.clock.advance(30_000);
    await until(async () => (await statusOf(h, id)) === 'completed', 20_000, 'completed');
    const to = sandboxSent(h)
      .filter((m) => m.to.startsWith('+1415729'))
      .map((m) => m.to);
    expect(to).toHaveLength(30);
    expect(new Set(to).size).toBe(30);
  });

  it('never sends twice a text the carrier took but answered with a failure', async () => {
    const t = await addTag(h, 'Lost answer');
    await addContacts(h, { count: 5, installId: n1.installId, tagId: t, prefix: '+1415719' });
    const id = await addBroadcast(h, { body: 'Once only', audience: { tag_ids: [t] } });
    // The carrier takes the first two texts and then fails its answer (a 500 after the work).
    h.sandbox.failCreations(
      'Messages',
      { status: 500, code: 20500, message: 'Internal Server Error', after: true },
      2,
    );
    try {
      await start(h, id);
      await until(async () => (await statesOf(h, id)).sent === 3, 20_000, 'the others sent');
      await until(() => sleepingWorkers() === 1, 20_000, 'the worker waiting to ask the carrier');
    } finally {
      h.sandbox.fault = null;
    }
    await h.clock.advance(30_000);
    await until(async () => (await statusOf(h, id)) === 'completed', 20_000, 'completed');
    const sent = sandboxSent(h).filter((m) => m.to.startsWith('+1415719'));
    expect(sent.map((m) => m.to).sort()).toEqual([...new Set(sent.map((m) => m.to))].sort());
    expect(sent).toHaveLength(5);
    // The two the carrier had are recorded with its ids, as the others.
    const sids = await h.q<{ carrier_sid: string | null }>(
      'select carrier_sid from broadcast_recipients where broadcast_id = $1 order by id',
      [id],
    );
    expect(sids.map((r) => r.carrier_sid).sort()).toEqual(sent.map((m) => m.sid).sort());
  });

  it('fails a broadcast none of whose messages could be sent', async () => {
    const t = await addTag(h, 'Invalid');
    await addContacts(h, { count: 2, installId: n1.installId, tagId: t, prefix: '+1415711' });
    h.sandbox.failNumber('+14157110000', 21211);
    h.sandbox.failNumber('+14157110001', 21614);
    try {
      const id = await addBroadcast(h, { body: 'Nobody', audience: { tag_ids: [t] } });
      await start(h, id);
      await until(async () => (await statusOf(h, id)) !== 'sending', 20_000, 'finished');
      expect(await statusOf(h, id)).toBe('failed');
      expect(await h.q('select failure from broadcasts where id = $1', [id])).toEqual([
        { failure: 'broadcasts.nothing_sent' },
      ]);
      expect((await broadcastCounts(h.ctx, [id])).get(id)).toMatchObject({ failed: 2, credits_used: 0 });
    } finally {
      h.sandbox.failNumber('+14157110000', null);
      h.sandbox.failNumber('+14157110001', null);
    }
  });

  it('refuses what does not fit the monthly messages, and an audience with no one to send to', async () => {
    const t = await addTag(h, 'Big');
    await addContacts(h, { count: 5, installId: n1.installId, tagId: t, prefix: '+1415704' });
    const id = await addBroadcast(h, { body: 'Hello', audience: { tag_ids: [t] } });
    await h.q('update businesses set messages = number_of_messages + 4 where id = $1', [
      h.seed.a.business.id,
    ]);
    await expect(start(h, id)).rejects.toMatchObject({ message: 'broadcasts.credits_exceeded' });
    await h.q('update businesses set messages = 0 where id = $1', [h.seed.a.business.id]);
    expect(await statusOf(h, id)).toBe('draft');
    expect(await statesOf(h, id)).toEqual({});
    const none = await addBroadcast(h, { body: 'Hello', audience: { tag_ids: [await addTag(h, 'Nobody')] } });
    await expect(start(h, none)).rejects.toMatchObject({ message: 'broadcasts.no_recipients' });
  });

  it('refuses to stop a completed broadcast, and reruns only its failed recipients', async () => {
    const t = await addTag(h, 'Rerun');
    await addContacts(h, { count: 6, installId: n1.installId, tagId: t, prefix: '+1415705' });
    const id = await addBroadcast(h, { body: 'Again', audience: { tag_ids: [t] } });
    h.sandbox.failNumber('+14157050001', 21612);
    h.sandbox.failNumber('+14157050003', 21612);
    await start(h, id);
    await until(async () => (await statusOf(h, id)) === 'completed', 20_000, 'completed');
    expect(await statesOf(h, id)).toEqual({ sent: 4, failed: 2 });
    h.sandbox.failNumber('+14157050001', null);
    h.sandbox.failNumber('+14157050003', null);
    await expect(inTransaction(h.ctx, (tx) => stopSending(tx, { broadcastId: id }))).rejects.toMatchObject({
      message: 'broadcasts.not_running',
    });
    const before = sandboxSent(h).length;
    await inTransaction(h.ctx, (tx) => rerunSending(tx, { broadcastId: id, includeNew: false }));
    await until(async () => (await statusOf(h, id)) === 'completed', 20_000, 'completed again');
    expect(await statesOf(h, id)).toEqual({ sent: 6 });
    expect(sandboxSent(h).length - before).toBe(2);
    expect(h.sandbox.sentMessages({ to: '+14157050001' })).toHaveLength(1);
  });

  it('reruns with new members of the audience, sending only to them and the failed', async () => {
    const t = await addTag(h, 'Grows');
    await addContacts(h, { count: 3, installId: n1.installId, tagId: t, prefix: '+1415706' });
    const id = await addBroadcast(h, { body: 'Hello again', audience: { tag_ids: [t] } });
    await start(h, id);
    await until(async () => (await statusOf(h, id)) === 'completed', 20_000, 'completed');
    await addContacts(h, { count: 2, first: 3, installId: n1.installId, tagId: t, prefix: '+1415706' });
    const before = sandboxSent(h).length;
    await inTransaction(h.ctx, (tx) => rerunSending(tx, { broadcastId: id, includeNew: true }));
    await until(async () => (await statusOf(h, id)) === 'completed', 20_000, 'completed again');
    expect(
      sandboxSent(h)
        .slice(before)
        .map((m) => m.to)
        .sort(),
    ).toEqual(['+14157060003', '+14157060004']);
    expect(await statesOf(h, id)).toEqual({ sent: 5 });
  });

  it('starts a scheduled broadcast at its time', async () => {
    const t = await addTag(h, 'Later');
    await addContacts(h, { count: 2, installId: n1.installId, tagId: t, prefix: '+1415707' });
    const id = await addBroadcast(h, { body: 'Scheduled', audience: { tag_ids: [t] } });
    // In a second and a half (the start job waits as long on the wall clock).
    const at = new Date(h.clock.now() + 1500);
    await start(h, id, at);
    expect(await statusOf(h, id)).toBe('scheduled');
    expect(await statesOf(h, id)).toEqual({});
    await until(async () => (await statusOf(h, id)) === 'completed', 20_000, 'completed');
    expect(await statesOf(h, id)).toEqual({ sent: 2 });
  });
});

describe('progress and statuses', () => {
  it('tells the business its progress on /ws, and refreshes statuses from the carrier', async () => {
    await h.t.app.listen({ host: '127.0.0.1', port: 0 });
    const { ws, got } = await openSocket(h.t.app, await h.token(h.seed.a.businessAdmin.email));
    try {
      const t = await addTag(h, 'Live');
      await addContacts(h, { count: 5, installId: n1.installId, tagId: t, prefix: '+1415708' });
      const id = await addBroadcast(h, { body: 'Live', audience: { tag_ids: [t] } });
      await start(h, id);
      const progress = () => got.filter((m) => m.type === 'broadcast_progress' && m.data?.id === id);
      await until(
        () => progress().some((m) => m.data?.status === 'completed'),
        20_000,
        'a completed progress event',
      );
      expect(progress().at(-1)?.data).toMatchObject({
        id,
        status: 'completed',
        counts: { total: 5, sent: 5, pending: 0 },
      });
      // The status callbacks are lost (the sandbox's time is not run): a refresh reads them from the carrier.
      const sandboxTime = h.clock.now();
      for (const m of h.sandbox.sentMessages({ from: n1.phone }).filter((x) => x.to.startsWith('+1415708'))) {
        const msg = h.sandbox.messages.get(m.sid);
        if (msg) msg.status = 'delivered';
      }
      expect(await refreshStatuses(h.ctx, { broadcastId: id })).toEqual({ updated: 5 });
      expect(await statesOf(h, id)).toEqual({ delivered: 5 });
      expect(h.clock.now()).toBe(sandboxTime);
      await until(
        () => progress().some((m) => (m.data?.counts as { delivered?: number })?.delivered === 5),
        10_000,
        'the delivered counts on /ws',
      );
    } finally {
      ws.close();
    }
  });
});
