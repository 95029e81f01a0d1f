// Zapier's actions (ADR 089): send a text (the chats service, as the inbox sends), create or update a
// contact by phone, add a tag, start an automation. Each runs in the business's context; the services'
// own checks (opt-outs, blacklists, limits, the automation being on) answer as they do in the app.
import { AppError, invalid } from '../../platform/http/errors.ts';
import type { Ctx } from '../../platform/tenancy/context.ts';
import { sendMessage } from '../chats/service.ts';
import {
  addToAutomation,
  contactByPhone,
  contactForSend,
  contactToText,
  createContact,
  findOrCreateContactByPhone,
  getContact,
  tagContact,
  tagIdsByName,
  updateContact,
} from '../contacts/service.ts';
import { installsOfBusiness } from '../installs/service.ts';

/** The install a new conversation runs on: the one named (the business's), else the business's first. */
async function installFor(ctx: Ctx, named: number | undefined): Promise<number> {
  const installs = (await installsOfBusiness(ctx)).filter((i) => i.status !== 'deleted');
  if (named !== undefined) {
    if (!installs.some((i) => i.id === named)) throw invalid('install_id', 'zapier.install_unknown');
    return named;
  }
  const first = installs[0];
  if (!first) throw invalid('install_id', 'zapier.no_install');
  return first.id;
}

async function contactOrFail(ctx: Ctx, phone: string) {
  const contact = await contactByPhone(ctx, phone);
  if (!contact) throw new AppError('NOT_FOUND', 'zapier.contact_unknown');
  return contact;
}

export async function zapierSendText(
  ctx: Ctx,
  input: {
    phone?: string | undefined;
    contact_id?: number | undefined;
    body: string;
    install_id?: number | undefined;
  },
) {
  let contact = input.contact_id !== undefined ? await contactForSend(ctx, input.contact_id) : undefined;
  if (!contact && input.phone) {
    contact = await contactByPhone(ctx, input.phone);
    if (!contact)
      contact = (
        await findOrCreateContactByPhone(ctx, {
          phone: input.phone,
          installId: await installFor(ctx, input.install_id),
          source: 'cms',
        })
      ).contact;
  }
  if (!contact) throw invalid('phone', 'validation.required');
  if (contact.install_id === null)
    contact =
      (await contactToText(ctx, {
        phone: contact.phone,
        installId: await installFor(ctx, input.install_id),
      })) ?? contact;
  const message = await sendMessage(ctx, { contactId: contact.id, body: input.body });
  return {
    id: message.id,
    contact_id: contact.id,
    phone: contact.phone,
    body: message.body,
    status: message.status,
  };
}

export async function zapierSaveContact(
  ctx: Ctx,
  input: {
    phone: string;
    first_name?: string | undefined;
    last_name?: string | undefined;
    email?: string | undefined;
    tags?: string[] | undefined;
  },
) {
  const values = {
    ...(input.first_name !== undefined ? { first_name: input.first_name } : {}),
    ...(input.last_name !== undefined ? { last_name: input.last_name } : {}),
    ...(input.email ? { email: input.email } : {}),
  };
  const existing = await contactByPhone(ctx, input.phone);
  const tagIds = input.tags?.length ? [...(await tagIdsByName(ctx, input.tags)).values()] : [];
  let id: number;
  if (existing) {
    id = (await updateContact(ctx, { id: existing.id, ...values })).id;
    if (tagIds.length > 0) await tagContact(ctx, { id, tag_ids: tagIds, mode: 'add' });
  } else {
    const installs = (await installsOfBusiness(ctx)).filter((i) => i.status !== 'deleted');
    id = (
      await createContact(ctx, {
        phone: input.phone,
        ...values,
        install_id: installs[0]?.id ?? null,
        tag_ids: tagIds,
      })
    ).id;
  }
  const c = await getContact(ctx, { id });
  return {
    id: c.id,
    created: !existing,
    phone: c.phone,
    first_name: c.first_name,
    last_name: c.last_name,
    email: c.email,
    tags: c.tags.map((t) => t.name),
  };
}

export async function zapierAddTag(ctx: Ctx, input: { phone: string; tag: string }) {
  const contact = await contactOrFail(ctx, input.phone);
  const ids = [...(await tagIdsByName(ctx, [input.tag])).values()];
  const c = await tagContact(ctx, { id: contact.id, tag_ids: ids, mode: 'add' });
  return { id: c.id, phone: c.phone, tags: c.tags.map((t) => t.name) };
}

export async function zapierStartAutomation(ctx: Ctx, input: { phone: string; automation_id: number }) {
  const contact = await contactOrFail(ctx, input.phone);
  await addToAutomation(ctx, { ids: [contact.id], automationId: input.automation_id });
  return { contact_id: contact.id, automation_id: input.automation_id, started: true };
}
