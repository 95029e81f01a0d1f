// What an agent does with a conversation's contact (ADR 034): start a conversation with a new contact,
// e-mail the contact, block and unblock, edit and delete. Every action first finds the conversation as the
// caller may see it (./inbox.ts, a 404 otherwise); the contacts module writes the contact. The message
// actions are in conversation-messages.ts.
import type { TInboxContact, TInboxContactUpdate, TStartConversationInput } from '@stn/contracts/chats';
import { AppError, invalid } from '../../platform/http/errors.ts';
import { businessOf, type Ctx } from '../../platform/tenancy/context.ts';
import { businessNames } from '../businesses/service.ts';
import {
  contactToText,
  createContact,
  deleteContact,
  setAgent,
  setBlocked,
  updateContact,
} from '../contacts/service.ts';
import { inboxInstall, presentContact, visibleContact } from './inbox.ts';
import { splitName } from './names.ts';

/**
 * POST /v1/chats/installs/{id}/contacts: the conversation with this phone. A phone already a contact of
 * the business opens that contact's conversation (put on this install when it had none; one on another
 * install stays there, and the answer's install_id says so); otherwise a new contact on the install.
 * Either way a caller who would not see it (no inbox.all, not an SMS agent) gets it assigned.
 */
export async function startConversation(
  ctx: Ctx,
  input: TStartConversationInput & { installId: number },
): Promise<TInboxContact> {
  await inboxInstall(ctx, input.installId);
  const existing = await contactToText(ctx, { phone: input.phone, installId: input.installId });
  if (existing) {
    // Another agent's conversation stays theirs: it is not taken over by typing its phone.
    if (existing.agent_user_id !== null && !(await canSee(ctx, existing.id)))
      throw invalid('phone', 'inbox.contact_assigned_elsewhere');
    return presentContact(await visibleContactAfterCreate(ctx, existing.id));
  }
  const names = input.name ? splitName(input.name) : {};
  const created = await createContact(ctx, {
    phone: input.phone,
    ...names,
    ...(input.first_name !== undefined ? { first_name: input.first_name } : {}),
    ...(input.last_name !== undefined ? { last_name: input.last_name } : {}),
    install_id: input.installId,
    source: 'sms',
  });
  return presentContact(await visibleContactAfterCreate(ctx, created.id));
}

async function canSee(ctx: Ctx, id: number): Promise<boolean> {
  try {
    await visibleContact(ctx, id);
    return true;
  } catch (err) {
    if (err instanceof AppError && err.code === 'NOT_FOUND') return false;
    throw err;
  }
}

/** The caller who started it sees it even without inbox.all: it is assigned to them when unassigned. */
async function visibleContactAfterCreate(ctx: Ctx, id: number) {
  try {
    return await visibleContact(ctx, id);
  } catch (err) {
    if (ctx.by.kind !== 'user' || !(err instanceof AppError) || err.code !== 'NOT_FOUND') throw err;
    await setAgent(ctx, { id, agentId: ctx.by.actor.userId });
    return visibleContact(ctx, id);
  }
}

/**
 * POST /v1/chats/contacts/{id}/email: through the business's own e-mail (its default SMTP account, else its
 * SendGrid integration; ADR 090) when it has one, else the platform's mail outbox, sent with the business's
 * name.
 */
export async function emailContact(ctx: Ctx, input: { id: number; subject: string; body: string }) {
  const { agencyId, businessId } = businessOf(ctx);
  const contact = await visibleContact(ctx, input.id);
  if (!contact.email) throw new AppError('VALIDATION', 'inbox.no_email', { email: 'inbox.no_email' });
  const name = (await businessNames(ctx, { ids: [businessId] })).get(businessId) ?? null;
  const own = await ctx.deps.ports.ownMail.send(ctx, {
    agencyId,
    businessId,
    to: contact.email,
    subject: input.subject,
    text: input.body,
    fromName: name,
    source: 'inbox',
    contactId: contact.id,
  });
  if (own) return;
  await ctx.deps.mailer.send(
    {
      to: contact.email,
      subject: input.subject,
      text: input.body,
      agencyId,
      businessId,
      fromName: name,
    },
    ctx.db,
  );
}

export async function blockContact(ctx: Ctx, input: { id: number; blocked: boolean }) {
  const contact = await visibleContact(ctx, input.id);
  await setBlocked(ctx, { contactId: contact.id, blocked: input.blocked });
  return presentContact(await visibleContact(ctx, contact.id));
}

/** PUT /v1/chats/contacts/{id}: name (or first and last), e-mail, dates, custom fields. */
export async function editContact(ctx: Ctx, input: TInboxContactUpdate & { id: number }) {
  const contact = await visibleContact(ctx, input.id);
  const { name, ...rest } = input;
  await updateContact(ctx, { ...(name !== undefined ? splitName(name) : {}), ...rest, id: contact.id });
  return presentContact(await visibleContact(ctx, contact.id));
}

export async function removeContact(ctx: Ctx, input: { id: number }) {
  const contact = await visibleContact(ctx, input.id);
  await deleteContact(ctx, { id: contact.id });
}
