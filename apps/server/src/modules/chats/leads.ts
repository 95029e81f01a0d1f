// A lead form sent in (issue 21, ADR 074) joins the conversation with the lead's phone: the leadforms module
// found or created the contact and moved its latest lead time (the inbox's order, as a call's does); each user
// who may see the conversation is told (`conversation_lead`, as `conversation_call`), so an open inbox
// refreshes and shows it as a lead (target kind 3).
import { channel } from '../../platform/realtime/hub.ts';
import type { Ctx } from '../../platform/tenancy/context.ts';
import { sees, viewersOf } from './audience.ts';

export async function announceConversationLead(
  ctx: Ctx,
  input: {
    contact: { id: number; install_id: number | null; agent_user_id: number | null };
    submissionId: number;
  },
): Promise<void> {
  const { contact } = input;
  const viewers = await viewersOf(ctx);
  const conversation = { id: contact.id, installId: contact.install_id, agentId: contact.agent_user_id };
  const data = { contact: contact.id, install: contact.install_id, submission: input.submissionId };
  await Promise.all(
    viewers
      .filter((v) => sees(v, conversation))
      .map((v) => ctx.deps.realtime.publish(channel.user(v.userId), { type: 'conversation_lead', data })),
  );
}
