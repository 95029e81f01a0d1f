// The demo business's automations (issue 20): two active journeys, so that `npm start` shows the engine at
// work on the Sandbox Phones screen. "Missed call follow-up": a callback nobody claimed → wait a minute →
// text the visitor. "Price enquiry": an inbound text PRICE → reply with the prices → tag the contact "Price
// enquiry" → alert staff with a task. Written as the API writes them (checked by contracts'
// `checkAutomation`, so a seed that drifts from the schemas fails at start, not on a screen).
import { randomBytes } from 'node:crypto';
import { checkAutomation, type TBlock, type TTrigger } from '@stn/contracts/automations';
import { sql } from 'drizzle-orm';
import type { Ctx } from './platform/tenancy/context.ts';

type DemoAutomation = { name: string; trigger: TTrigger; blocks: TBlock[] };

const token = () => randomBytes(18).toString('base64url');

export function demoAutomations(input: { priceTagId: number; ownerId: number }): DemoAutomation[] {
  return [
    {
      name: 'Missed call follow-up',
      trigger: { kind: 'missed-call', config: {}, start: 'wait', position: { x: 0, y: 0 } },
      blocks: [
        {
          id: 'wait',
          type: 'Wait',
          config: { amount: 1, unit: 'minutes' },
          outputs: { next: 'text' },
          position: { x: 0, y: 140 },
        },
        {
          id: 'text',
          type: 'SendMessage',
          config: {
            body: "Hi {first_name|there}, sorry we missed your call at Bright Dental! Reply here and we'll get right back to you.",
            template_id: null,
            media_ids: [],
          },
          outputs: { next: null },
          position: { x: 0, y: 280 },
        },
      ],
    },
    {
      name: 'Price enquiry',
      trigger: {
        kind: 'sms-keyword',
        config: { keywords: ['PRICE'], match: 'exact' },
        start: 'reply',
        position: { x: 0, y: 0 },
      },
      blocks: [
        {
          id: 'reply',
          type: 'SendMessage',
          config: {
            body: 'Thanks for asking, {first_name|there}! A check-up and cleaning is $89, whitening starts at $199. Reply BOOK and we will find you a time.',
            template_id: null,
            media_ids: [],
          },
          outputs: { next: 'tag' },
          position: { x: 0, y: 140 },
        },
        {
          id: 'tag',
          type: 'AddTag',
          config: { add: [input.priceTagId], remove: [] },
          outputs: { next: 'alert' },
          position: { x: 0, y: 280 },
        },
        {
          id: 'alert',
          type: 'Alert',
          config: {
            channels: ['task'],
            user_ids: [input.ownerId],
            message: '{name} ({phone}) asked for our prices: call them back.',
          },
          outputs: { next: null },
          position: { x: 0, y: 420 },
        },
      ],
    },
  ];
}

export async function seedDemoAutomations(
  ctx: Ctx,
  input: { agencyId: number; businessId: number; userId: number },
): Promise<void> {
  const db = ctx.db;
  const [tag] = (
    await db.execute(
      sql`insert into tags (business_id, name) values (${input.businessId}, 'Price enquiry') returning id`,
    )
  ).rows as { id: number }[];
  if (!tag) throw new Error('demo automations: the tag was not written');
  for (const a of demoAutomations({ priceTagId: tag.id, ownerId: input.userId })) {
    const problems = checkAutomation(a);
    if (problems.length) throw new Error(`demo automation "${a.name}": ${JSON.stringify(problems)}`);
    await db.execute(sql`
      insert into automations (agency_id, business_id, name, start_trigger, trigger, active, blocks, options,
        installs, tags, share_token, created_by)
      values (${input.agencyId}, ${input.businessId}, ${a.name}, ${a.trigger.kind}, ${JSON.stringify(a.trigger)}::jsonb,
        true, ${JSON.stringify(a.blocks)}::jsonb, ${JSON.stringify({ reentry: 'after_finish' })}::jsonb,
        '[]'::jsonb, '[]'::jsonb, ${token()}, ${input.userId})`);
  }
}
