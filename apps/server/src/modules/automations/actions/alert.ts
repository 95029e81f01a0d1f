// Alert (ADR 071): tells staff about the contact: the chosen users (none chosen: the business's active
// admins), by each chosen channel, with the block's message (merge fields filled). E-mail goes through the
// platform's mail outbox and a task through the tasks service, both in the step's transaction (exactly
// once); a text goes to the user's phone from the contact's install number through the carrier (counted in
// the month's messages, never refused by the limit: staff must hear) by a job enqueued in the step's
// transaction, so a step tried again never texts twice (ADR 128); push is the notifications module's
// `staffAlerted` event, which the push module delivers after the commit. A user or channel that cannot be
// reached (no phone, no number) is passed over and named on the step; nobody to tell fails the step.

import type { TActionConfig } from '@stn/contracts/automations';
import { messageCount } from '@stn/contracts/chats';
import { translate } from '@stn/contracts/i18n';
import { z } from 'zod';
import { CarrierError } from '../../../platform/carrier/carrier.ts';
import { publish } from '../../../platform/events/events.ts';
import { defineJob, enqueue } from '../../../platform/queue/queue.ts';
import { businessSystemContext } from '../../../platform/tenancy/context.ts';
import { countMessages } from '../../businesses/service.ts';
import { staffAlerted } from '../../notifications/service.ts';
import { createTask } from '../../tasks/service.ts';
import { carrierFor, installTextNumber } from '../../telephony/service.ts';
import { activeBusinessAdminIds, getUser, type UserRow } from '../../users/service.ts';
import { fill } from './merge.ts';
import type { ActionExecutor, StepInput } from './types.ts';

/**
 * An Alert's text to one staff phone, after the step's commit. A carrier's refusal for a moment (401, 429:
 * nothing sent) is tried again; any other failure is not (a 5xx may have sent it): it is logged.
 */
export const alertTextJob = defineJob({
  name: 'automations.alert_text',
  payload: z.object({
    agencyId: z.number(),
    businessId: z.number(),
    to: z.string(),
    from: z.string(),
    body: z.string(),
  }),
  retry: { limit: 3, delaySeconds: 30, backoff: true },
  handler: async (deps, p) => {
    const ctx = businessSystemContext(deps, p, 'job', 'automation alert text');
    try {
      await (await carrierFor(ctx)).createMessage({ to: p.to, from: p.from, body: p.body });
    } catch (err) {
      if (err instanceof CarrierError && err.refusedForNow) throw err;
      deps.log.warn({ err, to: p.to }, 'automation alert text not sent');
      return;
    }
    // Sent: a count lost to a failure here is the lesser harm than a retry texting again.
    await countMessages(ctx, { count: messageCount('out', p.body, 0), enforce: false }).catch(
      (err: unknown) => deps.log.warn({ err }, 'automation alert text not counted'),
    );
  },
});

/** The users to tell: the chosen ones still active in the business, else its active admins. */
async function recipients(input: StepInput, chosen: number[]): Promise<UserRow[]> {
  const { ctx, automation } = input;
  const ids = chosen.length
    ? chosen
    : await activeBusinessAdminIds(ctx, {
        agencyId: automation.agency_id,
        businessIds: [automation.business_id],
      });
  const out: UserRow[] = [];
  for (const id of [...new Set(ids)]) {
    const u = await getUser(ctx, id);
    if (u?.active && u.business_id === automation.business_id) out.push(u);
  }
  return out;
}

export const alertAction: ActionExecutor = async (input) => {
  const { ctx, automation, contact } = input;
  const c = input.config as TActionConfig<'Alert'>;
  const users = await recipients(input, c.user_ids);
  if (users.length === 0)
    return {
      kind: 'fail',
      error: 'automations.action.no_recipients',
      continueRun: true,
      detail: { refused: 'automations.action.no_recipients' },
    };
  const message = await fill(ctx, contact, c.message);
  const who = contact.name || contact.phone;
  const sent: Record<string, number[]> = {};
  const skipped: { user_id: number; channel: string; reason: string }[] = [];
  const done = (channel: string, userId: number) => {
    sent[channel] = [...(sent[channel] ?? []), userId];
  };
  const channels = new Set(c.channels);

  if (channels.has('email'))
    for (const u of users) {
      const lang = u.settings?.language ?? 'en';
      await ctx.deps.mailer.send(
        {
          to: u.email,
          subject: translate('automations.action.alert_subject', lang, { automation: automation.name }),
          text: `${message}\n\n${who} (${contact.phone})`,
          agencyId: automation.agency_id,
          businessId: automation.business_id,
        },
        ctx.db,
      );
      done('email', u.id);
    }

  if (channels.has('sms')) {
    const from = contact.install_id === null ? null : await installTextNumber(ctx, contact.install_id);
    for (const u of users) {
      if (!u.phone) skipped.push({ user_id: u.id, channel: 'sms', reason: 'no_phone' });
      else if (!from) skipped.push({ user_id: u.id, channel: 'sms', reason: 'no_number' });
      else {
        await enqueue(ctx, alertTextJob, {
          agencyId: automation.agency_id,
          businessId: automation.business_id,
          to: u.phone,
          from,
          body: message,
        });
        done('sms', u.id);
      }
    }
  }

  if (channels.has('push')) {
    publish(ctx, staffAlerted, {
      agencyId: automation.agency_id,
      businessId: automation.business_id,
      userIds: users.map((u) => u.id),
      title: automation.name,
      body: message.length > 200 ? `${message.slice(0, 200)}…` : message,
      url: '/business/contacts',
      tag: `automation-${automation.id}-contact-${contact.id}`,
    });
    for (const u of users) done('push', u.id);
  }

  const tasks: number[] = [];
  if (channels.has('task'))
    for (const u of users) {
      const task = await createTask(ctx, {
        title: translate('automations.action.alert_task_title', u.settings?.language ?? 'en', {
          automation: automation.name,
          contact: who,
        }).slice(0, 191),
        description: message,
        contact_id: contact.id,
        user_id: u.id,
        status: 'open',
      });
      tasks.push(task.id);
      done('task', u.id);
    }

  return {
    kind: 'next',
    detail: {
      recipients: users.map((u) => u.id),
      sent,
      ...(tasks.length ? { task_ids: tasks } : {}),
      ...(skipped.length ? { skipped } : {}),
    },
  };
};
