import { randomUUID } from 'node:crypto';
import type { TMessageMedia } from '@stn/contracts/chats';
import {
  fillTemplate,
  MEDIA_MAX_BYTES,
  type TEMPLATE_MERGE_FIELDS,
  type TMedia,
  type TMediaListQuery,
  type TMediaUploadRequest,
  type TTemplate,
  type TTemplateListQuery,
  type TTemplateProvider,
  type TTemplateRequest,
} from '@stn/contracts/templates';
import { and, asc, count, desc, eq, ilike, inArray, ne, or, sql } from 'drizzle-orm';
import { AppError, invalid, notFound } from '../../platform/http/errors.ts';
import { likePattern, listEnvelope, pageOf } from '../../platform/http/pagination.ts';
import { decodeImage } from '../../platform/storage.ts';
import { businessOf, type Ctx, scope } from '../../platform/tenancy/context.ts';
import { type ContactRow, contactFieldKeys } from '../contacts/service.ts';
import { medias, templates } from './tables.ts';

// Message templates (sms and e-mail) and the media library of a business (spec 001 "Departments,
// templates, numbers, packages, media").

type TemplateRow = typeof templates.$inferSelect;
const tcols = { agency_id: templates.agency_id, business_id: templates.business_id };
const mcols = { agency_id: medias.agency_id, business_id: medias.business_id };

const toTemplate = (r: TemplateRow): TTemplate => ({
  id: r.id,
  name: r.name,
  body: r.body,
  provider: r.provider,
  active: r.active,
  created_at: r.created_at.toISOString(),
});

async function findTemplate(ctx: Ctx, id: number): Promise<TemplateRow> {
  const [row] = await ctx.db
    .select()
    .from(templates)
    .where(scope(ctx, tcols, eq(templates.id, id)));
  if (!row) throw notFound();
  return row;
}

export async function listTemplates(ctx: Ctx, q: TTemplateListQuery) {
  businessOf(ctx);
  const term = q.search || q.keyword;
  const like = term ? likePattern(term) : undefined;
  const where = scope(
    ctx,
    tcols,
    like ? or(ilike(templates.name, like), ilike(templates.body, like)) : undefined,
    q.provider ? eq(templates.provider, q.provider) : undefined,
    q.status ? eq(templates.active, q.status === 'active') : undefined,
  );
  const { limit, offset } = pageOf(q);
  const [rows, [total]] = await Promise.all([
    ctx.db.select().from(templates).where(where).orderBy(desc(templates.id)).limit(limit).offset(offset),
    ctx.db.select({ n: count() }).from(templates).where(where),
  ]);
  return listEnvelope(rows.map(toTemplate), total?.n ?? 0, q);
}

/** The active templates, for the pickers (the inbox's "send with a template"); `provider` narrows them. */
export async function allTemplates(ctx: Ctx, provider?: TTemplateProvider): Promise<TTemplate[]> {
  businessOf(ctx);
  const rows = await ctx.db
    .select()
    .from(templates)
    .where(
      scope(ctx, tcols, eq(templates.active, true), provider ? eq(templates.provider, provider) : undefined),
    )
    .orderBy(asc(templates.name), asc(templates.id));
  return rows.map(toTemplate);
}

export async function getTemplate(ctx: Ctx, id: number): Promise<TTemplate> {
  businessOf(ctx);
  return toTemplate(await findTemplate(ctx, id));
}

/**
 * A template to text now (ADR 039): the business's (another's is a 404), active and an SMS template
 * (a 422 that says why otherwise).
 */
export async function templateForSend(ctx: Ctx, id: number): Promise<TTemplate> {
  businessOf(ctx);
  const row = await findTemplate(ctx, id);
  const refuse = (key: string) => new AppError('VALIDATION', key, { template_id: key }, {}, key);
  if (!row.active) throw refuse('templates.inactive');
  if (row.provider !== 'sms') throw refuse('templates.not_sms');
  return toTemplate(row);
}

/**
 * Fills a template's merge fields for a contact: first and last name, name, phone, e-mail, the review
 * link of the contact's install and the
 * business's custom fields by key (a field the contact has no value for is empty, or its fallback).
 */
