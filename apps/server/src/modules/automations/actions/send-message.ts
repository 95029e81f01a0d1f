// SendMessage (ADR 071): a text, a template or images to the contact, merge fields filled, through chats'
// `sendMessage` with the step's context, so every check of a send applies (opted out, blocked, blacklist,
// the reach rule, restricted content, the number, the monthly limit) and the message is stored in the
// conversation in the step's transaction. A refusal fails the step without a retry and the journey goes on.
import type { TActionConfig } from '@stn/contracts/automations';
import { sendMessage } from '../../chats/service.ts';
import { mediaForSend, templateForSend } from '../../templates/service.ts';
import { fill, refusalOf } from './merge.ts';
import type { ActionExecutor } from './types.ts';

export const sendMessageAction: ActionExecutor = async ({ ctx, contact, config }) => {
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
