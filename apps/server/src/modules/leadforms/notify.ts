// The staff's notice of a new lead (issue 21, ADR 074), by the install's settings: `notification_type` none,
// email, sms or both; an e-mail "New lead from {name}" with the answers to `notification_email` (else the
// business's enabled admins) through the business's own e-mail (ADR 090), else the platform's mail, and an SMS to `notification_phone` from
// the install's number through the carrier. A job enqueued in the submission's transaction: it exists
// exactly when the submission does, and the visitor's answer never waits for mail or the carrier. Texts in
// the install's language (the business's widget language).
import { translate } from '@stn/contracts/i18n';
import { widgetPhoneToE164 } from '@stn/contracts/widget';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Deps } from '../../platform/deps.ts';
import { defineJob } from '../../platform/queue/queue.ts';
import { type Ctx, scope, tenantContext } from '../../platform/tenancy/context.ts';
import { businessName } from '../businesses/service.ts';
import { sendTestText } from '../chats/service.ts';
import { contactsByIds } from '../contacts/service.ts';
import { installForCalls } from '../installs/service.ts';
import { installTextNumber } from '../telephony/service.ts';
import { activeBusinessAdmins } from '../users/service.ts';
import { leadForms, leadSubmissions } from './tables.ts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Sends the notice of one submission; what cannot be sent (no address, no number) is logged and skipped. */
export async function noticeLead(ctx: Ctx, input: { submissionId: number }): Promise<void> {
  const [row] = await ctx.db
    .select({ s: leadSubmissions, form: leadForms.name })
    .from(leadSubmissions)
    .innerJoin(leadForms, eq(leadForms.id, leadSubmissions.lead_form_id))
    .where(
      scope(
        ctx,
        { agency_id: leadSubmissions.agency_id, business_id: leadSubmissions.business_id },
        eq(leadSubmissions.id, input.submissionId),
      ),
    );
  if (!row?.s.install_id) return;
  const install = await installForCalls(ctx, row.s.install_id);
  if (!install) return;
  const { notification_type: type, notification_email, notification_phone, language } = install.settings;
  if (type === 'none') return;
  const [contact] = row.s.contact_id ? await contactsByIds(ctx, [row.s.contact_id]) : [];
  const phone = contact?.phone ?? '';
  const name = (contact ? `${contact.first_name} ${contact.last_name}`.trim() : '') || phone;
  const params = { name, phone, form: row.form, install: install.name };
  const log = ctx.deps.log.child({ submissionId: input.submissionId, installId: install.id });

  if (type === 'email' || type === 'both') {
    let to = notification_email
      .split(/[,;\s]+/)
      .map((a) => a.trim())
      .filter((a) => EMAIL.test(a));
    if (to.length === 0) {
      const admins = await activeBusinessAdmins(ctx, {
        agencyId: install.agencyId,
        businessIds: [install.businessId],
      });
      to = admins.map((u) => u.email);
    }
    const lines = [
      translate('leadforms.mail_intro', language, params),
      '',
      ...row.s.answers.map((a) => `${a.label}: ${a.value}`),
      ...row.s.consents.map(
        (c) =>
          `${c.text}: ${translate(c.given ? 'leadforms.consent_given' : 'leadforms.consent_not_given', language)}`,
      ),
      ...(row.s.page_url ? ['', translate('leadforms.mail_page', language, { url: row.s.page_url })] : []),
    ];
    const fromName = await businessName(ctx);
    for (const address of to) {
      const mail = {
        to: address,
        subject: translate('leadforms.mail_subject', language, params),
        text: lines.join('\n'),
        agencyId: install.agencyId,
        businessId: install.businessId,
        fromName,
      };
      // Through the business's own e-mail when it has one (ADR 090), else the platform's mail.
      const own = await ctx.deps.ports.ownMail.send(ctx, {
        ...mail,
        source: 'leadform',
        contactId: contact?.id ?? null,
      });
      if (!own) await ctx.deps.mailer.send(mail);
    }
    if (to.length === 0) log.warn('lead notice: no address to e-mail');
  }

  if (type === 'sms' || type === 'both') {
    const to = widgetPhoneToE164(notification_phone);
    const from = await installTextNumber(ctx, install.id);
    if (!to || !from) log.warn('lead notice: no phone to text, or the install has no number that texts');
    else
      await sendTestText(ctx, {
        to,
        from,
        body: translate('leadforms.sms', language, params),
        media: [],
      }).catch((err: unknown) => log.warn({ err }, 'lead notice: the text was not sent'));
  }
}

export const leadNoticeJob = defineJob({
  name: 'leadforms.notice',
  payload: z.object({ agencyId: z.number(), businessId: z.number(), submissionId: z.number() }),
  // The mail goes to the outbox (its own job retries SMTP); a failed text is logged, not retried: a second
  // attempt would e-mail the staff twice.
  retry: { limit: 0, delaySeconds: 30, backoff: false },
  handler: async (deps: Deps, p) => {
    const ctx = tenantContext(
      deps,
      { level: 'business', agencyId: p.agencyId, businessId: p.businessId },
      { kind: 'system', source: 'job', name: 'lead notice' },
    );
    await noticeLead(ctx, { submissionId: p.submissionId });
  },
});