export async function fillForContact(
  ctx: Ctx,
  text: string,
  contact: Pick<ContactRow, 'first_name' | 'last_name' | 'phone' | 'email' | 'fields'> & {
    install_id?: number | null;
  },
): Promise<string> {
  const values: Record<string, string> = {};
  // The review link of the contact's install (its Google location), from integrations through a port.
  const installId = contact.install_id ?? null;
  const links =
    installId !== null && /\{\s*review_link/i.test(text)
      ? await ctx.deps.ports.reviews.linksOfInstalls(ctx, { installIds: [installId] })
      : new Map<number, string>();
  for (const key of await contactFieldKeys(ctx)) values[key.toLowerCase()] = contact.fields?.[key] ?? '';
  const standard: Record<(typeof TEMPLATE_MERGE_FIELDS)[number], string> = {
    first_name: contact.first_name,
    last_name: contact.last_name,
    name: `${contact.first_name} ${contact.last_name}`.trim(),
    phone: contact.phone,
    email: contact.email ?? '',
    review_link: installId === null ? '' : (links.get(installId) ?? ''),
  };
  return fillTemplate(text, { ...values, ...standard }).trim();
}

async function assertNameFree(ctx: Ctx, input: TTemplateRequest, exceptId?: number) {
  const [taken] = await ctx.db
    .select({ id: templates.id })
    .from(templates)
    .where(
      scope(
        ctx,
        tcols,
        eq(templates.provider, input.provider),
        sql`lower(${templates.name}) = ${input.name.toLowerCase()}`,
        exceptId ? ne(templates.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  if (taken) throw invalid('name', 'templates.name_taken');
}

export async function createTemplate(ctx: Ctx, input: TTemplateRequest): Promise<TTemplate> {
  const biz = businessOf(ctx);
  await assertNameFree(ctx, input);
  const [row] = await ctx.db
    .insert(templates)
    .values({ agency_id: biz.agencyId, business_id: biz.businessId, ...input })
    .returning();
  if (!row) throw notFound();
  return toTemplate(row);
}

export async function updateTemplate(ctx: Ctx, id: number, input: TTemplateRequest): Promise<TTemplate> {
  businessOf(ctx);
  const cur = await findTemplate(ctx, id);
  await assertNameFree(ctx, input, cur.id);
  const [row] = await ctx.db
    .update(templates)
    .set({ ...input, updated_at: new Date() })
    .where(eq(templates.id, cur.id))
    .returning();
  if (!row) throw notFound();
  return toTemplate(row);
}

export async function toggleTemplate(ctx: Ctx, id: number, active: boolean): Promise<TTemplate> {
  businessOf(ctx);
  const cur = await findTemplate(ctx, id);
  const [row] = await ctx.db
    .update(templates)
    .set({ active, updated_at: new Date() })
    .where(eq(templates.id, cur.id))
    .returning();
  if (!row) throw notFound();
  return toTemplate(row);
}

export async function deleteTemplate(ctx: Ctx, id: number): Promise<void> {
  businessOf(ctx);
  const cur = await findTemplate(ctx, id);
  await ctx.db.delete(templates).where(eq(templates.id, cur.id));
}

// ---------------------------------------------------------------- media library

type MediaRow = typeof medias.$inferSelect;
const toMedia = (r: MediaRow): TMedia => ({
  id: r.id,
  url: r.url,
  name: r.name,
  mime: r.mime,
  size: r.size,
  source: r.source,
  contact_id: r.contact_id,
  created_at: r.created_at.toISOString(),
});

/** Newest first, 10 per page; the web app appends the next page. */
export async function listMedias(ctx: Ctx, q: TMediaListQuery) {
  businessOf(ctx);
  const where = scope(ctx, mcols, q.contact_id ? eq(medias.contact_id, q.contact_id) : undefined);
  const { limit, offset } = pageOf(q);
  const [rows, [total]] = await Promise.all([
    ctx.db.select().from(medias).where(where).orderBy(desc(medias.id)).limit(limit).offset(offset),
    ctx.db.select({ n: count() }).from(medias).where(where),
  ]);
  return listEnvelope(rows.map(toMedia), total?.n ?? 0, q);
}

/**
 * Images of the business's media library to attach to a message, in the order asked; an id that is not
 * an image of the library is a 422 on `media_ids` (the send stores and sends nothing).
 */
export async function mediaForSend(ctx: Ctx, ids: number[]): Promise<TMessageMedia[]> {
  businessOf(ctx);
  if (ids.length === 0) return [];
  const rows = await ctx.db
    .select()
    .from(medias)
    .where(scope(ctx, mcols, inArray(medias.id, ids)));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => {
    const r = byId.get(id);
    if (!r?.mime.startsWith('image/')) throw invalid('media_ids', 'templates.media_not_found');
    return { url: r.url, content_type: r.mime, size: r.size, name: r.name || (r.url.split('/').pop() ?? '') };
  });
}

/** Of these ids, the ones of the business's media library (any kind of file), in the order asked. */
export async function mediaIdsOfBusiness(ctx: Ctx, ids: number[]): Promise<number[]> {
  businessOf(ctx);
  if (ids.length === 0) return [];
  const rows = await ctx.db
    .select({ id: medias.id })
    .from(medias)
    .where(scope(ctx, mcols, inArray(medias.id, ids)));
  const mine = new Set(rows.map((r) => r.id));
  return ids.filter((id) => mine.has(id));
}

/**
 * An audio file of the business's media library to play on a call (an automation's recording, ADR 071):
 * its stored URL, or null when the id is no audio of the library (deleted since).
 */
export async function audioForCall(ctx: Ctx, id: number): Promise<string | null> {
  businessOf(ctx);
  const [row] = await ctx.db
    .select({ url: medias.url, mime: medias.mime })
    .from(medias)
    .where(scope(ctx, mcols, eq(medias.id, id)));
  return row?.mime.startsWith('audio/') ? row.url : null;
}

const MIME = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
};

/**
 * Records a file of the business in its media library. The chats module calls it for every stored
 * message media (`source: 'message'`, with the contact and message), so the contact's files and the
 * library list them; the file itself is already stored by the caller (its `url`).
 */
export async function addMedia(
  ctx: Ctx,
  input: {
    url: string;
    mime: string;
    size: number;
    name?: string;
    source?: 'upload' | 'message';
    contactId?: number | null;
    messageId?: number | null;
    uploadedBy?: number | null;
  },
): Promise<TMedia> {
  const biz = businessOf(ctx);
  const [row] = await ctx.db
    .insert(medias)
    .values({
      agency_id: biz.agencyId,
      business_id: biz.businessId,
      url: input.url,
      mime: input.mime,
      size: input.size,
      name: input.name ?? '',
      source: input.source ?? 'message',
      contact_id: input.contactId ?? null,
      message_id: input.messageId ?? null,
      uploaded_by: input.uploadedBy ?? null,
    })
    .returning();
  if (!row) throw notFound();
  return toMedia(row);
}

/** An image uploaded in the library, checked by its bytes, stored as medias/<business>/<uuid>.<ext>. */
export async function uploadMedia(ctx: Ctx, input: TMediaUploadRequest): Promise<TMedia> {
  const biz = businessOf(ctx);
  const { bytes, ext } = decodeImage(input.data, {
    // SVG is not an MMS type: the library keeps what a message can carry.
    allowed: ['png', 'jpg', 'gif', 'webp'],
    maxBytes: MEDIA_MAX_BYTES,
    invalidKey: 'templates.media_invalid',
    tooLargeKey: 'templates.media_too_large',
  });
  const file = `${randomUUID()}.${ext}`;
  const url = await ctx.deps.storage.put(`medias/${biz.businessId}/${file}`, bytes, MIME[ext]);
  return addMedia(ctx, {
    url,
    mime: MIME[ext],
    size: bytes.length,
    name: input.name || file,
    source: 'upload',
    uploadedBy: ctx.by.kind === 'user' ? ctx.by.actor.userId : null,
  });
}

/** Removes a media of the library (the file stays for the messages that carried it). */
export async function deleteMedia(ctx: Ctx, id: number): Promise<void> {
  businessOf(ctx);
  const [row] = await ctx.db
    .select()
    .from(medias)
    .where(scope(ctx, mcols, eq(medias.id, id)));
  if (!row) throw notFound();
  await ctx.db.delete(medias).where(and(eq(medias.id, row.id)));
}
