// Calls in the conversation (ADR 052): a callback, a scheduled call, an inbound call or a missed call
// (telephony's `call.requested`, `call.received` and `call.missed`) joins the conversation with the
// caller's phone. The contact is found or created by that phone for the install's business (the contacts
// module writes it) and its latest call
// time moves the conversation up the inbox; the inbox reads the call itself, with its outcome, from
// telephony when it shows the conversation. Each user who may see the conversation is told
// (`conversation_call`), so an open inbox refreshes.
import type { Ctx } from '../../platform/tenancy/context.ts';
import { recordContactCall } from '../contacts/service.ts';
import { tellViewers } from './audience.ts';
import { splitName } from './names.ts';

export type CallOfVisitor = {
  callId: number;
  installId: number;
  visitorPhone: string;
  visitorName: string | null;
  visitorEmail?: string | null;
};

/** `ctx`: the context of the call's business (the listener builds it from the event). */
export async function callJoinsConversation(ctx: Ctx, p: CallOfVisitor): Promise<void> {
  const names = p.visitorName ? splitName(p.visitorName) : { first_name: '', last_name: '' };
  const { contact } = await recordContactCall(ctx, {
    phone: p.visitorPhone,
    installId: p.installId,
    at: new Date(),
    firstName: names.first_name,
    lastName: names.last_name,
    email: p.visitorEmail ?? null,
  });
  await tellViewers(ctx, contact, {
    type: 'conversation_call',
    data: { contact: contact.id, install: contact.install_id, call: p.callId },
  });
}
