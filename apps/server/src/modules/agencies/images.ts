import { AGENCY_IMAGE_MAX_BYTES, type TAgencyImageType } from '@stn/contracts/agencies';
import { eq } from 'drizzle-orm';
import { putNamedImage, removeNamedImage } from '../../platform/files.ts';
import { decodeImage, IMAGE_EXTS } from '../../platform/storage.ts';
import type { Ctx } from '../../platform/tenancy/context.ts';
import { findAgency } from './queries.ts';
import { agencies } from './tables.ts';

const folder = (agencyId: number) => `agencies/${agencyId}`;

/**
 * Stores a logo or favicon sent as a data URL as agencies/<id>/<type>.<ext> in the file store and
 * points branding[type] at it, with a version so that browsers fetch the new one.
 */
export async function uploadAgencyImage(
  ctx: Ctx,
  input: { id: number; type: TAgencyImageType; data: string },
) {
  const agency = await findAgency(ctx, input);
  const { bytes: buf, ext } = decodeImage(input.data, {
    allowed: IMAGE_EXTS,
    maxBytes: AGENCY_IMAGE_MAX_BYTES,
    invalidKey: 'agencies.image_invalid',
    tooLargeKey: 'agencies.image_too_large',
  });

  const url = await putNamedImage(ctx.deps.storage, folder(agency.id), input.type, { bytes: buf, ext });
  const branding = { ...agency.branding, [input.type]: url };
  await ctx.db.update(agencies).set({ branding, updated_at: new Date() }).where(eq(agencies.id, agency.id));
  return { type: input.type, url, branding };
}

export async function deleteAgencyImage(ctx: Ctx, input: { id: number; type: TAgencyImageType }) {
  const { type } = input;
  const agency = await findAgency(ctx, input);
  await removeNamedImage(ctx.deps.storage, folder(agency.id), type);
  const branding = { ...agency.branding, [type]: null };
  await ctx.db.update(agencies).set({ branding, updated_at: new Date() }).where(eq(agencies.id, agency.id));
  return { type, url: null, branding };
}
