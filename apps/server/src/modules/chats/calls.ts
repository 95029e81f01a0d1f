// Calls in the conversation (ADR 052): a callback, a scheduled call, an inbound call or a missed call
// (telephony's `call.requested`, `call.received` and `call.missed`) joins the conversation with the
// caller's phone. The contact is found or created by that phone for the install's business (the contacts
// module writes it) and its latest call
// time moves the conversation up the inbox; the inbox reads the call itself, with its outcome, from
// telephony when it shows the conversation. Each user who may see the conversation is told
// (`conversation_call`), so an open inbox refreshes.
import { type SQL, sql } from 'drizzle-orm';
import { preparedSql, slot } from '../../platform/db/prepared.ts';
import type { Ctx } from '../../platform/tenancy/context.ts';
import { contactCalled, contactCallUpsertSql, contactCallValues } from '../contacts/service.ts';
import { smsAgentsOfSql } from '../installs/service.ts';
import { businessSubjectsOfSql } from '../users/service.ts';
import { tellViewersOf, viewersFrom } from './audience.ts';
import { splitName } from './names.ts';

export type CallOfVisitor = {
  callId: number;
  installId: number;
  visitorPhone: string;
  visitorName: string | null;
  visitorEmail?: string | null;
};

/**
 * The contact's upsert and who may see the business's inbox, in one statement built once (issue 27: every
 * callback's conversation asks; two statements before).
 */
const joinConversation = preparedSql((): SQL => {
  const business = sql`${slot('business_id')}::int`;
  return sql`with c as (${contactCallUpsertSql()})
    select c.*, ${businessSubjectsOfSql(business)} as people, ${smsAgentsOfSql(business)} as agents from c`;
});

/** `ctx`: the context of the call's business (the listener builds it from the event). */
export async function callJoinsConversation(ctx: Ctx, p: CallOfVisitor): Promise<void> {
  const names = p.visitorName ? splitName(p.visitorName) : { first_name: '', last_name: '' };
  const [row] = await joinConversation(
    ctx.db,
    contactCallValues(ctx, {
      phone: p.visitorPhone,
      installId: p.installId,
      at: new Date(),
      firstName: names.first_name,
      lastName: names.last_name,
      email: p.visitorEmail ?? null,
    }),
  );
  const { contact } = contactCalled(ctx, row);
  await tellViewersOf(ctx, viewersFrom(row ?? {}), contact, {
    type: 'conversation_call',
    data: { contact: contact.id, install: contact.install_id, call: p.callId },
  });
}
