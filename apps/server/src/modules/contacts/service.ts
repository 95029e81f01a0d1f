// The contacts module's service. Placeholder functions the chats module needs (issue 10); the contacts
// engineer owns this file and its full service (list, edit, import...).
import { and, eq, isNull, sql } from 'drizzle-orm';
import { businessOf, type Ctx, found, scope } from '../../platform/tenancy/context.ts';
import { contacts } from './tables.ts';

export type ContactRow = typeof contacts.$inferSelect;

/**
 * The context business's live contact with this phone (E.164), created on first contact. Concurrent first
 * messages from one phone make one contact (the partial unique index decides). The conversation moves to
 * `installId` when given.
 */
export async function findOrCreateContactByPhone(
  ctx: Ctx,
  input: { phone: string; installId: number | null; source: 'sms' | 'voice' | 'cms' },
): Promise<{ contact: ContactRow; created: boolean }> {
  const { agencyId, businessId } = businessOf(ctx);
  const inserted = await ctx.db
    .insert(contacts)
    .values({
      agency_id: agencyId,
      business_id: businessId,
      phone: input.phone,
      install_id: input.installId,
      source: input.source,
    })
    .onConflictDoNothing({
      target: [contacts.business_id, contacts.phone],
      where: sql`${contacts.deleted_at} is null`,
    })
    .returning();
  if (inserted[0]) return { contact: inserted[0], created: true };
  const [row] = await ctx.db
    .select()
    .from(contacts)
    .where(
      and(eq(contacts.business_id, businessId), eq(contacts.phone, input.phone), isNull(contacts.deleted_at)),
    );
  const contact = found(row);
  if (input.installId !== null && contact.install_id !== input.installId) {
    await ctx.db.update(contacts).set({ install_id: input.installId }).where(eq(contacts.id, contact.id));
    contact.install_id = input.installId;
  }
  return { contact, created: false };
}

/** What a send needs of a contact of the context's tenant (404 for another tenant's or a deleted one). */
export async function contactForSend(ctx: Ctx, contactId: number): Promise<ContactRow> {
  const [row] = await ctx.db
    .select()
    .from(contacts)
    .where(scope(ctx, contacts, eq(contacts.id, contactId), isNull(contacts.deleted_at)));
  return found(row);
}

/** Opts the contact out of the business's texts (STOP, carrier error 21610) or back in (START). */
export async function setContactOptOut(
  ctx: Ctx,
  input: { contactId: number; optedOut: boolean },
): Promise<void> {
  await ctx.db
    .update(contacts)
    .set({
      opted_out_at: input.optedOut ? sql`coalesce(${contacts.opted_out_at}, now())` : null,
      updated_at: new Date(),
    })
    .where(scope(ctx, contacts, eq(contacts.id, input.contactId)));
}

/** The conversation's latest message time (the inbox's order), never moved back. */
export async function touchContactConversation(
  ctx: Ctx,
  input: { contactId: number; at: Date },
): Promise<void> {
  await ctx.db
    .update(contacts)
    .set({
      last_message_at: sql`greatest(coalesce(${contacts.last_message_at}, ${input.at.toISOString()}::timestamptz), ${input.at.toISOString()}::timestamptz)`,
    })
    .where(scope(ctx, contacts, eq(contacts.id, input.contactId)));
}
