import fs from 'node:fs/promises';
import path from 'node:path';
import type {
  TBusiness,
  TBusinessInfoRequest,
  TBusinessReportRequest,
  TBusinessSettingRequest,
} from '@stn/contracts/businesses';
import { eq, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Actor } from '../../platform/auth/actor.ts';
import type { Deps } from '../../platform/deps.ts';
import { notFound } from '../../platform/http/errors.ts';
import { decodeImage as decodeDataImage } from '../../platform/storage.ts';
import { inTenant } from '../../platform/tenancy.ts';
import { loadBusiness } from './business-accounts.ts';
import { businesses } from './tables.ts';

// The signed-in business's own settings: every query is scoped to the caller's agency and business.

// The caller's own business by id, inside its tenant: never a filter that could match several rows (a
// platform admin's tenant filter is empty).
const own = (actor: Actor) =>
  inTenant(
    actor,
    { agency_id: businesses.agency_id, business_id: businesses.id },
    eq(businesses.id, actor.businessId ?? -1),
  );

async function patch(deps: Deps, actor: Actor, set: PgUpdateSetSource<typeof businesses>) {
  const rows = await deps.db
    .update(businesses)
    .set({ ...set, updated_at: new Date() })
    .where(own(actor))
    .returning({ id: businesses.id });
  const id = rows[0]?.id;
  if (!id) throw notFound();
  return loadBusiness(deps.db, id);
}

const mergeSettings = (values: Record<string, unknown>) =>
  sql`${businesses.settings} || ${JSON.stringify(values)}::jsonb`;

/** The business's own record, for its settings screen. */
export async function ownBusiness(deps: Deps, actor: Actor): Promise<TBusiness> {
  const [row] = await deps.db.select({ id: businesses.id }).from(businesses).where(own(actor));
  if (!row) throw notFound();
  return loadBusiness(deps.db, row.id);
}

export async function updateInfo(deps: Deps, actor: Actor, input: TBusinessInfoRequest): Promise<TBusiness> {
  const { name, opt_out_msg, ...contact } = input;
  const extra = Object.fromEntries(Object.entries(contact).filter(([, v]) => v !== undefined));
  return patch(deps, actor, {
    name,
    ...(opt_out_msg !== undefined ? { opt_out_msg } : {}),
    ...(Object.keys(extra).length ? { settings: mergeSettings(extra) } : {}),
  });
}

export async function updateReport(deps: Deps, actor: Actor, input: TBusinessReportRequest) {
  return patch(deps, actor, {
    report_emails: [...new Set(input.report_emails)],
    report_schedules: [...new Set(input.report_schedules)],
  });
}

export async function updateNotificationSettings(deps: Deps, actor: Actor, input: TBusinessSettingRequest) {
  // Merged into what is stored, so that a form sending some switches keeps the others.
  return patch(deps, actor, {
    settings: sql`jsonb_set(${businesses.settings}, '{notifications}', coalesce(${businesses.settings}->'notifications', '{}'::jsonb) || ${JSON.stringify(input.notifications)}::jsonb)`,
  });
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

function imageDir(deps: Deps, businessId: number) {
  return path.join(deps.config.dataDir, 'uploads', 'businesses', String(businessId));
}

async function removeImageFiles(dir: string, type: string) {
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  await Promise.all(
    names.filter((n) => n.startsWith(`${type}.`)).map((n) => fs.rm(path.join(dir, n), { force: true })),
  );
}

/** Stores the image under <dataDir>/uploads/businesses/<id>/<type>.<ext>; its URL goes in settings. */
export async function uploadImage(deps: Deps, actor: Actor, type: 'logo', data: string): Promise<TBusiness> {
  const { bytes, ext } = decodeImage(data);
  const businessId = actor.businessId;
  if (!businessId) throw notFound();
  const dir = imageDir(deps, businessId);
  await fs.mkdir(dir, { recursive: true });
  await removeImageFiles(dir, type);
  await fs.writeFile(path.join(dir, `${type}.${ext}`), bytes);
  // ?v= changes with every upload so that browsers do not show the old image.
  const url = `/uploads/businesses/${businessId}/${type}.${ext}?v=${Date.now()}`;
  return patch(deps, actor, { settings: mergeSettings({ [type]: url }) });
}

export async function deleteImage(deps: Deps, actor: Actor, type: 'logo'): Promise<TBusiness> {
  const businessId = actor.businessId;
  if (!businessId) throw notFound();
  const business = await patch(deps, actor, { settings: sql`${businesses.settings} - ${type}::text` });
  await removeImageFiles(imageDir(deps, businessId), type);
  return business;
}
