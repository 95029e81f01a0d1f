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

async function insertAutomations(
  ctx: Ctx,
  input: { agencyId: number; businessId: number; userId: number | null; active: boolean },
  list: DemoAutomation[],
): Promise<void> {
  for (const a of list) {
    const problems = checkAutomation(a);
    if (problems.length) throw new Error(`demo automation "${a.name}": ${JSON.stringify(problems)}`);
    await ctx.db.execute(sql`
      insert into automations (agency_id, business_id, name, start_trigger, trigger, active, blocks, options,
        installs, tags, share_token, created_by)
      values (${input.agencyId}, ${input.businessId}, ${a.name}, ${a.trigger.kind}, ${JSON.stringify(a.trigger)}::jsonb,
        ${input.active}, ${JSON.stringify(a.blocks)}::jsonb, ${JSON.stringify({ reentry: 'after_finish' })}::jsonb,
        '[]'::jsonb, '[]'::jsonb, ${token()}, ${input.userId})`);
  }
}

export async function seedDemoAutomations(
  ctx: Ctx,
  input: { agencyId: number; businessId: number; userId: number },
): Promise<void> {
  const [tag] = (
    await ctx.db.execute(
      sql`insert into tags (business_id, name) values (${input.businessId}, 'Price enquiry') returning id`,
    )
  ).rows as { id: number }[];
  if (!tag) throw new Error('demo automations: the tag was not written');
  await insertAutomations(
    ctx,
    { ...input, active: true },
    demoAutomations({ priceTagId: tag.id, ownerId: input.userId }),
  );
}

const at = (y: number) => ({ x: 0, y });

/**
 * The gallery of Acme's businesses: the automations of its template business (ADR 070), ready to copy
 * with **Use** on the automations screen. Inactive there; a copy is made inactive too.
 */
export function templateAutomations(): DemoAutomation[] {
  const text = (id: string, body: string, next: string | null, y: number): TBlock => ({
    id,
    type: 'SendMessage',
    config: { body, template_id: null, media_ids: [] },
    outputs: { next },
    position: at(y),
  });
  return [
    {
      name: 'Birthday greeting',
      trigger: { kind: 'birthday', config: { hour: 9 }, start: 'wish', position: at(0) },
      blocks: [
        text(
          'wish',
          'Happy birthday, {first_name|friend}! Enjoy 10% off your next visit this month.',
          null,
          140,
        ),
      ],
    },
    {
      name: 'Review request after a call',
      trigger: { kind: 'completed-call', config: {}, start: 'wait', position: at(0) },
      blocks: [
        {
          id: 'wait',
          type: 'Wait',
          config: { amount: 2, unit: 'hours' },
          outputs: { next: 'ask' },
          position: at(140),
        },
        {
          id: 'ask',
          type: 'CollectContactData',
          config: {
            question: 'Thanks for talking with us, {first_name|there}! How did we do, from 1 to 5?',
            field: 'rating',
            wait: { amount: 1, unit: 'days' },
          },
          outputs: { answered: 'thanks', no_answer: null },
          position: at(280),
        },
        text('thanks', 'Thank you for your feedback!', null, 420),
      ],
    },
    {
      name: 'Nurture new leads (office hours)',
      trigger: { kind: 'webhook', config: {}, start: 'hours', position: at(0) },
      blocks: [
        {
          id: 'hours',
          type: 'ProcessBetween',
          config: { from: '09:00', to: '17:00', days: [1, 2, 3, 4, 5], time_zone: null },
          outputs: { next: 'hello' },
          position: at(140),
        },
        text(
          'hello',
          'Hi {first_name|there}, thanks for your interest! Reply with a good time for a call.',
          'replied',
          280,
        ),
        {
          id: 'replied',
          type: 'Condition',
          config: { kind: 'replied', within: { amount: 2, unit: 'days' } },
          outputs: { yes: null, no: 'nudge' },
          position: at(420),
        },
        text(
          'nudge',
          'Just checking in, {first_name|there}: still interested? Reply YES and we will call you.',
          null,
          560,
        ),
      ],
    },
  ];
}

/** Acme's template business and its gallery of automations. */
export async function seedTemplateAutomations(
  ctx: Ctx,
  input: { agencyId: number; businessId: number },
): Promise<void> {
  await insertAutomations(ctx, { ...input, userId: null, active: false }, templateAutomations());
}
