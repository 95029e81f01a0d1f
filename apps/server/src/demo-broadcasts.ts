// The demo business's broadcast data (issue 19, ADR 062): a few hundred tagged contacts (varied names, US
// numbers of several zones), two broadcast numbers, and one finished broadcast with its report. Seeding runs
// before the app, its queue and its carrier exist, so the finished broadcast is written as the engine writes
// one (ADR 061): the recipient snapshot with its states and skip reasons, one conversation message per
// recipient sent (marked with the broadcast), replies marked the same way, the credits counted against the
// month. Nothing is a made-up total: every count the screens show is counted from these rows. A handful of
// set-based statements, so the first start stays fast.
import { messageCount } from '@stn/contracts/chats';
import { sql } from 'drizzle-orm';
import { SANDBOX_ERROR_MESSAGES } from './platform/carrier/sandbox/sandbox.ts';
import { timeZoneOfPhone } from './platform/phone-time-zone.ts';
import type { Ctx } from './platform/tenancy/context.ts';

const FIRST = [
  'Olivia',
  'Liam',
  'Emma',
  'Noah',
  'Ava',
  'Mateo',
  'Sophia',
  'Lucas',
  'Isabella',
  'Ethan',
  'Mia',
  'Mason',
  'Camila',
  'Logan',
  'Aria',
  'Elijah',
  'Zoe',
  'Aiden',
  'Layla',
  'James',
  'Priya',
  'Diego',
  'Hana',
  'Kwame',
  'Grace',
  'Omar',
  'Chloe',
  'Wei',
  'Fatima',
  'Jack',
  'Lucía',
  'Santiago',
  'Nora',
  'Malik',
  'Ines',
  'Ryan',
];
const LAST = [
  'Smith',
  'Johnson',
  'Garcia',
  'Nguyen',
  'Brown',
  'Martinez',
  'Lee',
  'Patel',
  'Kim',
  'Walker',
  'Lopez',
  'Clark',
  'Hernandez',
  'Young',
  'Okafor',
  'Rossi',
  'Cohen',
  'Silva',
  'Murphy',
  'Khan',
  'Tanaka',
  'Reyes',
];
/** Area codes of several zones: New York, Chicago, Denver, Phoenix, Los Angeles, Seattle, Miami, Austin, Anchorage, Honolulu. */
const AREAS = ['212', '312', '303', '602', '213', '206', '305', '512', '907', '808'];
const CONTACTS = 300;

const REPLIES: [index: number, body: string][] = [
  [3, 'Can I book a whitening for Saturday morning?'],
  [12, 'Yes! How do I get the discount?'],
  [27, 'Please remove me from this list'],
  [33, 'What time do you open tomorrow?'],
  [48, 'Thanks, see you next week'],
  [54, 'stop texting me please'],
  [66, 'Does the offer include my husband too?'],
  [81, 'STOP'],
];

const BODY =
  'Hi {first_name|there}! Spring cleaning special at Bright Dental: 20% off whitening until May 31. Book at brightdental.example or reply to this text. Reply STOP to opt out.';

/** Fills the merge fields the demo's body uses, as the engine does per recipient. */
const fill = (first: string) => BODY.replace('{first_name|there}', first || 'there');

