// SendMessage (ADR 071): a text, a template or images to the contact, merge fields filled, through chats'
// `sendMessage` with the step's context, so every check of a send applies (opted out, blocked, blacklist,
// the reach rule, restricted content, the number, the monthly limit) and the message is stored in the
// conversation in the step's transaction. A refusal fails the step without a retry and the journey goes on.
//
// The carrier takes no idempotency key, and the text goes to it before the step's transaction commits. A
// worker dying in between leaves the text sent but the step (and the conversation's row) rolled back; the
// step is then tried again (attempt > 1). Such an attempt first asks the carrier whether it has more texts
// of this very body from the install's number to the contact than our conversation holds: if so, the
// crashed attempt's text went out and is not sent again (recorded as `recovered` on the step).
import type { TActionConfig } from '@stn/contracts/automations';
import type { Ctx } from '../../../platform/tenancy/context.ts';
import { sendMessage, storedTextCount } from '../../chats/service.ts';
import { carrierFor, installTextNumber } from '../../telephony/service.ts';
import { mediaForSend, templateForSend } from '../../templates/service.ts';
import { fill, refusalOf } from './merge.ts';
import type { ActionExecutor, RunContact } from './types.ts';

/** The carrier's sid of a text a crashed attempt sent (more at the carrier than stored), or null. */
export async function sentByCrashedAttempt(
  ctx: Ctx,
  contact: RunContact,
  body: string,
): Promise<string | null> {
  // A text with images is compared by its words too (an image alone: an empty body), by how many of them
  // the carrier has against how many are stored.
  if (contact.install_id === null) return null;
  const words = body.trim();
  const from = await installTextNumber(ctx, contact.install_id);
  if (!from) return null;
  try {
    const carrier = await carrierFor(ctx);
    const atCarrier = (
      await carrier.listMessages({ to: contact.phone, from, sentAfter: new Date(0) })
    ).filter((m) => m.body.trim() === words);
    const stored = await storedTextCount(ctx, { from, to: contact.phone, body: words });
    return atCarrier.length > stored ? (atCarrier[0]?.sid ?? null) : null;
  } catch (err) {
    // Unknown: sending again is the lesser harm than a text never sent.
    ctx.deps.log.warn({ err, contactId: contact.id }, 'automation text: the carrier could not be asked');
    return null;
  }
}

export const sendMessageAction: ActionExecutor = async ({ ctx, contact, config, step }) => {
  const c = config as TActionConfig<'SendMessage'>;
  try {
    let text = c.body;
    let templateId: number | undefined;
    if (c.template_id !== null) {
      const template = await templateForSend(ctx, c.template_id);
      templateId = template.id;
      // The block's own text wins; an empty one sends the template's (as the inbox's send does).
      if (!text.trim()) text = template.body;
    }
    const body = await fill(ctx, contact, text);
    if (step.attempt > 1) {
      const sid = await sentByCrashedAttempt(ctx, contact, body);
      if (sid) return { kind: 'next', detail: { carrier_sid: sid, recovered: true, to: contact.phone } };
    }
    const media = await mediaForSend(ctx, c.media_ids);
    const message = await sendMessage(ctx, { contactId: contact.id, body, media, templateId });
    return {
      kind: 'next',
      detail: { message_id: message.id, status: message.status, to: message.to_number },
    };
  } catch (err) {
    const reason = refusalOf(err);
    if (reason === null) throw err;
    return { kind: 'fail', error: reason, continueRun: true, detail: { refused: reason } };
  }
};
