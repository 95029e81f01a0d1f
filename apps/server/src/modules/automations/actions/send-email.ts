// SendEmail (ADR 071): an e-mail to the contact, merge fields filled in its subject and body. It goes by
// the business's own e-mail when it has one (its default SMTP account, else its SendGrid integration;
// the ownMail port, ADR 090), else the platform's mail (the outbox and its `mail.send` job); either is
// written in the step's transaction: queued exactly once with the step's completion. From the business's
// name, with the business as Reply-To (its owner's e-mail, else its notification e-mail), so answers reach
// the business. A contact without an e-mail address fails the step (no retry) and the journey goes on.
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
  const own = await ctx.deps.ports.ownMail.send(
    ctx,
    {
      agencyId: automation.agency_id,
      businessId: automation.business_id,
      to,
      subject,
      text: body,
      fromName: from.name,
      replyTo: from.replyTo,
      source: 'automation',
      contactId: contact.id,
    },
    ctx.db,
  );
  if (own) return { kind: 'next', detail: { to, subject, reply_to: from.replyTo, via: 'own' } };
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