export async function seedDemoBroadcasts(
  ctx: Ctx,
  input: { agencyId: number; businessId: number; installId: number; installNumber: string; userId: number },
): Promise<void> {
  const db = ctx.db;
  const { agencyId, businessId, installId } = input;
  const q = async <T = Record<string, unknown>>(query: ReturnType<typeof sql>) =>
    (await db.execute(query)).rows as T[];

  // Tags and contacts.
  const tagNames = ['VIP', 'Newsletter', 'Spring sale', 'New patient'];
  const tags = await q<{ id: number; name: string }>(sql`
    insert into tags (business_id, name)
    select ${businessId}, unnest(${sql.param(tagNames)}::text[]) returning id, name`);
  const tagId = (name: string) => tags.find((t) => t.name === name)?.id ?? 0;
  const people = Array.from({ length: CONTACTS }, (_, i) => ({
    first: FIRST[(i * 7) % FIRST.length] ?? 'Alex',
    last: LAST[(i * 5 + Math.floor(i / FIRST.length)) % LAST.length] ?? 'Lee',
    phone: `+1${AREAS[i % AREAS.length]}555${String(100 + Math.floor(i / AREAS.length)).padStart(4, '0')}`,
    created: new Date(Date.now() - (90 - (i % 90)) * 86_400_000),
  }));
  const contacts = await q<{ id: number; phone: string; first_name: string }>(sql`
    insert into contacts (agency_id, business_id, install_id, phone, first_name, last_name, source, created_at, updated_at)
    select ${agencyId}, ${businessId}, ${installId}, p, f, l, 'cms', c, c
      from unnest(${sql.param(people.map((p) => p.phone))}::text[], ${sql.param(people.map((p) => p.first))}::text[],
                  ${sql.param(people.map((p) => p.last))}::text[], ${sql.param(people.map((p) => p.created.toISOString()))}::timestamptz[])
           as v(p, f, l, c)
    on conflict do nothing
    returning id, phone, first_name`);
  contacts.sort((a, b) => a.id - b.id);
  const links: [number, number][] = [];
  contacts.forEach((c, i) => {
    if (i % 10 === 0) links.push([c.id, tagId('VIP')]);
    if (i % 2 === 0) links.push([c.id, tagId('Newsletter')]);
    if (i % 3 === 0) links.push([c.id, tagId('Spring sale')]);
    if (i % 5 === 1) links.push([c.id, tagId('New patient')]);
  });
  await db.execute(sql`
    insert into contact_tags (contact_id, tag_id)
    select * from unnest(${sql.param(links.map((l) => l[0]))}::int[], ${sql.param(links.map((l) => l[1]))}::int[])
    on conflict do nothing`);
  // A few said STOP long ago, one is blocked: the broadcast skips them.
  const optedOut = contacts.filter((_, i) => i % 37 === 0 && i > 0).map((c) => c.id);
  await db.execute(
    sql`update contacts set opted_out_at = now() - interval '30 days' where id = any(${sql.param(optedOut)}::int[])`,
  );
  const blocked = contacts[42]?.id ?? 0;
  await db.execute(sql`update contacts set blocked_at = now() - interval '20 days' where id = ${blocked}`);

  // Two broadcast numbers: the install's, and a second number bought for marketing (10DLC, mid tier).
  const second = '+15005550007';
  const [marketing] = await q<{ id: number }>(sql`
    insert into numbers (agency_id, business_id, install_id, phone_number, friendly_name, kind, verified)
    values (${agencyId}, ${businessId}, null, ${second}, 'Marketing number', 'purchased', true)
    returning id`);
  const [own] = await q<{ id: number }>(
    sql`select id from numbers where business_id = ${businessId} and phone_number = ${input.installNumber} limit 1`,
  );
  const senders = await q<{ id: number; phone_number: string }>(sql`
    insert into broadcasters (agency_id, business_id, number_id, phone_number, kind)
    values (${agencyId}, ${businessId}, ${own?.id ?? 0}, ${input.installNumber}, 'long_code'),
           (${agencyId}, ${businessId}, ${marketing?.id ?? 0}, ${second}, '10dlc_mid')
    returning id, phone_number`);

  // The finished "Spring sale" broadcast, three days ago.
  const started = new Date(Date.now() - 3 * 86_400_000);
  started.setUTCHours(15, 0, 0, 0);
  const audience = [...links.filter((l) => l[1] === tagId('Spring sale')).map((l) => l[0])];
  const inAudience = contacts.filter((c) => audience.includes(c.id));
  const perMessage = messageCount('out', BODY, 0);
  // Three carrier failures, as the sandbox reports them: an invalid number, a filtered text, a handset gone.
  const failure = (word: RegExp): [number, string] => {
    const hit = Object.entries(SANDBOX_ERROR_MESSAGES).find(([, text]) => word.test(text));
    return hit ? [Number(hit[0]), hit[1]] : [0, 'Unknown error'];
  };
  const FAILED: Record<number, [number, string]> = {
    5: failure(/filtered/i),
    17: failure(/Invalid 'To'/i),
    29: failure(/Unreachable/i),
  };

  type Row = {
    contactId: number;
    phone: string;
    name: string;
    state: string;
    skip: string | null;
    sender: { id: number; phone_number: string } | null;
    sentAt: Date | null;
    deliveredAt: Date | null;
    error: [number, string] | null;
  };
  let turn = 0;
  const rows: Row[] = inAudience.map((c, i) => {
    const skip = optedOut.includes(c.id) ? 'opted_out' : c.id === blocked ? 'blocked' : null;
    const sender = skip ? null : (senders[turn++ % senders.length] ?? null);
    const sentAt = skip ? null : new Date(started.getTime() + turn * 600);
    const error = FAILED[i] ?? null;
    const delivered = !skip && !error && i % 23 !== 11;
    return {
      contactId: c.id,
      phone: c.phone,
      name: `${c.first_name} ${people.find((p) => p.phone === c.phone)?.last ?? ''}`.trim(),
      state: skip ? 'skipped' : error ? 'failed' : delivered ? 'delivered' : 'sent',
      skip,
      sender,
      sentAt,
      deliveredAt: delivered && sentAt ? new Date(sentAt.getTime() + 2_000 + (i % 9) * 700) : null,
      error,
    };
  });
  const sent = rows.filter((r) => r.sender);
  const last = sent.reduce((m, r) => Math.max(m, r.deliveredAt?.getTime() ?? r.sentAt?.getTime() ?? 0), 0);
  const [broadcast] = await q<{ id: number }>(sql`
    insert into broadcasts (agency_id, business_id, name, status, body, audience, broadcaster_ids, run,
      credits_estimated, started_at, completed_at, created_by, created_at, updated_at)
    values (${agencyId}, ${businessId}, 'Spring cleaning special', 'completed', ${BODY},
      ${JSON.stringify({ tag_ids: [tagId('Spring sale')], exclude_tag_ids: [], install_ids: [], contact_ids: [] })}::jsonb,
      ${JSON.stringify(senders.map((s) => s.id))}::jsonb, 1, ${sent.length * perMessage},
      ${started.toISOString()}, ${new Date(last).toISOString()}, ${input.userId},
      ${new Date(started.getTime() - 3_600_000).toISOString()}, ${new Date(last).toISOString()})
    returning id`);
  const broadcastId = broadcast?.id ?? 0;

  // The conversation messages of those sent to (the engine writes them through the chats module).
  const texts = await q<{ id: number; contact_id: number }>(sql`
    insert into messages (agency_id, business_id, contact_id, install_id, direction, body, status, error_code,
      error_message, carrier_sid, from_number, to_number, segments, sent_at, broadcast_id, created_at, updated_at)
    select ${agencyId}, ${businessId}, c, ${installId}, 'out', b, s, e, em, 'SM' || md5(random()::text || c::text),
           f, t, ${perMessage}, a, ${broadcastId}, a, a
      from unnest(${sql.param(sent.map((r) => r.contactId))}::int[],
                  ${sql.param(sent.map((r) => fill(r.name.split(' ')[0] ?? '')))}::text[],
                  ${sql.param(sent.map((r) => (r.state === 'failed' ? 'failed' : r.state)))}::text[],
                  ${sql.param(sent.map((r) => r.error?.[0] ?? null))}::int[],
                  ${sql.param(sent.map((r) => r.error?.[1] ?? null))}::text[],
                  ${sql.param(sent.map((r) => r.sender?.phone_number ?? ''))}::text[],
                  ${sql.param(sent.map((r) => r.phone))}::text[],
                  ${sql.param(sent.map((r) => r.sentAt?.toISOString() ?? ''))}::timestamptz[])
           as v(c, b, s, e, em, f, t, a)
    returning id, contact_id`);
  const messageOf = new Map(texts.map((t) => [t.contact_id, t.id]));

  // Replies: ordinary conversations, marked with the broadcast; a STOP opts the contact out.
  const replies = REPLIES.flatMap(([i, body]) => {
    const r = sent[i];
    return r?.sentAt && r.state !== 'failed'
      ? [{ r, body, at: new Date(r.sentAt.getTime() + (20 + i) * 60_000) }]
      : [];
  });
  if (replies.length)
    await db.execute(sql`
      insert into messages (agency_id, business_id, contact_id, install_id, direction, body, status, carrier_sid,
        from_number, to_number, segments, sent_at, broadcast_id, created_at, updated_at)
      select ${agencyId}, ${businessId}, c, ${installId}, 'in', b, 'received', 'SM' || md5(random()::text || c::text),
             f, t, 1, a, ${broadcastId}, a, a
        from unnest(${sql.param(replies.map((x) => x.r.contactId))}::int[], ${sql.param(replies.map((x) => x.body))}::text[],
                    ${sql.param(replies.map((x) => x.r.phone))}::text[],
                    ${sql.param(replies.map((x) => x.r.sender?.phone_number ?? ''))}::text[],
                    ${sql.param(replies.map((x) => x.at.toISOString()))}::timestamptz[])
             as v(c, b, f, t, a)`);
  const stops = replies.filter((x) => x.body.trim().toUpperCase() === 'STOP');
  if (stops.length)
    await db.execute(sql`
      update contacts set opted_out_at = v.a
        from unnest(${sql.param(stops.map((x) => x.r.contactId))}::int[], ${sql.param(stops.map((x) => x.at.toISOString()))}::timestamptz[]) as v(c, a)
       where contacts.id = v.c`);
  const replyOf = new Map(replies.filter((x) => !stops.includes(x)).map((x) => [x.r.contactId, x.at]));
  const stopOf = new Map(stops.map((x) => [x.r.contactId, x.at]));

  // The recipient snapshot, each row as the engine leaves it.
  const iso = (d: Date | null | undefined) => d?.toISOString() ?? null;
  await db.execute(sql`
    insert into broadcast_recipients (broadcast_id, business_id, contact_id, phone, name, install_id, state,
      skip_reason, time_zone, due_at, broadcaster_id, from_number, attempts, message_id, carrier_sid, error_code,
      error_message, credits, sent_at, delivered_at, replied_at, opted_out_at, created_at)
    select ${broadcastId}, ${businessId}, v.c, v.p, v.n, ${installId}, v.s, v.sk, v.tz, ${started.toISOString()},
           v.b, v.f, case when v.b is null then 0 else 1 end, v.m, m.carrier_sid, v.e, v.em, v.cr, v.sa, v.da, v.ra,
           v.oa, ${started.toISOString()}
      from unnest(${sql.param(rows.map((r) => r.contactId))}::int[], ${sql.param(rows.map((r) => r.phone))}::text[],
                  ${sql.param(rows.map((r) => r.name))}::text[], ${sql.param(rows.map((r) => r.state))}::text[],
                  ${sql.param(rows.map((r) => r.skip))}::text[],
                  ${sql.param(rows.map((r) => timeZoneOfPhone(r.phone) ?? 'UTC'))}::text[],
                  ${sql.param(rows.map((r) => r.sender?.id ?? null))}::int[],
                  ${sql.param(rows.map((r) => r.sender?.phone_number ?? null))}::text[],
                  ${sql.param(rows.map((r) => messageOf.get(r.contactId) ?? null))}::int[],
                  ${sql.param(rows.map((r) => r.error?.[0] ?? null))}::int[],
                  ${sql.param(rows.map((r) => r.error?.[1] ?? null))}::text[],
                  ${sql.param(rows.map((r) => (r.state === 'sent' || r.state === 'delivered' ? perMessage : 0)))}::int[],
                  ${sql.param(rows.map((r) => iso(r.sentAt)))}::timestamptz[],
                  ${sql.param(rows.map((r) => iso(r.deliveredAt)))}::timestamptz[],
                  ${sql.param(rows.map((r) => iso(replyOf.get(r.contactId))))}::timestamptz[],
                  ${sql.param(rows.map((r) => iso(stopOf.get(r.contactId))))}::timestamptz[])
           as v(c, p, n, s, sk, tz, b, f, m, e, em, cr, sa, da, ra, oa)
      left join messages m on m.id = v.m`);
  await db.execute(sql`
    update contacts set last_message_at = x.a
      from (select contact_id, max(sent_at) as a from messages where broadcast_id = ${broadcastId} group by 1) x
     where contacts.id = x.contact_id`);
  // The credits reserved at the start (every eligible recipient) count against the month, as the engine counts them.
  await db.execute(
    sql`update businesses set number_of_messages = number_of_messages + ${sent.length * perMessage} where id = ${businessId}`,
  );
}
