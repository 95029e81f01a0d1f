// Unread counts by counting (issue 27, ADR 103): a conversation's messages in are counted on the contact
// as they are written (a trigger on messages), and a look keeps the count it saw. What must hold: the
// count is the number of messages in, however they are written (several in one statement, messages out
// not counted, a message moved or removed); the inbox's unread count, inbox-new and the user's total
// agree; one user's look leaves another's count alone.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, fixtureCtx } from '../../../test/helpers.ts';
import { platformSystemContext } from '../../platform/tenancy/context.ts';
import { agencyCarrierAccount } from '../agencies/service.ts';
import { type Telephony, telephonyApp } from '../telephony/testing.ts';
import { createUser } from '../users/service.ts';
import { receiveInboundBatch } from './messages.ts';

let h: Telephony;
let install: number;
const q = async (text: string, values: unknown[] = []) => (await h.t.pool.query(text, values)).rows;

async function newContact(phone: string): Promise<number> {
  const a = h.seed.a;
  const [row] = await q(
    `insert into contacts (agency_id, business_id, install_id, phone, first_name) values ($1, $2, $3, $4, 'U')
     returning id`,
    [a.agency.id, a.business.id, install, phone],
  );
  return row.id;
}

/** Messages of one contact in one statement, in and out as given. */
async function write(contactId: number, directions: ('in' | 'out')[]) {
  const a = h.seed.a;
  await q(
    `insert into messages (agency_id, business_id, contact_id, install_id, direction, body, status, from_number,
       to_number)
     select $1, $2, $3, $4, d, 'x', 'received', '+14155550000', '+15005550006' from unnest($5::text[]) d`,
    [a.agency.id, a.business.id, contactId, install, directions],
  );
  await q('update contacts set last_message_at = now() where id = $1', [contactId]);
}

/** The contact's count against the messages in it has, counted. */
async function counts(contactId: number) {
  const [row] = await q(
    `select c.in_count, (select count(*)::int from messages m where m.contact_id = c.id and m.direction = 'in') as real
       from contacts c where c.id = $1`,
    [contactId],
  );
  return row as { in_count: number; real: number };
}

