// The contacts module's service. Placeholder functions the chats module needs (issue 10); the contacts
// engineer owns this file and its full service (list, edit, import...).
import { eq, getTableColumns, isNull, sql } from 'drizzle-orm';
import { businessOf, type Ctx, found, scope } from '../../platform/tenancy/context.ts';
import { contacts } from './tables.ts';

export type ContactRow = typeof contacts.$inferSelect;

/**
 * The context business's live contact with this phone (E.164), created on first contact, in one
 * statement: concurrent first messages from one phone make one contact (the partial unique index
 * decides). The conversation moves to `installId` when given; `lastMessageAt` moves the conversation's
 * latest message time forward (never back).
 */
export async function findOrCreateContactByPhone(
  ctx: Ctx,
  input: {
    phone: string;
    installId: number | null;
    source: 'sms' | 'voice' | 'cms';
    lastMessageAt?: Date | undefined;
  },
): Promise<{ contact: ContactRow; created: boolean }> {
  const { agencyId, businessId } = businessOf(ctx);
  const at = input.lastMessageAt?.toISOString() ?? null;
  const [row] = await ctx.db
    .insert(contacts)
    .values({
      agency_id: agencyId,
      business_id: businessId,
      phone: input.phone,
      install_id: input.installId,
      source: input.source,
      last_message_at: input.lastMessageAt ?? null,
    })
    .onConflictDoUpdate({
      target: [contacts.business_id, contacts.phone],
      targetWhere: sql`${contacts.deleted_at} is null`,
      set: {
        install_id: sql`coalesce(excluded.install_id, ${contacts.install_id})`,
        last_message_at: sql`greatest(${contacts.last_message_at}, ${at}::timestamptz)`,
      },
    })
    .returning({ ...getTableColumns(contacts), created: sql<boolean>`(xmax = 0)` });
  const { created, ...contact } = found(row);
  return { contact, created: created === true };
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
