// Jobs at the places that enqueue them (issue 18): a scheduled message is sent at its time and never before,
// and the scheduled message, the scheduled call and the contact import each leave their job only when the
// transaction around them commits (none when it fails), as the row that needs it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, drainJobs } from '../../../test/helpers.ts';
import { JOB_SCHEMA } from '../../platform/queue/queue.ts';
import {
  type Ctx,
  inTransaction,
  platformSystemContext,
  tenantContext,
} from '../../platform/tenancy/context.ts';
import { startImport } from '../contacts/import.ts';
import { scheduleCall } from '../telephony/schedule.ts';
import { restoreSandboxNumbers } from '../telephony/service.ts';
import { type Telephony, telephonyApp } from '../telephony/testing.ts';
import { sendMessage } from './service.ts';

let h: Telephony;
let ctx: Ctx;
let installId: number;
let number: string;

const rows = async (text: string, values: unknown[] = []) => (await h.t.pool.query(text, values)).rows;
/** The jobs of a queue whose payload names `key` = `id`. */
const jobsOf = (name: string, key: string, id: number) =>
  rows(`select state, start_after from ${JOB_SCHEMA}.job where name = $1 and data->>'${key}' = $2`, [
    name,
    String(id),
  ]);
const HOUR = 3_600_000;

async function contactTexting(phone: string): Promise<number> {
  h.sandbox.phones.sendText(phone, number, 'hello');
  await h.run(1000);
  const [c] = await rows('select id from contacts where business_id = $1 and phone = $2', [
    h.seed.a.business.id,
    phone,
  ]);
  return c.id as number;
}

/**
 * The scheduled message's time comes (its job is due now): the worker's pass sends it. Waits for the job to
 * finish, not only for the message's status: the text goes to the carrier after the status commits.
 */
async function fallsDue(messageId: number): Promise<void> {
  await rows(
    `update ${JOB_SCHEMA}.job set start_after = now() - interval '1 second' where data->>'messageId' = $1`,
    [String(messageId)],
  );
  h.t.app.deps.queue.nudge('chats.scheduled-message');
  await expect
    .poll(async () => (await rows('select status from messages where id = $1', [messageId]))[0]?.status, {
      timeout: 15_000,
    })
    .toBe('queued');
  await expect
    .poll(async () => (await jobsOf('chats.scheduled-message', 'messageId', messageId))[0]?.state, {
      timeout: 15_000,
    })
    .toBe('completed');
}

/** Runs `work` in a transaction that then fails; answers the error. */
async function failingAround(work: (tx: Ctx) => Promise<unknown>): Promise<unknown> {
  return inTransaction(ctx, async (tx) => {
    await work(tx);
    throw new Error('the surrounding work failed');
  }).catch((err: unknown) => err);
}

beforeAll(async () => {
  h = await telephonyApp();
  await drainJobs(h.t);
  const install = await h.install();
  installId = install.id;
  [{ phone_number: number }] = await rows('select phone_number from numbers where install_id = $1', [
    install.id,
  ]);
  await restoreSandboxNumbers(platformSystemContext(h.t.app.deps, 'job', 'sandbox numbers'));
  ctx = tenantContext(
    h.t.app.deps,
    { level: 'business', agencyId: h.seed.a.agency.id, businessId: h.seed.a.business.id },
    { kind: 'system', source: 'job', name: 'test' },
  );
});
afterAll(() => h?.close());