async function inbox(email: string, list: 'inbox' | 'inbox-new' = 'inbox') {
  const res = await h.t.app.inject({
    url: `/api/v1/chats/installs/${install}/${list}`,
    headers: bearer(await h.token(email)),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { id: number; unread: number }[];
}

async function total(email: string): Promise<number> {
  const res = await h.t.app.inject({ url: '/api/v1/profile', headers: bearer(await h.token(email)) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.user.number_of_messages;
}

beforeAll(async () => {
  h = await telephonyApp();
  install = (await h.install()).id;
});
afterAll(async () => {
  await h?.t.app.close();
  await h?.close();
});

describe('unread counts by counting', () => {
  it('counts the messages in however they are written, moved or removed', async () => {
    const one = await newContact('+14155550301');
    const two = await newContact('+14155550302');
    await write(one, ['in', 'out', 'in', 'in', 'out']);
    expect(await counts(one)).toEqual({ in_count: 3, real: 3 });
    await write(two, ['out']);
    expect(await counts(two)).toEqual({ in_count: 0, real: 0 });
    // Moved to another conversation, turned out: both counts follow.
    await q(
      `update messages set contact_id = $2 where id = (select min(id) from messages where contact_id = $1 and direction = 'in')`,
      [one, two],
    );
    await q(
      `update messages set direction = 'out' where id = (select min(id) from messages where contact_id = $1 and direction = 'in')`,
      [one],
    );
    expect(await counts(one)).toEqual({ in_count: 1, real: 1 });
    expect(await counts(two)).toEqual({ in_count: 1, real: 1 });
    await q(`delete from messages where contact_id = $1 and direction = 'in'`, [two]);
    expect(await counts(two)).toEqual({ in_count: 0, real: 0 });
  });

  it("agrees in the inbox, inbox-new and the user's total; a look is the looker's only", async () => {
    const admin = h.seed.a.businessAdmin.email;
    const contact = await newContact('+14155550303');
    const before = await total(admin);
    await write(contact, ['in', 'in', 'out']);
    const row = (await inbox(admin)).find((c) => c.id === contact);
    expect(row?.unread).toBe(2);
    expect((await inbox(admin, 'inbox-new')).map((c) => c.id)).toContain(contact);
    expect(await total(admin)).toBe(before + 2);

    // The admin opens it: read for the admin, not for a second user who sees every conversation.
    const other = { email: 'second-admin@a.test' };
    await createUser(fixtureCtx(h.t.db), {
      email: other.email,
      password: 'correct-horse-1',
      role: 'BusinessAdmin',
      businessId: h.seed.a.business.id,
      firstName: 'Second',
    });
    const otherBefore = (await inbox(other.email)).find((c) => c.id === contact)?.unread;
    const open = await h.t.app.inject({
      url: `/api/v1/chats/contacts/${contact}`,
      headers: bearer(await h.token(admin)),
    });
    expect(open.statusCode, open.body).toBe(200);
    expect((await inbox(admin)).find((c) => c.id === contact)?.unread).toBe(0);
    expect((await inbox(admin, 'inbox-new')).map((c) => c.id)).not.toContain(contact);
    expect(await total(admin)).toBe(before);
    expect((await inbox(other.email)).find((c) => c.id === contact)?.unread).toBe(otherBefore);

    // A new message in after the look is unread again, once.
    await write(contact, ['in']);
    expect((await inbox(admin)).find((c) => c.id === contact)?.unread).toBe(1);
    expect(await total(admin)).toBe(before + 1);
  });

  it('keeps the sums by install and agent equal to the contacts they sum, whatever changes them (ADR 104)', async () => {
    const a = h.seed.a;
    // The sums as the trigger keeps them, and as the contacts give them now.
    const sums = async () => {
      const kept = await q(
        `select install_id, agent_user_id, sum(in_sum)::int as n from contact_in_totals
          where business_id = $1 group by 1, 2 having sum(in_sum) <> 0 order by 1, 2`,
        [a.business.id],
      );
      const real = await q(
        `select coalesce(install_id, 0) as install_id, coalesce(agent_user_id, 0) as agent_user_id,
                sum(in_count)::int as n
           from contacts where business_id = $1 and deleted_at is null
          group by 1, 2 having sum(in_count) <> 0 order by 1, 2`,
        [a.business.id],
      );
      return { kept, real };
    };
    const agree = async () => {
      const { kept, real } = await sums();
      expect(kept).toEqual(real);
      return kept;
    };
    const admin = h.seed.a.businessAdmin.email;
    // The old rule, contact by contact: what the admin (who sees every conversation) has unread.
    const byContact = async () => {
      const [row] = await q(
        `select coalesce(sum(greatest(c.in_count - coalesce(r.seen_in_count, 0), 0)), 0)::int as n
           from contacts c left join conversation_reads r on r.contact_id = c.id
             and r.user_id = (select id from users where email = $2)
          where c.business_id = $1 and c.deleted_at is null`,
        [a.business.id, admin],
      );
      return row.n as number;
    };
    const one = await newContact('+14155550311');
    const two = await newContact('+14155550312');
    await write(one, ['in', 'in', 'out']);
    await write(two, ['in']);
    const before = await agree();
    expect(before.length).toBeGreaterThan(0);
    expect(await total(admin)).toBe(await byContact());

    // Assigned to an agent, moved to no install, renamed (no sum changes), removed, put back, deleted for good.
    const [agent] = await q(`select id from users where email = $1`, [admin]);
    await q(`update contacts set agent_user_id = $2 where id = $1`, [one, agent.id]);
    expect((await agree()).some((g) => g.agent_user_id === agent.id && g.n === 2)).toBe(true);
    await q(`update contacts set install_id = null where id = $1`, [two]);
    expect((await agree()).some((g) => g.install_id === 0 && g.n === 1)).toBe(true);
    await q(`update contacts set first_name = 'Renamed' where id = any($1::int[])`, [[one, two]]);
    await agree();
    await q(`update contacts set deleted_at = now() where id = $1`, [one]);
    expect((await agree()).some((g) => g.agent_user_id === agent.id)).toBe(false);
    expect(await total(admin)).toBe(await byContact());
    await q(`update contacts set deleted_at = null where id = $1`, [one]);
    await agree();
    await q(`delete from contacts where id = $1`, [two]);
    await agree();
    // A contact written with a count already (an import, a merge) and one look that saw more than is left.
    await q(
      `insert into contacts (agency_id, business_id, install_id, phone, in_count) values ($1, $2, $3, '+14155550313', 4)`,
      [a.agency.id, a.business.id, install],
    );
    await agree();
    const open = await h.t.app.inject({
      url: `/api/v1/chats/contacts/${one}`,
      headers: bearer(await h.token(admin)),
    });
    expect(open.statusCode, open.body).toBe(200);
    await q(`delete from messages where contact_id = $1 and direction = 'in'`, [one]);
    await agree();
    expect(await total(admin)).toBe(await byContact());
  });

  it('counts texts from the carrier once each: in a batch, redelivered, and in batches racing for one text (ADR 117)', async () => {
    const a = h.seed.a;
    const [{ phone_number: to }] = await q('select phone_number from numbers where install_id = $1', [
      install,
    ]);
    const account = await agencyCarrierAccount(h.t.app.deps, a.agency.id);
    if (!account) throw new Error('no account');
    const carrier = platformSystemContext(h.t.app.deps, 'carrier', 'test');
    const text = (from: string, sid = `SM${crypto.randomBytes(16).toString('hex')}`) => ({
      accountSid: account.accountSid,
      messageSid: sid,
      from,
      to,
      body: 'counted',
      media: [],
      sentAt: null,
    });
    const phones = ['+14155550321', '+14155550322', '+14155550323'] as const;
    // One batch: two texts of one phone, one of another, one of them twice.
    const twice = text(phones[0]);
    const first = [text(phones[0]), twice, text(phones[1])];
    const firstResults = await receiveInboundBatch(carrier, [...first, twice]);
    expect(firstResults.map((r) => r.kind)).toEqual(['recorded', 'recorded', 'recorded', 'duplicate']);
    // Redelivered in a batch of their own, with a new text of the third phone.
    const again = await receiveInboundBatch(carrier, [...first, text(phones[2])]);
    expect(again.map((r) => r.kind)).toEqual(['duplicate', 'duplicate', 'duplicate', 'recorded']);
    // Batches at once, each with the same new texts: each text is stored, and counted, once.
    for (let round = 0; round < 5; round++) {
      const shared = [text(phones[0]), text(phones[2])];
      const outcomes = await Promise.all(
        [0, 1, 2].map(() => receiveInboundBatch(carrier, [...shared, text(phones[1])])),
      );
      expect(outcomes.flat().filter((r) => r.kind === 'recorded')).toHaveLength(2 + 3);
    }
    // Written any other way, a message in is still counted by the trigger.
    const [{ id: third }] = await q('select id from contacts where business_id = $1 and phone = $2', [
      a.business.id,
      phones[2],
    ]);
    await write(third, ['in']);
    const rows = await q(
      `select c.phone, c.in_count,
              (select count(*)::int from messages m where m.contact_id = c.id and m.direction = 'in') as real
         from contacts c where c.business_id = $1 and c.phone = any($2) order by c.phone`,
      [a.business.id, phones],
    );
    expect(rows.map((r) => [r.phone, r.real])).toEqual([
      [phones[0], 2 + 5],
      [phones[1], 1 + 15],
      [phones[2], 1 + 5 + 1],
    ]);
    expect(rows.map((r) => r.in_count)).toEqual(rows.map((r) => r.real));
    // And the sums by group follow the contacts.
    const [kept] = await q(
      'select coalesce(sum(in_sum), 0)::int as n from contact_in_totals where business_id = $1',
      [a.business.id],
    );
    const [real] = await q(
      'select coalesce(sum(in_count), 0)::int as n from contacts where business_id = $1 and deleted_at is null',
      [a.business.id],
    );
    expect(kept.n).toBe(real.n);
  });
});
