import type { ZAutomationTestEmail, ZAutomationTestSms } from '@stn/contracts/automations';
import type { TMessageMedia } from '@stn/contracts/chats';
import type { z } from 'zod';
import { AppError } from '../../platform/http/errors.ts';
import { businessOf, type Ctx } from '../../platform/tenancy/context.ts';
import { businessName } from '../businesses/service.ts';
import { sendTestText } from '../chats/service.ts';
import { contactByPhone } from '../contacts/service.ts';
import { installsOfBusiness } from '../installs/service.ts';
import { installTextNumber } from '../telephony/service.ts';
import { fillForContact, mediaForSend, templateForSend } from '../templates/service.ts';

// The editor's test calls (spec 001 "Automations": /test-sms, /test-email; ADR 070): a SendMessage's or a
// SendEmail's content sent now to one phone or address, its merge fields filled for the contact with that
// phone when there is one, else for a sample contact, through the same checks a real text goes through.

/** The sample the merge fields are filled with when no contact has the phone (as broadcasts' test). */
const SAMPLE = { first_name: 'Alex', last_name: 'Sample', email: 'alex@example.com', fields: {} };

/** The number the business texts from: its first website's with a number that can text. */
async function textNumber(ctx: Ctx): Promise<string | null> {
  for (const install of await installsOfBusiness(ctx)) {
    const n = await installTextNumber(ctx, install.id);
    if (n) return n;
  }
  return null;
}

export async function sendAutomationTestSms(
  ctx: Ctx,
  input: z.infer<typeof ZAutomationTestSms>,
): Promise<void> {
  businessOf(ctx);
  const fields: Record<string, string> = {};
  let template: { body: string } | null = null;
  let media: TMessageMedia[] = [];
  if (input.template_id)
    template = await templateForSend(ctx, input.template_id).catch((err) => {
      if (err instanceof AppError && (err.code === 'NOT_FOUND' || err.code === 'VALIDATION')) {
        fields.template_id = 'automations.template_invalid';
        return null;
      }
      throw err;
    });
  media = await mediaForSend(ctx, input.media_ids).catch((err) => {
    if (err instanceof AppError && err.code === 'VALIDATION') {
      fields.media_ids = 'automations.media_invalid';
      return [];
    }
    throw err;
  });
  const text = input.body.trim() || template?.body.trim() || '';
  if (!text && media.length === 0 && !fields.template_id) fields.body = 'automations.test_body_required';
  if (Object.keys(fields).length) throw new AppError('VALIDATION', undefined, fields);
  const from = await textNumber(ctx);
  if (!from) throw new AppError('VALIDATION', 'messages.no_number', undefined, {}, 'messages.no_number');
  const contact = await contactByPhone(ctx, input.phone);
  const body = await fillForContact(ctx, text, contact ?? { ...SAMPLE, phone: input.phone });
  await sendTestText(ctx, { to: input.phone, from, body, media });
}

/** The e-mail goes through the platform's mail, from the business's name (the outbox keeps it). */
export async function sendAutomationTestEmail(
  ctx: Ctx,
  input: z.infer<typeof ZAutomationTestEmail>,
): Promise<void> {
  const { agencyId, businessId } = businessOf(ctx);
  const sample = { ...SAMPLE, email: input.email, phone: '' };
  const [subject, text, fromName] = await Promise.all([
    fillForContact(ctx, input.subject, sample),
    fillForContact(ctx, input.body, sample),
    businessName(ctx),
  ]);
  await ctx.deps.mailer.send({ to: input.email, subject, text, agencyId, businessId, fromName });
}