describe('a scheduled message', () => {
  it('waits, unsent, while another one falls due and is sent; then goes at its own time', async () => {
    const phone = '+14155550901';
    const contactId = await contactTexting(phone);
    const admin = bearer(await h.token(h.seed.a.businessAdmin.email));
    const schedule = async (body: string) => {
      const sendAt = new Date(Date.now() + HOUR);
      const res = await h.t.app.inject({
        method: 'POST',
        url: `/api/v1/chats/contacts/${contactId}/messages`,
        headers: admin,
        payload: { body, send_at: sendAt.toISOString() },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.status).toBe('scheduled');
      return { id: res.json().data.id as number, sendAt };
    };
    const later = await schedule('Later: see you tomorrow');
    const first = await schedule('First: bring your card');

    // Each job starts at its message's time, not before.
    for (const m of [later, first]) {
      const [job] = await jobsOf('chats.scheduled-message', 'messageId', m.id);
      expect(job?.state).toBe('created');
      expect(new Date(job.start_after).getTime()).toBe(m.sendAt.getTime());
    }
    // Time passes for the first one only (its job is due now): the worker's pass sends it and leaves the other.
    await fallsDue(first.id);
    await h.run(3000);
    const texts = () =>
      h.sandbox.phones
        .get(phone)
        .texts.filter((t) => t.direction === 'in')
        .map((t) => t.body);
    expect(texts()).toEqual(['First: bring your card']);
    const [waiting] = await rows('select status, carrier_sid from messages where id = $1', [later.id]);
    expect(waiting).toEqual({ status: 'scheduled', carrier_sid: null });
    expect((await jobsOf('chats.scheduled-message', 'messageId', later.id))[0]?.state).toBe('created');

    // Its own time comes: sent.
    await fallsDue(later.id);
    await h.run(3000);
    expect(texts()).toEqual(['First: bring your card', 'Later: see you tomorrow']);
  });
});

describe('jobs are enqueued in the transaction of their row', () => {
  it('a scheduled message: no job and no row when the transaction fails; one of each when it commits', async () => {
    const contactId = await contactTexting('+14155550902');
    const sendAt = new Date(Date.now() + HOUR);
    const before = await rows(
      `select count(*)::int as n from ${JOB_SCHEMA}.job where name = 'chats.scheduled-message'`,
    );
    let id = 0;
    const err = await failingAround(async (tx) => {
      id = (await sendMessage(tx, { contactId, body: 'Rolled back', sendAt })).id;
    });
    expect(err).toBeInstanceOf(Error);
    expect(id).toBeGreaterThan(0);
    expect(await jobsOf('chats.scheduled-message', 'messageId', id)).toEqual([]);
    expect(
      await rows(`select count(*)::int as n from ${JOB_SCHEMA}.job where name = 'chats.scheduled-message'`),
    ).toEqual(before);
    expect(await rows('select id from messages where id = $1', [id])).toEqual([]);

    const kept = await inTransaction(ctx, (tx) => sendMessage(tx, { contactId, body: 'Kept', sendAt }));
    expect(await jobsOf('chats.scheduled-message', 'messageId', kept.id)).toHaveLength(1);
  });

  it('a scheduled call: no job and no call when the transaction fails; one of each when it commits', async () => {
    const scheduledAt = new Date(Date.now() + HOUR);
    let id = 0;
    const err = await failingAround(async (tx) => {
      id = (await scheduleCall(tx, { installId, phone: '+14155550903', scheduledAt })).id;
    });
    expect(err).toBeInstanceOf(Error);
    expect(id).toBeGreaterThan(0);
    expect(await jobsOf('telephony.scheduled-call', 'callId', id)).toEqual([]);
    expect(await rows('select id from calls where id = $1', [id])).toEqual([]);

    const kept = await inTransaction(ctx, (tx) =>
      scheduleCall(tx, { installId, phone: '+14155550903', scheduledAt }),
    );
    const jobs = await jobsOf('telephony.scheduled-call', 'callId', kept.id);
    expect(jobs).toHaveLength(1);
    expect(new Date(jobs[0]?.start_after).getTime()).toBe(scheduledAt.getTime());
  });

  it('a contact import: no job and no import when the transaction fails; one of each when it commits', async () => {
    const csv = 'phone,first_name\n+14155550904,Ivy\n';
    let id = 0;
    const err = await failingAround(async (tx) => {
      id = (await startImport(tx, { csv })).import_id;
    });
    expect(err).toBeInstanceOf(Error);
    expect(id).toBeGreaterThan(0);
    expect(await jobsOf('contacts.import', 'importId', id)).toEqual([]);
    expect(await rows('select id from contact_imports where id = $1', [id])).toEqual([]);

    const kept = await inTransaction(ctx, (tx) => startImport(tx, { csv }));
    expect(await jobsOf('contacts.import', 'importId', kept.import_id)).toHaveLength(1);
    h.t.app.deps.queue.nudge('contacts.import');
    await expect
      .poll(async () => await rows("select first_name from contacts where phone = '+14155550904'"), {
        timeout: 15_000,
      })
      .toEqual([{ first_name: 'Ivy' }]);
  });
});
