// A lead form sent in (issue 21, ADR 074) joins the conversation with the lead's phone: the leadforms module
// found or created the contact and moved its latest lead time (the inbox's order, as a call's does); each user
// who may see the conversation is told (`conversation_lead`, as `conversation_call`), so an open inbox
// refreshes and shows it as a lead (target kind 3).
import type { Ctx } from '../../platform/tenancy/context.ts';
import { tellViewers } from './audience.ts';

export async function announceConversationLead(
  ctx: Ctx,
  input: {
    contact: { id: number; install_id: number | null; agent_user_id: number | null };
    submissionId: number;
  },
): Promise<void> {
  await tellViewers(ctx, input.contact, {
    type: 'conversation_lead',
    data: { contact: input.contact.id, install: input.contact.install_id, submission: input.submissionId },
  });
}
