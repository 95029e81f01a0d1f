// SendEmail (ADR 071): an e-mail to the contact, merge fields filled in its subject and body. It goes by
// the platform's mail (the outbox and its `mail.send` job, written in the step's transaction: queued
// exactly once with the step's completion) from the business's name, with the business as Reply-To (its
// owner's e-mail, else its notification e-mail), so answers reach the business. The spec's "through the
// business's e-mail account when one exists" waits for e-mail accounts (a later issue): that account,
// when it exists, is chosen here instead of the platform's mail. A contact without an e-mail address
// fails the step (no retry) and the journey goes on.
import type { TActionConfig } from '@stn/contracts/automations';
import { businessMailIdentity } from '../../businesses/service.ts';
import { fillAll } from './merge.ts';
import type { ActionExecutor } from './types.ts';

export const sendEmailAction: ActionExecutor = async ({ ctx, automation, contact, config }) => {
  const c = config as TActionConfig<'SendEmail'>;
  const to = contact.email?.trim();
  if (!to)
    return {
      kind: 'fail',
      error: 'automations.action.no_email',
      continueRun: true,
      detail: { skipped: 'no_email' },
    };
  const { subject, body } = await fillAll(ctx, contact, { subject: c.subject, body: c.body });
  const from = await businessMailIdentity(ctx);
  await ctx.deps.mailer.send(
    {
      to,
      // One line: a subject is a header.
      subject: subject.replace(/[\r\n]+/g, ' ').slice(0, 191),
      text: body,
      agencyId: automation.agency_id,
      businessId: automation.business_id,
      fromName: from.name,
      replyTo: from.replyTo,
    },
    ctx.db,
  );
  return { kind: 'next', detail: { to, subject, reply_to: from.replyTo, via: 'platform' } };
};
