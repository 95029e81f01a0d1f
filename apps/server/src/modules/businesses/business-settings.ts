import type {
  TBusiness,
  TBusinessInfoRequest,
  TBusinessReportRequest,
  TBusinessSettingRequest,
} from '@stn/contracts/businesses';
import { eq, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { putNamedImage, removeNamedImage } from '../../platform/files.ts';
import { notFound } from '../../platform/http/errors.ts';
import { decodeImage as decodeDataImage } from '../../platform/storage.ts';
import { businessOf, type Ctx, scope } from '../../platform/tenancy/context.ts';
import { loadBusiness } from './business-accounts.ts';
import { forgetBusinessSettings } from './service.ts';
import { businesses } from './tables.ts';

// A business's own settings: the context's business (a 403 outside one), every query scoped to it.

// The context's own business by id, inside its tenant: never a filter that could match several rows.
const own = (ctx: Ctx) =>
  scope(
    ctx,
    { agency_id: businesses.agency_id, business_id: businesses.id },
    eq(businesses.id, businessOf(ctx).businessId),
  );

async function patch(ctx: Ctx, set: PgUpdateSetSource<typeof businesses>) {
  const rows = await ctx.db
    .update(businesses)
    .set({ ...set, updated_at: new Date() })
    .where(own(ctx))
    .returning({ id: businesses.id });
  const id = rows[0]?.id;
  if (!id) throw notFound();
  // Its name and settings are cached for the busy paths (./service.ts cachedSettings).
  forgetBusinessSettings(ctx, { businessId: id });
  return loadBusiness(ctx, { id });
}

const mergeSettings = (values: Record<string, unknown>) =>
  sql`${businesses.settings} || ${JSON.stringify(values)}::jsonb`;

/** The business's own record, for its settings screen. */
export async function ownBusiness(ctx: Ctx): Promise<TBusiness> {
  const [row] = await ctx.db.select({ id: businesses.id }).from(businesses).where(own(ctx));
  if (!row) throw notFound();
  return loadBusiness(ctx, { id: row.id });
}

export async function updateInfo(ctx: Ctx, input: TBusinessInfoRequest): Promise<TBusiness> {
  const { name, opt_out_msg, ...contact } = input;
  const extra = Object.fromEntries(Object.entries(contact).filter(([, v]) => v !== undefined));
  return patch(ctx, {
    name,
    ...(opt_out_msg !== undefined ? { opt_out_msg } : {}),
    ...(Object.keys(extra).length ? { settings: mergeSettings(extra) } : {}),
  });
}

export async function updateReport(ctx: Ctx, input: TBusinessReportRequest) {
  return patch(ctx, {
    report_emails: [...new Set(input.report_emails)],
    report_schedules: [...new Set(input.report_schedules)],
  });
}

export async function updateNotificationSettings(ctx: Ctx, input: TBusinessSettingRequest) {
  // Notifications are merged into what is stored, so that a form sending some switches keeps the others;
  // the analytics integration is one whole setting and replaces what was there.
  let settings = sql`${businesses.settings}`;
  if (input.notifications)
    settings = sql`jsonb_set(${settings}, '{notifications}', coalesce(${businesses.settings}->'notifications', '{}'::jsonb) || ${JSON.stringify(input.notifications)}::jsonb)`;
  if (input.analytics)
    settings = sql`jsonb_set(${settings}, '{analytics}', ${JSON.stringify(input.analytics)}::jsonb)`;
  // The contacts and messages screens each send their whole form (ADR 094); the opt-out message is the
  // businesses.opt_out_msg column the information form writes too.
  if (input.contacts)
    settings = sql`jsonb_set(${settings}, '{contacts}', ${JSON.stringify(input.contacts)}::jsonb)`;
  let optOut: { opt_out_msg: string | null } | object = {};
  if (input.messages) {
    const { opt_out_msg, ...messages } = input.messages;
    settings = sql`jsonb_set(${settings}, '{messages}', ${JSON.stringify(messages)}::jsonb)`;
    if (opt_out_msg !== undefined) optOut = { opt_out_msg: opt_out_msg || null };
  }
  return patch(ctx, { settings, ...optOut });
}

// Raster images only: an SVG served from our own origin could carry script.
export const MAX_IMAGE_BYTES = 512 * 1024;

/** Decodes a data URL into a checked raster image (no SVG for business logos), or answers 422 on `data`. */
export function decodeImage(dataUrl: string) {
  return decodeDataImage(dataUrl, {
    allowed: ['png', 'jpg', 'gif', 'webp'],
    maxBytes: MAX_IMAGE_BYTES,
    invalidKey: 'businesses.image_invalid',
    tooLargeKey: 'businesses.image_too_large',
  });
}

const imageFolder = (businessId: number) => `businesses/${businessId}`;

/** Stores the image as businesses/<id>/<type>.<ext> in the file store; its URL goes in settings. */
export async function uploadImage(ctx: Ctx, input: { type: 'logo'; data: string }): Promise<TBusiness> {
  const { type } = input;
  const { bytes, ext } = decodeImage(input.data);
  const { businessId } = businessOf(ctx);
  // ?v= changes with every upload so that browsers do not show the old image.
  const url = await putNamedImage(ctx.deps.storage, imageFolder(businessId), type, { bytes, ext });
  return patch(ctx, { settings: mergeSettings({ [type]: url }) });
}

export async function deleteImage(ctx: Ctx, input: { type: 'logo' }): Promise<TBusiness> {
  const { type } = input;
  const { businessId } = businessOf(ctx);
  const business = await patch(ctx, { settings: sql`${businesses.settings} - ${type}::text` });
  await removeNamedImage(ctx.deps.storage, imageFolder(businessId), type);
  return business;
}
